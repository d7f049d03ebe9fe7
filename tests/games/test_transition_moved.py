"""Issue 35: what follows an accepted move, decided without a database.

``decisions.moved`` turns a move the rules accept (``transition.check``,
``decisions.due_step``) into the ``transition.Moved`` that ``accept.write``
persists without deciding anything: the move-log rows (the move and the
chance steps at once: the deal after the ace draw, H4-1/D-1), the rounds
begun and ended (C-7: the next deal waits), the next round's fair deal
record (F-1), the match's end (H4-6), a seat swap (H4-X6), tea's pour after
the trick (H4-X4), the clocks (C-8) and the frames. ``decisions.dealt`` is
the same for a new match's first chance steps. What they ask of the world
(the rounds recorded, the fair deal's action) is answered here from memory;
the match read never changes. No test here may touch the database.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from games import clock, decisions, engine, transition
from games.engine import CHANCE
from games.fairness import NotReady
from games.models import DealRecord, Match
from tests.games.test_transition import GAMES, _dealt, _match, _rules

NOW = 1_800_000_000.0


@pytest.fixture(autouse=True)
def _frozen(settings):
    settings.TABLE = {**settings.TABLE, "ROUND_PAUSE": 4.0, "TEA_SCALE": 1.0}
    clock.set_now(lambda: NOW)
    yield
    clock.set_now(None)


class World(decisions.Rounds):
    """The rounds recorded and the fair deal's decks, from memory; what was asked, kept."""

    def __init__(self, count: int = 0, open_round: int | None = None, seed: int = 1, ready: bool = True):
        self.counted, self.open_round, self.ready = count, open_round, ready
        self.rng = random.Random(seed)
        self.asked: list = []

    def count(self) -> int:
        self.asked.append("count")
        return self.counted

    def open(self) -> int | None:
        self.asked.append("open")
        return self.open_round

    def chance(self, match: Match, number: int) -> dict:
        self.asked.append(("deal", number))
        if not self.ready:
            raise NotReady(DealRecord(match_id=match.pk, number=number, phase=DealRecord.Phase.COMMIT))
        kind, cards = engine.get(match.game).pending_chance(match.state)
        deck = list(cards)
        self.rng.shuffle(deck)
        return {"type": kind, "deck": deck}


def _snapshot(match: Match):
    return (match.version, match.state, dict(match.deadlines or {}), match.players, match.status, match.gone)


def _seat(state: dict, name: str) -> int:
    return min(engine.get(name).to_act(state) - {CHANCE})


def _moved(match: Match, step, world: World) -> transition.Moved:
    before = _snapshot(match)
    got = decisions.moved(match, step, rounds=world, chance=world.chance)
    assert _snapshot(match) == before  # the match read never changes
    return got


def _before_last(name: str, seed: int, *, ends_match: bool = False, rules=None):
    """A state one person's move before its round ends (or, ``ends_match``, the match),
    and that move."""
    game = engine.get(name)
    rng = random.Random(seed)
    state = game.new_match(rules or _rules(name))
    for _ in range(20_000):
        if CHANCE in game.to_act(state):
            kind, cards = game.pending_chance(state)
            deck = list(cards)
            rng.shuffle(deck)
            state, _ = game.apply(state, CHANCE, {"type": kind, "deck": deck})
            continue
        seat = _seat(state, name)
        action = rng.choice(game.legal_actions(state, seat))
        after, _ = game.apply(state, seat, action)
        done = game.result(after) is not None if ends_match else game.round_over(after)
        if done and (ends_match or game.result(after) is None):
            return state, seat, action
        state = after
    raise AssertionError("no such move")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_persons_move_is_one_row_and_the_next_clocks_c8(name):
    """C-8: the move appended at the next version; the next seat's full turn; nothing asked of the rounds."""
    game = engine.get(name)
    match = _match(name, _dealt(name, 1), version=5)
    seat = _seat(match.state, name)
    action = game.legal_actions(match.state, seat)[0]
    step = transition.check(match, action, user_id=100 + seat)
    world = World()
    got = _moved(match, step, world)
    assert got.moves == [transition.MoveRow(6, seat, action, "player", step.events)]
    assert (got.match.version, got.prev, got.match.state, got.events) == (6, 5, step.state, step.events)
    assert (got.frames.version, got.frames.prev) == (6, 5)
    assert (got.opened, got.closed, got.record, got.ended, world.asked) == ([], None, None, False, [])
    nxt = game.to_act(step.state) - {CHANCE}
    assert set(got.match.deadlines) == {str(s) for s in nxt}
    assert all(when > NOW for when in got.match.deadlines.values())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_clocks_move_says_so_l5_l7(name):
    """L-5: the clock's move carries its ``auto`` event (the stand-in's, L-7), not in its row."""
    game = engine.get(name)
    match = _match(name, _dealt(name, 2), version=5, deadlines={})
    seat = _seat(match.state, name)
    match.deadlines = {str(seat): NOW - 1}
    what = decisions.at_deadline(match, 5)
    step = decisions.due_step(match, what, game.auto_action(match.state, seat), away=True, stand_in=True)
    got = _moved(match, step, World())
    assert got.events[0] == {"type": "auto", "seat": seat, "stand_in": True}
    assert got.moves[0].events == step.events and got.moves[0].actor == "clock"
    assert got.match.gone == {str(seat): 1}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_rounds_last_move_ends_it_and_opens_the_next_record_c7_f1(name):
    """C-7: the round's row closed with its result, the deal waits for its pause;
    F-1: the next round's fair deal record opens now."""
    state, seat, action = _before_last(name, 3)
    match = _match(name, state, version=40)
    step = transition.check(match, action, user_id=100 + seat)
    world = World(count=2, open_round=2)
    got = _moved(match, step, world)
    assert got.closed == (2, 41, transition.round_summary(got.events))
    assert (got.record, got.ended, got.opened, world.asked) == (3, False, [], ["open"])
    assert [m.seq for m in got.moves] == [41]  # no deal: it waits for the result pause (C-7)
    assert got.match.deadlines == {str(CHANCE): NOW + 4.0}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_new_matchs_chance_steps_begin_round_one_f1_h4_1(name):
    """H4-1/D-1: the ace draw, then the deal at once, by the dealer; the deal begins round 1."""
    match = _match(name, engine.get(name).new_match(_rules(name)), version=0)
    world = World(count=0)
    got = decisions.dealt(match, rounds=world, chance=world.chance)
    assert got.moves and all(m.actor == "dealer" and m.seat == CHANCE for m in got.moves)
    assert [m.seq for m in got.moves] == list(range(1, len(got.moves) + 1))
    assert got.moves[-1].action["type"] == "deal"
    assert got.opened == [(1, len(got.moves))]
    assert world.asked.count("count") == 1 and {a[1] for a in world.asked if a != "count"} == {1}
    assert CHANCE not in engine.get(name).to_act(got.match.state)
    assert got.frames is None and match.version == 0


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_deal_whose_values_are_missing_waits_f2(name):
    """F-2: the fair deal's values are not in yet: no deal, the record waited for is kept."""
    match = _match(name, engine.get(name).new_match(_rules(name)), version=0)
    world = World(ready=False)
    got = decisions.dealt(match, rounds=world, chance=world.chance)
    assert (got.moves, got.opened, got.match.version) == ([], [], 0)
    assert got.match.fair_waiting.number == 1


