"""The deadlines of a match's version (C-7, C-8): who must act by when.

Every seat to act gets a deadline (a seat whose player is gone, L-7, a
short one: games/standin.py); a seat that was already waiting keeps
its own (several seats acting at once, the hokm2 draft). Bots act after a
short human-looking pause; the next deal after the round's result pause
(C-7); a deal that waits for its fair deal record at the record's deadline
(F-4). ``Match.next_deadline`` is the earliest: the ticker fires it
(games/ticker.py) and ``services.expire`` plays what is due.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from django.conf import settings

from games.engine import CHANCE

from . import clock, standin
from .models import Match, first_due

DEFAULT_TURN_SECONDS = 30

_pace_random = secrets.SystemRandom()  # bots' pauses: nothing to do with the cards


def turn_seconds(match: Match) -> float:
    """The room's time per turn (C-8), trump choice, bids, put-aside and draft included."""
    return float(match.rules.get("turn_seconds") or DEFAULT_TURN_SECONDS) * float(
        settings.TABLE["TURN_SCALE"]
    )


def is_bot(match: Match, seat: int) -> bool:
    p = match.player_at(seat)
    return bool(p and p.get("bot"))


def others(deadlines: dict, seat: int) -> dict:
    """The deadlines of the seats that did not just act: they keep running."""
    return {k: v for k, v in (deadlines or {}).items() if k != str(seat)}


def set_deadlines(match: Match, game, previous: dict) -> None:
    """Every seat to act gets a deadline (C-8); see the module's docstring."""
    if match.status != Match.Status.ACTIVE:
        match.deadlines, match.next_deadline = {}, None
        return
    now = clock.now()
    deadlines = {}
    for seat in sorted(game.to_act(match.state)):
        key = str(seat)
        if seat == CHANCE:
            deadlines[key] = now + float(settings.TABLE["ROUND_PAUSE"])
        elif is_bot(match, seat):
            # A human-looking pause: the configured delay, give or take a third.
            delay = float(settings.TABLE["BOT_DELAY"]) * _pace_random.uniform(0.67, 1.33)
            deadlines[key] = previous.get(key) or now + delay
        elif standin.active(match, seat):
            deadlines[key] = previous.get(key) or now + standin.seconds()  # L-7: he is gone
        else:
            deadlines[key] = previous.get(key) or now + turn_seconds(match)
    match.deadlines = deadlines
    match.next_deadline = datetime.fromtimestamp(min(deadlines.values()), tz=UTC) if deadlines else None


def wait_for_fair_deal(match: Match) -> None:
    """After ``set_deadlines``: a deal that waits for its fair record is due
    at the record's deadline (when the silent seats are replaced), not after
    the result pause."""
    record = getattr(match, "fair_waiting", None)
    key = str(CHANCE)
    if record is None or record.deadline is None or key not in (match.deadlines or {}):
        return
    match.deadlines = {**match.deadlines, key: max(record.deadline.timestamp(), clock.now())}
    match.next_deadline = datetime.fromtimestamp(min(match.deadlines.values()), tz=UTC)


def due_seat(match: Match, now: float | None = None):
    """``(seat, actor)`` whose deadline has come, or None."""
    return first_due(match.deadlines, match.players, clock.now() if now is None else now)
