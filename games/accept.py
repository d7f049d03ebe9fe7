"""The locked path's writer: an accepted action recorded through the ORM, in its transaction.

Under the match row's lock (games/services.py), one accepted action is
recorded here as its decision says, deciding nothing: a move's transition
(``decisions.moved``: the move and the chance steps that follow it, the
rounds begun and ended, the match's end, the next fair deal record, the
match's new fields, the frames) or a version without a move
(``transition.Change``). What the decisions ask of the world is answered
here: the fair deal's action (``shuffled``, from the round's record,
F-1..F-6) and the rounds recorded (``_Rounds``). The frames are sent after
commit (``signals.version_committed``), the next deadline armed first.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from django.db import transaction

from . import clock, decisions, decks, fairness, frames, transition
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
    the fair deal record of the round about to be dealt (``next_round``), F-1..F-6.

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
    Round, ``decisions.moved``): counted once per action, kept on the match read for it."""
    number = getattr(match, "next_round", None)
    if number is None:
        number = match.next_round = match.rounds.count() + 1
    return number


def write(match: Match, decided, user=None) -> Outcome | None:
    """The locked path's writer (issue 35): persist what a decision
    (``transition.check``, games/decisions.py) returned for ``match`` (locked, in its transaction):
    a ``Step`` (a move: ``decisions.moved`` gives what follows it, ``persist``
    writes it) or a ``Change`` (a version without one: ``moveless``; a quiet
    one is saved alone, no version: None, its deadline armed when it moved
    one). ``user``: the person whose move it is."""
    if isinstance(decided, transition.Change):
        for name, value in decided.fields.items():
            setattr(match, name, value)
        if decided.quiet:
            match.save(update_fields=list(decided.fields))
            if "next_deadline" in decided.fields:
                arm_after_commit(match)
            return None
        return moveless(match, decided.game, decided.events, list(decided.fields))
    moved = decisions.moved(match, decided, rounds=_Rounds(match), chance=_chance(decided.game))
    return persist(match, moved, user)


class _Rounds(decisions.Rounds):
    """The rounds recorded, asked of the database (under the match's lock)."""

    def __init__(self, match: Match):
        self.match = match

    def count(self) -> int:
        return next_round(self.match) - 1

    def open(self) -> int | None:
        rounds = self.match.rounds.filter(last_seq__isnull=True).order_by("-number")
        return rounds.values_list("number", flat=True).first()


def _chance(game):
    """The fair deal's action for a decision (``decisions.moved``'s ``chance``)."""

    def chance(match: Match, number: int) -> dict:
        match.next_round = number  # the decision's copy: the round ``shuffled`` deals
        return shuffled(match, game)

    return chance


def persist(match: Match, moved: transition.Moved, user=None) -> Outcome:
    """Write ``moved`` (``decisions.moved``), deciding nothing: its move-log
    rows, the rounds begun and ended, the next round's fair deal record
    (F-1), the match row; a match that ended announces it
    (``signals.match_ended``, in the transaction); the frames after commit.
    ``match`` (the locked read) takes the new values."""
    rows(match, moved, user)
    match.__dict__.update({k: v for k, v in moved.match.__dict__.items() if k != "_state"})
    match.save(update_fields=PLAY_FIELDS)
    if moved.ended:
        match_ended.send(sender=Match, match=match)
    send(moved.frames, match.next_deadline)
    return Outcome(match.pk, match.version, moved.events, moved.frames)


def rows(match: Match, moved: transition.Moved, user=None) -> None:
    """The rows ``moved`` adds beside the match's own (``persist``; a new match's first deal)."""
    made = [
        Move(
            match=match,
            seq=row.seq,
            seat=row.seat,
            action=row.action,
            actor=row.actor,
            user=user if row.actor == Move.Actor.PLAYER else None,
            events=row.events,
        )
        for row in moved.moves
    ]
    if len(made) == 1:
        made[0].save()
    elif made:  # a move and its chance steps (the ace draw and the deal): one statement (issue 39)
        Move.objects.bulk_create(made)
    for number, first_seq in moved.opened:
        Round.objects.create(match=match, number=number, first_seq=first_seq)
    if moved.closed is not None:
        number, last_seq, result = moved.closed
        match.rounds.filter(number=number).update(last_seq=last_seq, ended_at=moved.at, result=result)
    if moved.record is not None:
        fairness.open_round(match, moved.record)


def advance(match: Match, game, events: list) -> list:
    """The chance steps a new match begins with (``decisions.dealt``), written;
    ``match`` takes the new values (``services.create_match`` sets its clocks)."""
    moved = decisions.dealt(match, rounds=_Rounds(match), chance=_chance(game))
    rows(match, moved)
    match.__dict__.update({k: v for k, v in moved.match.__dict__.items() if k != "_state"})
    return events + moved.events


def finish(match: Match, result: dict) -> None:
    """End ``match`` (locked, in its transaction) with ``result`` at once: saved,
    ``signals.match_ended`` sent (tests end a match this way; a move that ends
    it is ``decisions.moved``'s)."""
    decisions.end(match, result)
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
