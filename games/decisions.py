"""The decisions of the locked path's actions (issue 35): the clock, the
dealer, tea, a leave, a player back.

Each reads only the match as last committed (locked by its caller,
games/services.py) and returns a refusal (``transition.Refusal``: its code,
nothing changed) or the value ``accept.write`` persists: a
``transition.Step`` (a move, by the dealer, a bot or the clock) or a
``transition.Change`` (a version without a move). The match read is never
changed. What needs the world (the fair deal's values, a bot's thought,
whether a player is connected) is asked by the caller and passed in.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.conf import settings

from games import engine
from games.engine import CHANCE

from . import clock, deadlines, standin, tea
from .errors import PlayError
from .models import Match, Move
from .transition import Change, Due, Refusal, Step, check, fork


def _active(match: Match | None) -> Refusal | None:
    if match is None:
        return Refusal("no_match")
    if match.status != Match.Status.ACTIVE:
        return Refusal("match_over")
    return None


def at_deadline(match: Match | None, version: int, now: float | None = None) -> Refusal | Due:
    """What the deadline of ``version`` asks for (``services.expire``): the
    tea's end (H4-X4), else the first due seat's move (the dealer's, a bot's,
    the clock's for a person, C-8). ``stale_version``: the match moved on (a
    duplicate or a late timer does nothing); ``not_due``: nothing is due yet
    (a clock that fired early: the caller re-arms it)."""
    refusal = _active(match)
    if refusal is not None:
        return refusal
    if match.version != version:
        return Refusal("stale_version")
    if tea.due(match, now):
        return Due(None, None)
    seat = deadlines.due_seat(match, now)
    return Refusal("not_due") if seat is None else Due(*seat)


def deal(match: Match | None, *, now: float | None = None, last_move_at=None) -> Refusal | Due:
    """Whether the deal may be made now that its fair record is complete
    (``services.deal_if_ready``, F-2): ``not_dealing`` (no deal pending),
    ``tea_time`` (it waits for the tea's end, H4-X4), ``result_showing`` (the
    round's result pause, C-7: its deadline deals then). ``last_move_at()``:
    the time of the match's last move (asked only at a round's end)."""
    refusal = _active(match)
    if refusal is not None:
        return refusal
    game = engine.get(match.game)
    if CHANCE not in game.to_act(match.state):
        return Refusal("not_dealing")
    if tea.paused(match):
        return Refusal("tea_time")
    if game.round_over(match.state):
        last = last_move_at() if last_move_at is not None else None
        now = clock.now() if now is None else now
        if last is not None and now < last.timestamp() + float(settings.TABLE["ROUND_PAUSE"]):
            return Refusal("result_showing")
    return Due(CHANCE, Move.Actor.DEALER)


def due_step(
    match: Match, what: Due, action, *, away: bool = False, stand_in: bool = False
) -> Refusal | Step:
    """The move ``what`` asked for, with ``action`` (the fair deal's, the
    bot's, the clock's or the stand-in's, chosen by the caller): ``check``'s
    refusal, or its step by ``what.actor``. The clock's move at a person's
    seat counts his clock moves in a row while ``away`` (L-7, ``gone``)."""
    step = check(match, action, seat=what.seat)
    if isinstance(step, Refusal):
        return step
    gone = None
    if what.actor == Move.Actor.CLOCK:
        counter = _Gone(match.gone)
        standin.clock_moved(counter, what.seat, away)
        gone = counter.gone
    return replace(step, actor=what.actor, stand_in=stand_in, gone=gone)


@dataclass
class _Gone:
    gone: dict | None


def tea_due(match: Match) -> Change:
    """The tea's deadline came (``at_deadline`` said so): nobody said no in ten
    seconds, or the chapter's reading time is over (H4-X4)."""
    new = fork(match)
    game = engine.get(match.game)
    return _tea_change(new, game, tea.on_due(new, game, deadlines.set_deadlines))


def tea_say(match: Match | None, user_id: int, what: str) -> Refusal | Change:
    """A player's word about tea (``ask``, ``yes``, ``no``, ``continue``,
    H4-X4): its refusal (``no_match``, ``match_over``, ``not_seated`` and
    ``tea.decide``'s: ``tea_off``, ``tea_busy``, ``tea_used``, ``no_tea``,
    ``own_tea``, ``bad_frame``) or the change. ``match`` is never changed."""
    refusal = _active(match)
    if refusal is not None:
        return refusal
    seat = match.seat_of_user(user_id)
    if seat is None:
        return Refusal("not_seated")
    new = fork(match)
    game = engine.get(match.game)
    try:
        events = tea.decide(new, seat, what, game, deadlines.set_deadlines)
    except PlayError as exc:
        return Refusal(exc.code, exc.detail)
    return _tea_change(new, game, events)


def _tea_change(new: Match, game, events: list) -> Change:
    """A tea change is a version of its own (one state frame), with no move."""
    tea.fit_deadline(new)
    return Change(game, events, {name: getattr(new, name) for name in tea.TEA_FIELDS if name != "version"})


def leave(match: Match, seat: int | None) -> Change:
    """L-3: a confirmed leave (``seat``; None: nobody's, the room closing)
    ends the match as abandoned, a version of its own without a move."""
    fields = {
        "status": Match.Status.ABANDONED,
        "leaver_seat": seat,
        "finished_at": clock.now_dt(),
        "deadlines": {},
        "next_deadline": None,
    }
    return Change(engine.get(match.game), [{"type": "left", "seat": seat}], fields)


def came_back(match: Match | None, user_id: int) -> Refusal | Change:
    """L-7: a player connected to his table: his row of clock moves ends
    (``not_gone``: there was none). If the stand-in was playing, a version
    of its own (his full clock at once, the badge off); else the count
    only (``quiet``)."""
    refusal = _active(match)
    if refusal is not None:
        return refusal
    seat = match.seat_of_user(user_id)
    if seat is None or str(seat) not in (match.gone or {}):
        return Refusal("not_gone")
    new = fork(match)
    game = engine.get(match.game)
    was_playing = standin.active(new, seat)
    standin.acted(new, seat)
    if not was_playing:
        return Change(game, [], {"gone": new.gone}, quiet=True)
    deadlines.set_deadlines(new, game, previous=deadlines.others(match.deadlines, seat))
    fields = {"gone": new.gone, "deadlines": new.deadlines, "next_deadline": new.next_deadline}
    return Change(game, [{"type": "back", "seat": seat}], fields)
