"""The play service's doors: every action (human, bot, timeout, deal, tea, leave) comes in here.

One transaction per accepted action (docs/architecture.md, "the flow of one
action"), under the match row's lock: the decision is ``transition.check``
(a person's action) or one of ``games.decisions`` (the clock's, a bot's or
the dealer's move, tea, a leave, a player back): a refusal changes nothing;
else a value (``transition.Step``, a move, or ``transition.Change``, a
version without one) that the locked path's writer, ``accept.write``,
records through the ORM: the move, the version (``transition.bump``), the
next deadline, and the version's frames built from the state in memory,
announced after commit with the deadline armed first.

A person's card or call that only moves the round on, or ends it and
nothing more, is decided without the lock (``transition.decide``) and
written by the one statement of ``games.writer`` (compare-and-swap on the
version, issue 13 and 35); a row that moved on meanwhile goes the locked way.

This module reaches no other app: what the rest of the site does about an
action (rooms' seats and status, the ledger, the broadcast) hangs on the
signals in ``games.signals``.

Lock order (every path that locks more than one row, docs/architecture.md):
the match row first, then its fair deal record, then the room row, then seat
rows. ``play``/``expire`` lock the match and the receivers of
``match_ended`` then write the room; ``rooms.services.leave`` locks the
match before the room for the same reason. With the opposite order in one
of them, a match-ending card and a confirmed leave arriving together would
each hold one row and wait for the other: a deadlock. A seat swap (H4-X6)
writes no seat here: rooms' seats follow the committed version.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction

from games import engine
from games.engine import CHANCE
from infra.rows import RowReader
from ops import metrics

from . import accept, bots, clock, deadlines, decisions, decks, fairness, standin, tea, transition, writer
from .accept import Outcome
from .bots import choose
from .errors import PlayError
from .models import Match, Move
from .signals import match_ended

log = logging.getLogger(__name__)


# --- starting ------------------------------------------------------------------


def create_match(room, players: list[dict]) -> Match:
    """A new match for ``room`` (anything with ``pk``, ``game`` and ``rules``;
    its ``story_next``, when it has one, is the chapter the match's first tea
    tells, H4-X4) with ``players`` ([{seat, user_id, username, bot}]).

    Runs inside the caller's transaction (the room's start)."""
    game = engine.get(room.game)
    rules = game.validate_rules(room.rules)
    match = Match.objects.create(
        room_id=room.pk,
        game=room.game,
        rules=rules,
        state=game.new_match(rules),
        version=0,
        practice=any(p["bot"] for p in players),
        players=players,
        tea=tea.start(getattr(room, "story_next", None)) if rules.get("tea") else {},
    )
    match.next_round = 1  # no round yet (issue 39: not counted)
    # F-1: round 1's commitments open now; the ace draw waits for them without reading the record again
    match.opened_record = fairness.open_round(match, 1, new=True)
    events = accept.advance(match, game, [])
    match.__dict__.pop("opened_record", None)
    deadlines.set_deadlines(match, game, previous={})
    deadlines.wait_for_fair_deal(match)
    match.save()
    accept.commit(match, game, events, prev=0)
    return match


def deal_if_ready(match_id: int) -> Outcome | None:
    """Deal now if the deal is due and its fair record is complete (the last
    value just came in, F-2). Nothing during the result pause (C-7: its
    deadline deals then) or while values are missing."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()

        def last_move_at():
            return match.moves.order_by("-seq").values_list("created_at", flat=True).first()

        what = decisions.deal(match, last_move_at=last_move_at)
        if isinstance(what, transition.Refusal):
            return None
        try:
            action = accept.shuffled(match, engine.get(match.game))
        except fairness.NotReady:
            return None
        return accept.write(match, _decided(decisions.due_step(match, what, action)))


def _decided(decided):
    """A decision's transition; its refusal raised (nothing changed)."""
    if isinstance(decided, transition.Refusal):
        raise PlayError(decided.code, decided.detail)
    return decided


PAUSE_MARGIN = 0.5
"""Seconds before the end of a round's result pause (C-7) after which a
complete fair record is dealt at once again (``deal_waits_for_pause``)."""


def deal_waits_for_pause(record, now: float | None = None) -> bool:
    """True when the deal of ``record`` (just made ready by the last value,
    F-2) is certainly still inside the previous round's result pause (C-7):
    ``deal_if_ready`` would lock the match only to find the pause, and the
    dealer's deadline deals at its end anyway (``expire``). A record of a
    later round is opened with the round's last move, in its transaction
    (``_record``), so its creation time is where the pause began; the first
    round has no pause. Issue 13: at a thousand tables these calls were half
    of the table threads' work while rounds ended, each a locked transaction
    that did nothing, and the moves on the event loop waited for the GIL
    they held. A wrong answer would cost time, never the deal: at the pause's
    end the deadline deals with the values (or, missing ones, substitutes them
    after the wait, F-4)."""
    if record.number <= 1 or record.created_at is None:
        return False
    now = clock.now() if now is None else now
    pause = float(settings.TABLE["ROUND_PAUSE"])
    return now < record.created_at.timestamp() + pause - PAUSE_MARGIN


