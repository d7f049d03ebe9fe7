"""The plain path on the event loop (issue 13), and the end of a round.

Most actions are a person's card or call inside a round. The play service
decides those without the row lock in two statements (``services._play_plain``:
read the match, then one statement that writes it only at the version read
and appends the move). Here the same decision (``services.plain_step``) runs
on the table socket's event loop, over the loop's own PostgreSQL
connections (infra/adb.py): no thread hop, no GIL hand-over. And the read
is skipped when this process holds the match at the version the player
saw: the last version it wrote or read (``_matches``), which is the row's
as long as the write that follows finds the row at that version (its
``WHERE``), since everything a move reads from the row changes only with
the version (services.PLAIN_WRITE).

A person's card that ends a round and nothing more (no match end, no
seat swap, no tea; the next deal waits for the result pause, C-7) is decided
here too (``_end_round``): the same one statement also closes the round's
row and opens the next round's fair deal record, and the ended round's
public record (F-3) is read on the loop before the frames go out.

``play`` returns the committed version's ``Outcome`` (frames built, not yet
announced: the caller announces them, ``announce``) or None: not a plain
move, a row that moved on, or the database unreachable; then the caller
takes the play service's locked path, which decides it and gives any
refusal its error, exactly as before.
"""

from __future__ import annotations

import logging
from collections import OrderedDict

from django.db.models.base import ModelState

from infra import adb
from infra.rows import RowReader

from . import clock, fairness, frames, services
from .models import Match

log = logging.getLogger(__name__)

KEPT = 4096
"""Matches whose last version this process keeps (the least recently used go first)."""


class _Matches:
    """The matches this process last wrote or read, each at that version.

    An entry is only ever replaced, never changed: a move works on a copy."""

    def __init__(self, size: int = KEPT):
        self.size = size
        self.rows: OrderedDict[int, Match] = OrderedDict()

    def at(self, match_id: int, version: int) -> Match | None:
        match = self.rows.get(match_id)
        if match is None or match.version != version:
            return None
        self.rows.move_to_end(match_id)
        return match

    def keep(self, match: Match) -> None:
        self.rows[match.pk] = match
        self.rows.move_to_end(match.pk)
        while len(self.rows) > self.size:
            self.rows.popitem(last=False)

    def drop(self, match_id: int) -> None:
        self.rows.pop(match_id, None)

    def clear(self) -> None:
        self.rows.clear()


_matches = _Matches()
_reader = RowReader(Match, '"games_match"."id" = %s')


def _fork(match: Match) -> Match:
    """A copy of ``match`` whose fields a move may set without touching the
    kept one (the values themselves are replaced, never changed in place)."""
    new = Match.__new__(Match)
    new.__dict__.update(match.__dict__)
    new._state = ModelState()
    new._state.db, new._state.adding = match._state.db, False
    return new


def available() -> bool:
    return services.PLAIN_PATH and adb.available()


async def _read(match_id: int) -> Match | None:
    return await _reader.aone([match_id])


_WRITE = adb.Statement("takhteh_plain_move", services.PLAIN_WRITE)


async def _write(params: list) -> int:
    return await adb.run(_WRITE, params)


async def play(match_id: int, action: dict, *, user_id: int, seat: int | None, version: int):
    """A person's plain move or round end on the loop: its ``services.Outcome``, or None (see the module's docstring)."""
    if not available() or not isinstance(action, dict):
        return None
    ended = None
    try:
        held = _matches.at(match_id, version)
        if held is None:
            held = await _read(match_id)
            if held is None:
                return None
            _matches.keep(held)
            if held.version != version:
                return None
        step = services.plain_step(held, action, user_id, seat)
        if step is None:
            ended = await _end_round(held, action, user_id, seat)
            if ended is None:
                return None
            match, built, opened = ended.match, ended.built, ended.opened
            written = 1
        else:
            own, game, state, events = step
            match = _fork(held)
            prev = services.plain_next(match, own, game, state)
            built = frames.build(match, game, events, prev)
            written = await _write(services.plain_params(match, prev, own, action, user_id, events))
            opened = None
    except Exception:  # noqa: BLE001 - the locked path decides, on the ORM's connections
        log.exception("the plain path of match %s failed; the locked path decides", match_id)
        _matches.drop(match_id)
        return None
    if written != 1:
        _matches.drop(match_id)  # it moved on: read it again next time
        return None
    _matches.keep(match)
    if match.next_deadline is not None:
        try:
            clock.schedule(match.pk, match.version, match.next_deadline)
        except Exception:  # noqa: BLE001 - the sweep re-arms a lost deadline
            log.exception("could not arm the deadline of match %s v%s", match.pk, match.version)
    if ended is not None:
        built.round_record = await ended.published()
    return services.Outcome(match.pk, match.version, built.events, built, opened=opened)


_ROUND_END = adb.Statement("takhteh_round_end", services.ROUND_END_WRITE)


class _Ended:
    """A round's end written on the loop: the match at its new version, its
    frames, the next round's record (None if it existed already), and the
    ended round (its number, its first move) for its public record (F-3)."""

    def __init__(self, match: Match, built, opened, number: int, first_seq: int):
        self.match, self.built, self.opened = match, built, opened
        self.number, self.first_seq = number, first_seq

    async def published(self) -> dict | bool:
        """The ended round's public record (F-3), or False: none to publish
        (``frames.Frames.round_record``). Read after the write, which is
        committed whatever happens here."""
        try:
            record = await fairness.public_record_on_loop(
                self.match, self.number, self.first_seq, self.match.version
            )
        except Exception:  # noqa: BLE001 - the round's end stands; its record is on the review page
            log.exception(
                "could not read the public record of round %s of match %s", self.number, self.match.pk
            )
            return False
        return record or False


async def _end_round(held: Match, action: dict, user_id: int, seat: int | None) -> _Ended | None:
    """A person's move that ends the round and nothing more
    (``services.round_end_step``), written in one statement on the loop
    (``services.ROUND_END_WRITE``): the move, the round's row closed and the
    next round's fair deal record opened (F-1), as the locked path's
    ``_record`` does, only if the match is still at the version read. At a
    thousand tables the first rounds end together (15-35 a second), and on
    the table threads their locked transactions held the GIL the loop's
    moves waited for (docs/performance.md). None: the locked path decides."""
    step = services.round_end_step(held, action, user_id, seat)
    if step is None:
        return None
    opened_round = await adb.fetchone(services.OPEN_ROUND_READ, [held.pk])
    if opened_round is None:
        return None
    number, first_seq = opened_round
    own, game, state, events = step
    match = _fork(held)
    prev = services.plain_next(match, own, game, state)
    built = frames.build(match, game, events, prev)
    now = clock.now_dt()
    record = fairness.new_record(match, number + 1, now=now)
    params = services.round_end_params(match, prev, own, action, user_id, events, number, record, now)
    row = await adb.first(_ROUND_END, params)
    if row is None:
        _matches.drop(held.pk)
        return None
    if row[0] is None:
        record = None  # it existed already: opened and announced by whoever made it
    else:
        record.pk = int(row[0])
        record.created_at = record.updated_at = now
        record.match_room_id = match.room_id  # rooms' announcement needs no read
    return _Ended(match, built, record, number, first_seq)


def announce(outcome) -> None:
    """Tell the listeners about the version ``play`` committed: the next
    round's fair deal record it opened first, as the locked path's commit
    does (fairness.announce_now), then the version (services.announce)."""
    if outcome.opened is not None:
        fairness.announce_now(outcome.opened)
    services.announce(outcome.frames)


def forget() -> None:
    """Drop every match kept (tests)."""
    _matches.clear()
