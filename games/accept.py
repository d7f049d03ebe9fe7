"""The locked path's writer: an accepted action recorded through the ORM, in its transaction.

Under the match row's lock (games/services.py), one accepted action is
recorded here: the move appended, the chance steps that follow at once
played (the deal after the ace draw, F-1..F-6: from the round's fair deal
record, ``shuffled``), the rounds opened and closed, the match finished,
the clocks set, the row saved with the version moved on
(``transition.bump``), and this version's frames built from the state in
memory and sent after commit (``signals.version_committed``), the next
deadline armed first.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from django.db import transaction

from games.engine import CHANCE

from . import clock, deadlines, decks, fairness, frames, standin, tea, transition
from .models import Match, Move, Round
from .signals import match_ended, version_committed

log = logging.getLogger(__name__)


PLAY_FIELDS = [
    "state",
    "version",
    "deadlines",
    "next_deadline",
    "players",
    "status",
    "result",
    "finished_at",
    "tea",  # H4-X4: an agreed tea is poured when a trick is gathered (games/tea.py)
    "gone",  # L-7: the clock's moves in a row at a disconnected player's seat (games/standin.py)
]
"""What an accepted action may change in the match row (saved alone: issue 13)."""


@dataclass
class Outcome:
    """What one accepted action changed: its version, events and frames."""

    match_id: int
    version: int
    events: list = field(default_factory=list)
    frames: frames.Frames | None = None
    opened: object | None = None
    """The next round's fair deal record this action opened, when it is
    announced by the caller before the frames (the event loop's round end,
    games/plain.py); the locked path announces its own after commit."""


def shuffled(match: Match, game) -> dict:
    """The pending chance action (the ace draw or the deal) of ``match``, from
    the fair deal record of the round about to be dealt (F-1..F-6).

    Raises ``fairness.NotReady`` while values are missing and the wait is
    not over; once it is over, every silent seat gets its substitute first
    (F-4): the game never stalls on a missing value."""
    kind, cards = game.pending_chance(match.state)
    number = next_round(match)
    if (given := decks.given(match)) is not None:
        return given.chance_action(kind, number)  # issue 37: decks fixed in advance (games/decks.py)
    for _ in range(2):  # at most two waits: the fingerprints, then the values
        try:
            return fairness.chance_action(match, number, kind, cards)
        except fairness.NotReady as exc:
            if not fairness.due(exc.record):
                raise
        fairness.substitute_missing(match.pk, number)
    return fairness.chance_action(match, number, kind, cards)


def next_round(match: Match) -> int:
    """The number of the round the pending deal starts (the deal creates its
    Round, ``record``): counted once per action, kept on the match read for it."""
    number = getattr(match, "next_round", None)
    if number is None:
        number = match.next_round = match.rounds.count() + 1
    return number


def write(match: Match, decided, user=None) -> Outcome | None:
    """The locked path's writer (issue 35): persist what a decision
    (``transition.check``, games/decisions.py) returned for ``match`` (locked, in its transaction):
    a ``Step`` (a move: ``accept``) or a ``Change`` (a version without one:
    ``moveless``; a quiet one is saved alone, no version: None). ``user``:
    the person whose move it is."""
    if isinstance(decided, transition.Change):
        for name, value in decided.fields.items():
            setattr(match, name, value)
        if decided.quiet:
            match.save(update_fields=list(decided.fields))
            return None
        return moveless(match, decided.game, decided.events, list(decided.fields))
    if decided.gone is not None:
        match.gone = decided.gone
    return accept(
        match,
        decided.game,
        decided.seat,
        decided.action,
        decided.state,
        decided.events,
        decided.actor,
        user,
        stand_in=decided.stand_in,
    )


def accept(
    match: Match,
    game,
    seat: int,
    action: dict,
    state: dict,
    events: list,
    actor: str,
    user,
    *,
    stand_in: bool = False,
) -> Outcome:
    """The end of every accepted action, in its transaction: record the move,
    play the chance steps that follow, set the clocks, save, build the frames.
    ``stand_in``: the clock's move was the stand-in's choice (L-7)."""
    prev = match.version
    if actor == Move.Actor.PLAYER:
        standin.acted(match, seat)  # L-7: he is there
    events = record(match, game, seat, action, state, events, actor, user, stand_in=stand_in)
    events = advance(match, game, events)
    # H4-X1: picking the middle card up is no move of the turn; every clock runs on, the picker's too.
    kept = match.deadlines if action.get("type") == "pick_up" else deadlines.others(match.deadlines, seat)
    deadlines.set_deadlines(match, game, previous=kept)
    events = tea.after_action(match, game, events)  # H4-X4: an agreed tea begins after the trick
    match.save(update_fields=PLAY_FIELDS)
    built = commit(match, game, events, prev)
    return Outcome(match.pk, match.version, events, built)


def record(match, game, seat, action, state, events, actor, user, *, stand_in: bool = False) -> list:
    transition.bump(match)
    match.state = state
    Move.objects.create(
        match=match,
        seq=match.version,
        seat=seat,
        action=action,
        actor=actor,
        user=user if actor == Move.Actor.PLAYER else None,
        events=events,
    )
    if actor == Move.Actor.CLOCK:
        auto = (
            {"type": "auto", "seat": seat, "stand_in": True} if stand_in else {"type": "auto", "seat": seat}
        )
        events = [auto] + events
    for event in events:
        if event.get("type") == "swap_seats":
            swap_players(match, event["a"], event["b"])
    if action.get("type") == "deal":
        number = next_round(match)
        Round.objects.create(match=match, number=number, first_seq=match.version)
        match.next_round = number + 1
    current = None
    if game.round_over(state) or not game.to_act(state):
        current = match.rounds.filter(last_seq__isnull=True).order_by("-number").first()
        if current is not None:
            current.last_seq = match.version
            current.ended_at = clock.now_dt()
            current.result = transition.round_summary(events)
            current.save(update_fields=["last_seq", "ended_at", "result"])
    result = game.result(state)
    if result is None and current is not None and game.round_over(state):
        given = decks.given(match)  # issue 37: a match of given decks ends after its last one
        result = given.result(state, current.number) if given is not None else None
    if result is not None and match.status == Match.Status.ACTIVE:
        finish(match, result)
    elif current is not None and game.round_over(state) and match.status == Match.Status.ACTIVE:
        # The next round's commitments are exchanged during the result pause (C-7, F-1).
        fairness.open_round(match, current.number + 1)
    return events


def advance(match: Match, game, events: list) -> list:
    """Apply the chance steps that follow at once (the deal after the draw,
    the first deal). The deal after a finished round waits for its deadline
    (C-7: the result is shown first)."""
    while (
        match.status == Match.Status.ACTIVE
        and CHANCE in game.to_act(match.state)
        and not game.round_over(match.state)
    ):
        try:
            action = shuffled(match, game)
        except fairness.NotReady as exc:
            # F-2: values are still coming; the deal waits for them, or for
            # the record's deadline (a few seconds, F-4).
            match.fair_waiting = exc.record
            break
        match.fair_waiting = None
        state, new = game.apply(match.state, CHANCE, action)
        events = events + record(match, game, CHANCE, action, state, new, Move.Actor.DEALER, None)
    return events


def swap_players(match: Match, a: int, b: int) -> None:
    """H4-X6: partners sit opposite; the engine moved seats, we move the players.
    Whoever keeps seats of its own (rooms) follows the ``swap_seats`` event
    of the committed version (``signals.version_committed``)."""
    players = []
    for p in match.players:
        p = dict(p)
        if p["seat"] == a:
            p["seat"] = b
        elif p["seat"] == b:
            p["seat"] = a
        players.append(p)
    match.players = sorted(players, key=lambda p: p["seat"])
    standin.swapped(match, a, b)


def finish(match: Match, result: dict) -> None:
    match.status = Match.Status.FINISHED
    match.result = result
    match.finished_at = clock.now_dt()
    match.deadlines = {}
    match.next_deadline = None
    match.save()
    match_ended.send(sender=Match, match=match)


def moveless(match: Match, game, events: list, fields: list[str] | None) -> Outcome:
    """A version with no move (a tea change, a leave, a player back from a
    stand-in, L-7): the version moved on (``transition.bump``), the row saved
    (``fields``, the version with them; None: every field), its frames
    built and sent after commit. Under the row's lock, in its transaction."""
    prev = transition.bump(match)
    match.save(update_fields=None if fields is None else sorted({*fields, "version"}))
    built = commit(match, game, events, prev)
    return Outcome(match.pk, match.version, events, built)