# --- the one door for actions ------------------------------------------------------


def play(
    match_id: int,
    action,
    *,
    user=None,
    seat: int | None = None,
    version: int | None = None,
    actor: str = Move.Actor.PLAYER,
    plain: bool = True,
) -> Outcome:
    """Apply one action. Raises PlayError (nothing changed) when it is refused.

    ``user`` acts for the seat he holds in this match; ``seat`` may be given to
    act for a bot or the clock (never from a client). ``version`` is the
    version the sender saw. ``plain=False``: straight to the locked path (the
    caller already tried the plain one, games/plain.py).
    """
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise PlayError("bad_action")
    if plain and version is not None and actor == Move.Actor.PLAYER and _unlocked():
        # A person's card or call that only moves the round on (or ends it and
        # nothing more): the same decision (``transition.decide`` is
        # ``transition.check`` and a transition) on an unlocked read, written
        # by the thread's writer, whose compare-and-swap stands in for the
        # lock. None anywhere (another decision is due, a refusal, a row that
        # moved on): the locked path below decides, and names any refusal.
        match = read_match(match_id)
        t = None
        if match is not None and match.version == version:
            t = transition.decide(match, action, user_id=user.pk if user is not None else None, seat=seat)
        written = writer.thread_writer.write(t) if t is not None else None
        if written is not None:
            accept.send(t.frames, t.deadline, opened=written.opened)  # not in a transaction: sent at once
            return Outcome(t.match.pk, t.version, t.events, t.frames)
    with transaction.atomic():
        # The row lock serialises every action of this match: two actions for
        # the same turn queue here, and the second sees the first's version.
        match = Match.objects.select_for_update().filter(pk=match_id).first()

        def moved_since(since: int, seats=None) -> bool:
            moves = match.moves.filter(seq__gt=since)
            return (moves if seats is None else moves.filter(seat__in=seats)).exists()

        step = transition.check(
            match,
            action,
            user_id=user.pk if user is not None else None,
            seat=seat,
            version=version,
            moved_since=moved_since,
        )
        return accept.write(match, replace(_decided(step), actor=actor), user)


PLAIN_PATH = True
"""Whether ``play`` tries the plain path first (issue 13; tests compare both)."""


def _unlocked() -> bool:
    """Whether ``play`` may try a person's move without the row lock: on
    PostgreSQL (the writer's statement), outside a transaction (the
    statement is its own; inside one the caller holds locks of its own)."""
    return PLAIN_PATH and connection.vendor == "postgresql" and not connection.in_atomic_block


def abandon(match: Match, leaver_seat: int) -> Outcome:
    """L-3: a player left an active match after confirming. Inside the caller's
    transaction, with the match row locked (before the room's: see the lock order)."""
    outcome = accept.write(match, decisions.leave(match, leaver_seat))
    match_ended.send(sender=Match, match=match)
    return outcome


# --- deadlines ---------------------------------------------------------------------------


_MATCH_READ = RowReader(Match, '"games_match"."id" = %s')


def read_match(match_id: int) -> Match | None:
    """``Match.objects.filter(pk=match_id).first()`` through a statement built
    once (infra/rows.py): the same row, the same field values, the same object
    (``tests/games/test_plain_path.py``)."""
    return _MATCH_READ.one([match_id])