@pytest.mark.parametrize("name", ["hokm4", "hokm2"])
def test_the_move_that_reaches_the_target_ends_the_match_h4_6(name):
    """H4-6: the last round's last card: the round closed, the match finished, no clock, no next record."""
    rules = {**_rules(name), "target": 3}
    state, seat, action = _before_last(name, 4, ends_match=True, rules=rules)
    match = _match(name, state, version=90, rules=rules, deadlines={str(seat): NOW + 9})
    got = _moved(match, transition.check(match, action, user_id=100 + seat), World(count=5, open_round=5))
    assert got.ended and got.match.status == Match.Status.FINISHED
    assert got.match.result == engine.get(name).result(got.match.state)
    assert (got.match.deadlines, got.match.next_deadline, got.record) == ({}, None, None)
    assert got.closed[:2] == (5, 91)


def test_partners_by_ace_draw_swap_the_players_h4x6():
    """H4-X6: the draw's ``swap_seats`` moves the players (and a gone player's count) with the seats."""
    rules = engine.get("hokm4").validate_rules({"ace_partners": True, "middle_card": False})
    for seed in range(200):
        match = _match("hokm4", engine.get("hokm4").new_match(rules), version=0, rules=rules, gone={"2": 1})
        world = World(seed=seed)
        got = decisions.dealt(match, rounds=world, chance=world.chance)
        swaps = [e for e in got.events if e["type"] == "swap_seats"]
        if swaps:
            break
    else:
        raise AssertionError("no seat swap in 200 draws")
    a, b = swaps[0]["a"], swaps[0]["b"]
    seats = {p["user_id"]: p["seat"] for p in got.match.players}
    assert (seats[100 + a], seats[100 + b]) == (b, a)
    assert [p["seat"] for p in got.match.players] == [1, 2, 3, 4]
    assert match.players[a - 1]["seat"] == a  # the match read keeps its players
    if 2 in (a, b):
        assert got.match.gone == {str(a if b == 2 else b): 1}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_agreed_tea_is_poured_when_the_trick_is_gathered_h4x4(name):
    """H4-X4: tea agreed during a trick: the move that gathers it pours it; the seats' clocks stop."""
    game = engine.get(name)
    rng = random.Random(6)
    state = _dealt(name, 6)
    for _ in range(200):
        seat = _seat(state, name)
        action = rng.choice(game.legal_actions(state, seat))
        after, _ = game.apply(state, seat, action)
        if state.get("trick") and not after.get("trick") and not game.round_over(after):
            break
        state = after
    else:
        pytest.skip("no trick gathered")
    tea = {"phase": "agreed", "seat": 1, "until": None, "asked": [1], "yes": []}
    rules = {**_rules(name), "tea": True}
    match = _match(name, state, version=9, rules=rules, tea=tea)
    got = _moved(match, transition.check(match, action, user_id=100 + seat), World())
    assert got.events[-1]["type"] == "tea_poured" and got.match.tea["phase"] == "pouring"
    assert got.match.deadlines == {}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_dealers_deadline_waits_for_the_records_f4(name):
    """F-2/F-4: the dealer's deadline came but values are missing: the deal is due at the
    record's deadline, saved alone (no version, no frames), the match read untouched."""
    state, seat, action = _before_last(name, 3)
    over, _ = engine.get(name).apply(state, seat, action)
    match = _match(name, over, version=40, deadlines={str(CHANCE): NOW - 1})
    record = DealRecord(match_id=7, number=3, deadline=datetime.fromtimestamp(NOW + 6, tz=UTC))
    got = decisions.fair_wait(match, record)
    assert got.quiet and got.events == []
    assert got.fields == {
        "deadlines": {str(CHANCE): NOW + 6},
        "next_deadline": datetime.fromtimestamp(NOW + 6, tz=UTC),
    }
    assert match.deadlines == {str(CHANCE): NOW - 1} and not hasattr(match, "fair_waiting")
