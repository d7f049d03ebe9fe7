"""One decision, one transition (issue 35).

``check`` is the decision of every person's (or bot's, or clock's) action
against the match as last committed: a ``Refusal`` (its code, nothing
changed) or a ``Step`` (the rules' new state and events). It reads nothing
but the match in memory: the one question it cannot answer alone, whether
moves were made since the version the sender saw, is asked through
``moved_since`` (the locked path asks the move log).

``decide`` turns a person's step that the writers persist without the row
lock into a ``Transition`` value: the match at its new version (a copy: the
match read is never changed), the version it replaces (the writer's
compare-and-swap), the move-log row, whether the round ends with it (its
row closed, the next round's fair deal record opened, F-1), the next
deadline and the frames to send. Anything else (a deal, a match's end, a
seat swap, tea, a refusal) is None: the locked path decides it, under the
row lock (services.play). ``bump`` is the one place a version moves on.

A writer (games/writer.py) persists a transition in one statement; the
event loop and the threads have one implementation each. Under the row
lock, ``accept.write`` persists a ``Step`` (a move) or a ``Change`` (a
version without one: tea, a leave, a player back), the values that ``check``
and the locked path's other decisions (games/decisions.py) return.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models.base import ModelState

from games import engine
from games.engine import CHANCE, IllegalAction

from . import clock, deadlines, decks, fairness, frames, standin, tea
from .models import DealRecord, Match, Move


@dataclass(frozen=True)
class Refusal:
    """An action refused: nothing changes; ``code`` is the PlayError's."""

    code: str
    detail: str = ""


@dataclass(frozen=True)
class Step:
    """An action the rules accept, applied in memory only: the locked path's
    transition of a move (``accept.write`` persists it, the version bumped there)."""

    seat: int
    game: object
    state: dict
    events: list
    action: dict | None = None
    actor: str = Move.Actor.PLAYER
    stand_in: bool = False
    """The clock's move was the stand-in's choice (L-7)."""
    gone: dict | None = None
    """``Match.gone`` after the move when it changes it (the clock's move, L-7); None: unchanged."""


@dataclass(frozen=True)
class Change:
    """A version without a move (a tea change): the match row's new values of
    ``fields`` and the version's events (``accept.write`` persists it)."""

    game: object
    events: list
    fields: dict
    quiet: bool = False
    """Invisible: the fields saved without a version or frames (a count only)."""


@dataclass(frozen=True)
class MoveRow:
    """One row of the move log a transition appends."""

    seq: int
    seat: int
    action: dict
    actor: str
    events: list


@dataclass
class Moved:
    """A move accepted under the row lock with everything that follows it
    (``decisions.moved``), decided, not yet written: ``accept.write``
    persists exactly this and decides nothing."""

    match: Match
    """The match at its new version and fields (a copy: the match read is never changed)."""
    prev: int
    game: object
    events: list
    """The version's events (the clock's ``auto``, the chance steps', tea's)."""
    moves: list[MoveRow]
    """The move and the chance steps that followed it at once (the deal after the ace draw)."""
    frames: frames.Frames | None = None
    opened: list[tuple[int, int]] = field(default_factory=list)
    """Rounds begun by a deal: (number, first move)."""
    closed: tuple[int, int, dict] | None = None
    """The round ended: (number, last move, its result)."""
    record: int | None = None
    """The round whose fair deal record opens now (F-1: the next one, during the result pause)."""
    ended: bool = False
    """The match ended with it (its result set): ``signals.match_ended``."""
    at: datetime | None = None


@dataclass(frozen=True)
class Due:
    """What a deadline (or a fair deal's last value) asks for: the tea's
    (``seat`` None), else ``seat``'s move by ``actor``."""

    seat: int | None
    actor: str | None


@dataclass
class Transition:
    """One accepted action, decided, not yet written (see the module's docstring)."""

    match: Match
    prev: int
    seat: int
    action: dict
    actor: str
    user_id: int | None
    events: list
    frames: frames.Frames
    at: datetime
    ends_round: bool = False
    record: DealRecord | None = None
    """The next round's fair deal record, opened with the round's end (its
    number is set by the writer: the round closed plus one)."""
    closed: tuple[int, int] | None = field(default=None)
    """Set by the writer: the ended round's (number, first move)."""

    @property
    def version(self) -> int:
        return self.match.version

    @property
    def deadline(self) -> datetime | None:
        return self.match.next_deadline

    def summary(self) -> dict:
        """The ended round's result (its row's ``result``)."""
        return round_summary(self.events)


def bump(match: Match) -> int:
    """The one place a match's version moves on (in memory; its writer stores
    it, compare-and-swap without the lock, under the row lock elsewhere):
    every accepted action, tea change and leave is one version. Returns the
    version before."""
    prev = match.version
    match.version = prev + 1
    return prev