def commit(match: Match, game, events: list, prev: int) -> frames.Frames:
    """Build this version's frames now (in the transaction, from the state in
    memory) and send exactly them after commit; arm the next deadline first."""
    built = frames.build(match, game, events, prev)
    send(built, match.next_deadline)
    return built


def send(built: frames.Frames, when, opened=None) -> None:
    """Arm the next deadline, then announce ``built`` (after the commit when in a transaction)."""
    match_id, version = built.match_id, built.version

    def after():
        if when is not None:
            try:
                clock.schedule(match_id, version, when)
            except Exception:  # noqa: BLE001 - the sweep re-arms a lost deadline
                log.exception("could not arm the deadline of match %s v%s", match_id, version)
        announce(built, opened=opened)

    transaction.on_commit(after)


def announce(built: frames.Frames, opened=None) -> None:
    """Tell the listeners (rooms' broadcast) about a committed version; a
    listener's failure is logged, never raised into the action. ``opened``:
    the next round's fair deal record the version opened outside a
    transaction (games/writer.py), announced first (F-1)."""
    if opened is not None:
        fairness.announce_now(opened)
    for _receiver, response in version_committed.send_robust(sender=Match, frames=built):
        if isinstance(response, Exception):
            log.error("broadcast of match %s v%s failed: %r", built.match_id, built.version, response)


def arm_after_commit(match: Match) -> None:
    match_id, version, when = match.pk, match.version, match.next_deadline
    if when is not None:
        transaction.on_commit(lambda: clock.schedule(match_id, version, when))
