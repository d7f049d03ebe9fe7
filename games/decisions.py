"""The decisions of the locked path's actions (issue 35): the clock, the
dealer, tea, a leave, a player back, and what follows an accepted move.

Each reads only the match as last committed (locked by its caller,
games/services.py) and returns a refusal (``transition.Refusal``: its code,
nothing changed) or the value ``accept.write`` persists: a
``transition.Step`` (a move, by the dealer, a bot or the clock) or a
``transition.Change`` (a version without a move). A ``Step`` becomes a
``transition.Moved`` in ``moved``: the move with everything that follows it
(the chance steps at once, the rounds begun and ended, the match's end, the
next fair deal record, a seat swap, tea's pour, the clocks, the frames).
The match read is never changed. What needs the world (the fair deal's
values, a bot's thought, whether a player is connected, the rounds recorded)
is asked by the caller and passed in.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.conf import settings

from games import engine
from games.engine import CHANCE

from . import clock, deadlines, decks, frames, standin, tea
from .errors import PlayError
from .fairness import NotReady
from .models import Match, Move
from .transition import Change, Due, Moved, MoveRow, Refusal, Step, bump, check, fork, round_summary


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


def fair_wait(match: Match, record) -> Change:
    """The dealer's deadline came but the fair deal ``record`` still misses
    values and its wait is not over (F-2, F-4): the deal is due at the
    record's deadline instead, its count saved alone (``quiet``: no version,
    no frames; the writer arms the new deadline)."""
    new = fork(match)
    new.fair_waiting = record
    deadlines.wait_for_fair_deal(new)
    return Change(
        engine.get(match.game),
        [],
        {"deadlines": new.deadlines, "next_deadline": new.next_deadline},
        quiet=True,
    )


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


# --- what follows an accepted move (``accept.write`` persists it) ------------------------


class Rounds:
    """What a move's follow-ups ask of the rounds recorded (the caller's
    world: ``accept`` asks the database, a test answers from memory)."""

    def count(self) -> int:
        """How many rounds the match has recorded (asked at a deal)."""
        raise NotImplementedError

    def open(self) -> int | None:
        """The number of the latest round not yet ended (asked at a round's end)."""
        raise NotImplementedError


def moved(match: Match, step: Step, *, rounds: Rounds, chance, at=None) -> Moved:
    """The transition of ``step`` (``check`` or ``due_step``'s) on ``match``:
    the move appended (its version, ``bump``), the chance steps that follow at
    once played (the deal after the ace draw, F-1..F-6: ``chance(match,
    number)`` is the fair deal's action for round ``number``, or raises
    ``fairness.NotReady``), rounds begun and ended, the match's end, the
    next round's fair deal record (F-1), a seat swap (H4-X6), tea's pour
    after the trick (H4-X4), the clocks (C-8) and the version's frames.
    ``match`` is never changed."""
    plan = _Plan(match, step.game, rounds, at)
    new = plan.new
    if step.gone is not None:
        new.gone = step.gone
    if step.actor == Move.Actor.PLAYER:
        standin.acted(new, step.seat)  # L-7: he is there
    events = plan.record(step.seat, step.action, step.state, step.events, step.actor, step.stand_in)
    events = plan.advance(events, chance)
    # H4-X1: picking the middle card up is no move of the turn; every clock runs on, the picker's too.
    keep = (
        new.deadlines if step.action.get("type") == "pick_up" else deadlines.others(new.deadlines, step.seat)
    )
    deadlines.set_deadlines(new, step.game, previous=keep)
    events = tea.after_action(new, step.game, events)  # H4-X4: an agreed tea begins after the trick
    return plan.value(events, built=True)


def dealt(match: Match, *, rounds: Rounds, chance, at=None) -> Moved:
    """The chance steps a new match begins with at once (``services.create_match``:
    the ace draw, the first deal when its record is complete), as ``moved``'s;
    no clocks and no frames (the caller sets and builds them)."""
    plan = _Plan(match, engine.get(match.game), rounds, at)
    return plan.value(plan.advance([], chance))


class _Plan:
    """A transition under construction: a copy of the match and the rows it adds."""

    def __init__(self, match: Match, game, rounds: Rounds, at):
        self.new, self.game, self.rounds = fork(match), game, rounds
        self.prev = match.version
        self.at = clock.now_dt() if at is None else at
        self.moves, self.opened = [], []
        self.closed, self.record_number, self.ended = None, None, False
        self.counted: int | None = None
        self.open_number: int | None = None
        self.asked_open = False

    def next_round(self) -> int:
        if self.counted is None:
            self.counted = self.rounds.count()
        return self.counted + 1

    def current(self) -> int | None:
        if not self.asked_open:
            self.open_number, self.asked_open = self.rounds.open(), True
        return self.open_number

    def record(self, seat: int, action: dict, state: dict, events: list, actor: str, stand_in=False) -> list:
        new, game = self.new, self.game
        bump(new)
        new.state = state
        self.moves.append(MoveRow(new.version, seat, action, actor, events))
        if actor == Move.Actor.CLOCK:
            auto = (
                {"type": "auto", "seat": seat, "stand_in": True}
                if stand_in
                else {"type": "auto", "seat": seat}
            )
            events = [auto] + events
        for event in events:
            if event.get("type") == "swap_seats":
                swap_players(new, event["a"], event["b"])
        if action.get("type") == "deal":
            number = self.next_round()
            self.opened.append((number, new.version))
            self.counted, self.open_number, self.asked_open = number, number, True
        current = None
        over = game.round_over(state)
        if over or not game.to_act(state):
            current = self.current()
            if current is not None:
                self.closed = (current, new.version, round_summary(events))
                self.open_number = None
        result = game.result(state)
        if result is None and current is not None and over:
            given = decks.given(new)  # issue 37: a match of given decks ends after its last one
            result = given.result(state, current) if given is not None else None
        if result is not None and new.status == Match.Status.ACTIVE:
            end(new, result, self.at)
            self.ended = True
        elif current is not None and over and new.status == Match.Status.ACTIVE:
            self.record_number = (
                current + 1
            )  # its commitments are exchanged during the result pause (C-7, F-1)
        return events

    def advance(self, events: list, chance) -> list:
        """The chance steps that follow at once (the deal after the draw, the
        first deal). The deal after a finished round waits for its deadline
        (C-7: the result is shown first)."""
        new, game = self.new, self.game
        while (
            new.status == Match.Status.ACTIVE
            and CHANCE in game.to_act(new.state)
            and not game.round_over(new.state)
        ):
            try:
                action = chance(new, self.next_round())
            except NotReady as exc:
                # F-2: values are still coming; the deal waits for them, or for its deadline (F-4).
                new.fair_waiting = exc.record
                break
            new.fair_waiting = None
            state, more = game.apply(new.state, CHANCE, action)
            events = events + self.record(CHANCE, action, state, more, Move.Actor.DEALER)
        return events

    def value(self, events: list, built: bool = False) -> Moved:
        new = self.new
        if self.counted is not None:
            new.next_round = self.counted + 1
        return Moved(
            match=new,
            prev=self.prev,
            game=self.game,
            events=events,
            moves=self.moves,
            frames=frames.build(new, self.game, events, self.prev) if built else None,
            opened=self.opened,
            closed=self.closed,
            record=self.record_number,
            ended=self.ended,
            at=self.at,
        )


def swap_players(match: Match, a: int, b: int) -> None:
    """H4-X6: partners sit opposite; the engine moved seats, the players move
    with them (on a decision's copy). Whoever keeps seats of its own (rooms)
    follows the ``swap_seats`` event of the committed version."""
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


def end(match: Match, result: dict, at=None) -> None:
    """The match ends with ``result`` (on a decision's copy): no clock runs any more."""
    match.status = Match.Status.FINISHED
    match.result = result
    match.finished_at = clock.now_dt() if at is None else at
    match.deadlines = {}
    match.next_deadline = None
