"""A person's move on the event loop (issues 13, 35).

Most actions are a person's card or call inside a round. Here they are
decided on the table socket's event loop (``transition.decide``: the same
decision the threads take) and written by the loop's implementation of the
one writer (``writer.LoopWriter``: one prepared statement over the loop's
own PostgreSQL connections, infra/adb.py): no thread hop, no GIL hand-over.
The read is skipped when this process holds the match at the version the
player saw: the last version it wrote or read (``_matches``), which is the
row's as long as the write finds the row at that version (the statement's
compare-and-swap), since everything a move reads from the row changes only
with the version.

A card that ends a round and nothing more (no match end, no seat swap, no
tea; the next deal waits for the result pause, C-7) is the same one
statement, which also closes the round's row and opens the next round's
fair deal record; the ended round's public record (F-3) is read on the loop
before the frames go out.

``move`` returns the committed version's ``Outcome`` (frames built, not yet
announced: the caller announces them, ``announce``) or None: not such a
move, a row that moved on, or the database unreachable; then the caller
takes the play service's locked path, which decides it and gives any
refusal its error, exactly as before.
"""

from __future__ import annotations

import logging
from collections import OrderedDict

from infra import adb
from infra.rows import RowReader

from . import accept, clock, fairness, services, transition, writer
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


def available() -> bool:
    return services.PLAIN_PATH and adb.available()


async def _read(match_id: int) -> Match | None:
    return await _reader.aone([match_id])


async def move(match_id: int, action: dict, *, user_id: int, seat: int | None, version: int):
    """A person's move on the loop: its ``accept.Outcome``, or None (see the module's docstring)."""
    if not available() or not isinstance(action, dict):
        return None
    try:
        held = _matches.at(match_id, version)
        if held is None:
            held = await _read(match_id)
            if held is None:
                return None
            _matches.keep(held)
            if held.version != version:
                return None
        t = transition.decide(held, action, user_id=user_id, seat=seat)
        if t is None:
            return None
        written = await writer.loop_writer.write(t)
    except Exception:  # noqa: BLE001 - the locked path decides, on the ORM's connections
        log.exception("the plain path of match %s failed; the locked path decides", match_id)
        _matches.drop(match_id)
        return None
    if written is None:
        _matches.drop(match_id)  # it moved on: read it again next time
        return None
    match = t.match
    _matches.keep(match)
    if match.next_deadline is not None:
        try:
            clock.schedule(match.pk, match.version, match.next_deadline)
        except Exception:  # noqa: BLE001 - the sweep re-arms a lost deadline
            log.exception("could not arm the deadline of match %s v%s", match.pk, match.version)
    if written.closed is not None:
        t.frames.round_record = await _published(match, *written.closed)
    return accept.Outcome(match.pk, match.version, t.events, t.frames, opened=written.opened)


async def _published(match: Match, number: int, first_seq: int) -> dict | bool:
    """The ended round's public record (F-3), or False: none to publish
    (``frames.Frames.round_record``). Read after the write, which is
    committed whatever happens here."""
    try:
        record = await fairness.public_record_on_loop(match, number, first_seq, match.version)
    except Exception:  # noqa: BLE001 - the round's end stands; its record is on the review page
        log.exception("could not read the public record of round %s of match %s", number, match.pk)
        return False
    return record or False


def announce(outcome) -> None:
    """Tell the listeners about the version ``move`` committed (``accept.announce``)."""
    accept.announce(outcome.frames, opened=outcome.opened)


def forget() -> None:
    """Drop every match kept (tests)."""
    _matches.clear()