def round_summary(events) -> dict:
    keep = {"round_won", "round_scored", "deal_scored", "match_won", "rubber_won"}
    return {"events": [e for e in events if e.get("type") in keep]}


def check(
    match: Match | None,
    action,
    *,
    user_id: int | None = None,
    seat: int | None = None,
    version: int | None = None,
    moved_since=None,
) -> Refusal | Step:
    """The decision of one action (see the module's docstring).

    ``user_id`` acts for the seat he holds; ``seat`` may be given to act for
    a bot or the clock. ``version``: the version the sender saw (None: not
    checked). ``moved_since(version, seats)``: whether moves (of ``seats``,
    or any) were made since ``version``; without it, they were."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return Refusal("bad_action")
    if match is None:
        return Refusal("no_match")
    if match.status != Match.Status.ACTIVE:
        return Refusal("match_over")
    if user_id is not None:
        own = match.seat_of_user(user_id)
        if own is None:
            return Refusal("not_seated")
        if seat is not None and seat != own:
            return Refusal("not_your_seat")
        seat = own
    if seat is None:
        return Refusal("not_seated")
    if tea.paused(match):
        return Refusal("tea_time")  # H4-X4: nothing is played while the narrator speaks
    game = engine.get(match.game)
    if version is not None and version != match.version:
        refusal = _stale(match, game, seat, version, moved_since or (lambda _version, _seats=None: True))
        if refusal is not None:
            return refusal
    try:
        state, events = game.apply(match.state, seat, action)
    except IllegalAction as exc:
        return Refusal(exc.code, exc.message)
    return Step(seat, game, state, events, action)


def _stale(match: Match, game, seat: int, version: int, moved_since) -> Refusal | None:
    """A stale version is refused, except for a seat that is not the only one
    to act: where several seats act at once (the hokm2 draft), or where a
    seat acts out of turn (early play, H4-X2), other seats' moves since
    ``version`` do not make his stale, as long as he has not moved since and
    no deal came between. The engine still checks the action itself."""
    if version > match.version or version < 0:
        return Refusal("stale_version")
    if not moved_since(version, None):
        return None  # H4-X4: only the tea moved the version since; the table is as he saw it
    to_act = game.to_act(match.state) - {CHANCE}
    if to_act == {seat} or not to_act:
        return Refusal("stale_version")
    if moved_since(version, [seat, CHANCE]):
        return Refusal("stale_version")
    return None


def fork(match: Match) -> Match:
    """A copy of ``match`` whose fields a transition may set without touching
    the one read (the values themselves are replaced, never changed in place)."""
    new = Match.__new__(Match)
    new.__dict__.update(match.__dict__)
    new._state = ModelState()
    new._state.db, new._state.adding = match._state.db, False
    return new


def decide(match: Match, action, *, user_id: int | None, seat: int | None = None, now=None):
    """A person's action that only moves the round on, or ends the round and
    nothing more (the match goes on, the next deal waits for its deadline
    after the result pause, C-7): its ``Transition``. Anything else, a
    refusal included, is None (the locked path decides and names the
    refusal). Only reads ``match``, which is at the version the sender saw."""
    if user_id is None or not isinstance(action, dict) or match.status != Match.Status.ACTIVE:
        return None
    if (match.tea or {}).get("phase") or action.get("type") in ("deal", "pick_up"):
        return None
    step = check(match, action, user_id=user_id, seat=seat)
    if isinstance(step, Refusal) or any(e.get("type") == "swap_seats" for e in step.events):
        return None
    if standin.count(match, step.seat):
        return None  # L-7: his row of clock moves ends with his own move (``standin.acted``)
    game, state = step.game, step.state
    to_act = game.to_act(state)
    if game.result(state) is not None:
        return None
    ends = game.round_over(state)
    if ends:
        if to_act != {CHANCE} or decks.possible(match):
            return None  # issue 37: the locked path asks whether the given rounds are over (games/decks.py)
    elif not to_act or CHANCE in to_act:
        return None
    new = fork(match)
    prev = bump(new)
    new.state = state
    deadlines.set_deadlines(new, game, previous=deadlines.others(match.deadlines, step.seat))
    built = frames.build(new, game, step.events, prev)
    at = clock.now_dt() if now is None else now
    record = fairness.new_record(new, 0, now=at) if ends else None
    return Transition(
        match=new,
        prev=prev,
        seat=step.seat,
        action=action,
        actor=Move.Actor.PLAYER,
        user_id=user_id,
        events=step.events,
        frames=built,
        at=at,
        ends_round=ends,
        record=record,
    )