def expire(match_id: int, version: int, *, bot: bool | None = None) -> Outcome | None:
    """The deadline of ``version`` came: play what is due. Idempotent: a stale
    version, a duplicate or a late task does nothing (ARCHITECTURE.md).

    A bot's move is thought out before the row is locked, on the version it
    was asked for: the search takes up to a few hundred milliseconds, and
    holding the lock meanwhile would queue every other action of the table
    (and a test's flush) behind it. Under the lock the version is checked
    again; if the match moved on, the thought is dropped. ``bot=False``:
    the caller read that the deadline is no bot's (the ticker), so there is
    nothing to think about before the lock."""
    thought = _bot_thought(match_id, version) if bot is not False else None
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        what = decisions.at_deadline(match, version)
        if isinstance(what, transition.Refusal):
            if what.code == "not_due":
                accept.arm_after_commit(match)  # early (a clock that fired ahead of time): the real deadline
            return None
        if what.seat is None:  # H4-X4: the ten seconds, or the chapter, are over
            return accept.write(match, decisions.tea_due(match))
        seat, away, stand_in = what.seat, False, False
        if seat == CHANCE:
            # F-4/F-5: after the wait a silent seat gets its substitute (flagged,
            # in ``shuffled``), then the deal.
            try:
                action = accept.shuffled(match, engine.get(match.game))
            except fairness.NotReady as exc:
                return accept.write(match, decisions.fair_wait(match, exc.record))
        elif what.actor == Move.Actor.BOT:
            action = thought[1] if thought and thought[0] == seat else _think(match, seat)
        else:
            # L-5: the clock plays for him; L-7: after two in a row while he was gone, the stand-in
            away = not standin.connected(match, seat)
            stand_in = away and standin.active(match, seat)
            if stand_in:
                thought_here = thought and thought[0] == seat
                action = thought[1] if thought_here else _think(match, seat, level=standin.level())
            else:
                action = engine.get(match.game).auto_action(match.state, seat)
        step = decisions.due_step(match, what, action, away=away, stand_in=stand_in)
        return accept.write(match, _decided(step))


def bot_action(
    game_name: str, state: dict, seat: int, level: str = bots.DEFAULT_LEVEL, seed: int = 0
) -> dict:
    """The bots' choice (games/bots), its time counted by level (ops/metrics.py)."""
    began = metrics.now()
    try:
        return bots.bot_action(game_name, state, seat, level=level, seed=seed)
    finally:
        metrics.bot_thought(level, metrics.now() - began)


def _think(match: Match, seat: int, level: str | None = None):
    """The bot's action at ``seat`` (``level``: the stand-in's, L-7; else the
    seat's bot's). It sees only its seat's view; it thinks on a worker thread
    or a Celery worker, never on the event loop (issue 21)."""
    player = match.player_at(seat) or {}
    level = level or player.get("level") or settings.TABLE["BOT_LEVEL"]
    if (given := decks.given(match)) is not None:  # issue 37: the same play meets the same answer
        view = engine.get(match.game).view(match.state, seat)
        return choose(
            match.game,
            view,
            seat,
            level=level,
            seed=given.bot_seed,
            budget_ms=given.bot_budget_ms,
            worlds=given.bot_worlds,
        )
    return bot_action(match.game, match.state, seat, level=level, seed=match.pk * 7919 + match.version)


def _bot_thought(match_id: int, version: int):
    """``(seat, action)`` when the deadline due at ``version`` is a bot's,
    decided from an unlocked read of that version; None otherwise (nothing
    due yet, a person's clock, the dealer, tea, a stale version)."""
    match = read_match(match_id)
    if match is None or match.status != Match.Status.ACTIVE or match.version != version or tea.due(match):
        return None
    due = deadlines.due_seat(match)
    if due is None:
        return None
    if due[1] == Move.Actor.CLOCK and standin.active(match, due[0]):
        return due[0], _think(match, due[0], level=standin.level())  # L-7: used if he is still gone
    if due[1] != Move.Actor.BOT:
        return None
    return due[0], _think(match, due[0])


def came_back(match_id: int, user_id: int) -> Outcome | None:
    """L-7: a player of ``match_id`` connected to its table (its greeting). His row of clock
    moves ends; a stand-in that was playing makes it a version of its own (his full clock at
    once, the badge off). None when nothing changed (a second socket: idempotent)."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        decided = decisions.came_back(match, user_id)
        return None if isinstance(decided, transition.Refusal) else accept.write(match, decided)


# --- tea with the narrator (H4-X4, games/tea.py) ----------------------------------------


def tea_say(match_id: int, user, what: str) -> Outcome:
    """A player asks for tea, says yes or no to one, or presses continue.
    One transaction; raises PlayError (nothing changed) when refused."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        return accept.write(match, _decided(decisions.tea_say(match, user.pk, what)))


def sweep(now: datetime | None = None, grace: float = 2.0) -> int:
    """Fire deadlines that passed with nothing done about them (a lost worker,
    a restarted Redis): more than ``grace`` seconds late, so the scheduled
    timer normally wins. Returns how many actions it played."""
    now = now or clock.now_dt()
    overdue = Match.objects.filter(
        status=Match.Status.ACTIVE, next_deadline__lte=now - timedelta(seconds=grace)
    ).values_list("pk", "version")
    count = 0
    for match_id, version in overdue:
        try:
            # Everything overdue is played now; a fresh deadline is scheduled
            # after commit as usual, so a lost schedule is re-armed too.
            while (outcome := expire(match_id, version)) is not None:
                count += 1
                version = outcome.version
                if count > 1000:
                    break
        except Exception:  # noqa: BLE001 - one broken match must not stop the sweep
            log.exception("sweep failed for match %s", match_id)
    return count
