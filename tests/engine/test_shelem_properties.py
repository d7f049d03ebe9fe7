"""Random-play properties of Shelem (SH-1..SH-11, S2-1..S2-8) over thousands of rounds.

Seeds come from hypothesis; each drives a ``random.Random`` that picks among
the legal actions (and, for the put-aside, among every combination).
"""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import CHANCE, IllegalAction, get
from games.engine.cards import DECK52, DECK54

from .test_shelem4 import cards_in

CONFIGS = [("shelem4", False), ("shelem4", True), ("shelem2", False), ("shelem2", True)]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def total_of(jokers):
    return 200 if jokers else 165


def pick(game, state, rng):
    """A random legal action of the seat to act (the deal: a shuffled deck)."""
    seat = min(game.to_act(state))
    if seat == CHANCE:
        kind, cards = game.pending_chance(state)
        deck = list(cards)
        rng.shuffle(deck)
        return seat, {"type": kind, "deck": deck}
    actions = game.legal_actions(state, seat)
    action = rng.choice(actions)
    if action["type"] == "discard" and rng.random() < 0.5:
        pool = state["hands"][seat - 1] + state["widow"]
        action = {"type": "discard", "cards": rng.sample(pool, action["count"])}
    return seat, action


def places(state):
    """Every card of the round, wherever it lies (hand, column, widow, aside, trick, taken)."""
    cards = [c for h in state["hands"] for c in h] + state["widow"] + state["aside"] + state["trick"]
    cards += [c for t in state["tricks"] for c in t["cards"]]
    for mine in state.get("columns", []):
        cards += [c for col in mine for c in col]
    return cards


def face_up(state):
    if "columns" not in state or not state["columns_up"]:
        return set()
    out = set()
    for seat in (1, 2):
        used = state["used"][seat - 1]
        out |= {col[0] for j, col in enumerate(state["columns"][seat - 1]) if col and j != used}
    return out


def visible(state, viewer):
    """The cards ``viewer`` (a seat, or None for the public) may see now."""
    seen = set(state["trick"]) | {c for t in state["tricks"] for c in t["cards"]} | face_up(state)
    if viewer is not None:
        seen |= set(state["hands"][viewer - 1])
        if state["phase"] == "discard" and viewer == state["bidder"]:
            seen |= set(state["widow"])
    return seen


def play_rounds(name, jokers, seed, rounds, check):
    game = get(name)
    rng = random.Random(seed)
    state = game.new_match({"jokers": jokers, "cap": 1200})
    played = 0
    while played < rounds:
        if not game.to_act(state):
            state = game.new_match({"jokers": jokers, "cap": 1200})
        seat, action = pick(game, state, rng)
        new, events = game.apply(state, seat, action)
        check(game, state, seat, action, new, events, rng)
        if game.round_over(new) and not game.round_over(state):
            played += 1
        state = new
    return state


def cheap_checks(game, state, seat, action, new, events, rng):
    deck = DECK54 if new["rules"]["jokers"] else DECK52
    if new["round"]:
        assert sorted(places(new)) == sorted(deck)  # every card in exactly one place
    won = sum(t["points"] for t in new["tricks"])
    if new["phase"] in ("bidding", "discard"):
        assert new["points"] == [0, 0]
    elif new["round"]:
        bidder_side = game.team_of(new["bidder"])
        widow = 5 + sum(
            5 * (c[0] == "5") + 10 * (c[0] in "AT") + 20 * (c == "RJ") + 15 * (c == "BJ")
            for c in new["aside"]
        )
        assert sum(new["points"]) == widow + won  # SH-4: the widow counts for the bidder
        assert new["points"][bidder_side] >= widow
    if any(e["type"] == "round_scored" for e in events):
        assert len(new["tricks"]) == 12 and sum(new["last_result"]["points"]) == total_of(
            new["rules"]["jokers"]
        )
        assert all(len(h) == 0 for h in new["hands"])


@pytest.mark.parametrize("name, jokers", CONFIGS)
@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_sh_9_points_add_up_and_every_card_is_in_one_place(name, jokers, seed):
    play_rounds(name, jokers, seed, 25, cheap_checks)  # 1,500 rounds per variant and joker setting


def candidates(game, state, seat, rng):
    """Actions to try: legal ones and many that are not."""
    out = game.legal_actions(state, seat) + [{"type": "play", "card": c} for c in rng.sample(DECK54, 12)]
    out += [{"type": "bid", "amount": a} for a in (95, 100, 104, 125, 165, 170, 200, 205)]
    out += [
        {"type": "pass"},
        {"type": "sars", "sars": True},
        {"type": "sars", "sars": False},
        {"type": "sars"},
        {"type": "play"},
        {"type": "nonsense"},
        {"type": "deal", "deck": list(DECK52)},
        {"type": "discard", "cards": rng.sample(DECK54, 4)},
        {"type": "discard", "count": 5},
        "play",
    ]
    if state["phase"] == "discard":
        pool = state["hands"][state["bidder"] - 1] + state["widow"]
        n = len(state["widow"])
        out += [
            {"type": "discard", "cards": rng.sample(pool, n)},
            {"type": "discard", "cards": rng.sample(pool, n - 1)},
            {"type": "discard", "cards": [pool[0]] * n},
        ]
    return out


def is_legal(game, state, seat, action):
    legal = game.legal_actions(state, seat)
    if legal == [{"type": "deal"}]:  # the chance template: the caller adds the deck
        return (
            isinstance(action, dict)
            and action.get("type") == "deal"
            and sorted(action.get("deck") or []) == sorted(game.pending_chance(state)[1])
        )
    if action in legal:
        return True
    if (
        isinstance(action, dict)
        and action.get("type") == "discard"
        and legal
        and legal[0]["type"] == "discard"
    ):
        cards = action.get("cards")
        pool = state["hands"][seat - 1] + state["widow"]
        return (
            isinstance(cards, list)
            and len(cards) == legal[0]["count"] == len(set(cards))
            and set(cards) <= set(pool)
            and action.get("count") in (None, legal[0]["count"])
        )
    return False


def full_checks(game, state, seat, action, new, events, rng):
    cheap_checks(game, state, seat, action, new, events, rng)
    # The input is never mutated; the state round-trips through JSON; apply is deterministic.
    assert json.loads(json.dumps(new)) == new
    again, again_events = game.apply(json.loads(json.dumps(state)), seat, action)
    assert again == new and again_events == events
    # No action outside legal_actions is accepted, from any seat.
    snapshot = json.dumps(state, sort_keys=True)
    for other in range(0, game.players + 1):
        for attempt in candidates(game, state, other, rng):
            ok = other in game.to_act(state) and is_legal(game, state, other, attempt)
            try:
                game.apply(state, other, attempt)
                accepted = True
            except IllegalAction:
                accepted = False
            assert accepted == ok, (other, attempt, state["phase"])
    assert json.dumps(state, sort_keys=True) == snapshot
    # Views leak nothing: each holds only cards its viewer may see; events only public ones.
    for viewer in [None, *range(1, game.players + 1)]:
        view = game.view(new, viewer)
        assert cards_in(view) <= visible(new, viewer), (viewer, cards_in(view) - visible(new, viewer))
        if viewer is None:
            assert view["hand"] is None and view["legal"] == []
        assert json.loads(json.dumps(view)) == view
    assert cards_in(events) <= visible(new, None)
    hidden = set(new["widow"]) | set(new["aside"])
    assert not hidden & cards_in(events)


@pytest.mark.parametrize("name, jokers", CONFIGS)
@settings(max_examples=20, deadline=None)
@given(seed=SEEDS)
def test_sh_3_s2_8_only_legal_actions_pass_views_leak_nothing_state_is_json(name, jokers, seed):
    play_rounds(name, jokers, seed, 2, full_checks)


@pytest.mark.parametrize("name, jokers", CONFIGS)
@settings(max_examples=15, deadline=None)
@given(seed=SEEDS)
def test_sh_11_auto_actions_finish_matches(name, jokers, seed):
    game = get(name)
    rng = random.Random(seed)
    state = game.new_match({"jokers": jokers, "cap": rng.choice([300, 600]), "lead": rng.choice([0, 1])})
    for _ in range(5000):
        seats = game.to_act(state)
        if not seats:
            break
        seat = min(seats)
        if seat == CHANCE:
            _, action = pick(game, state, rng)
        else:
            action = game.auto_action(state, seat)
            assert is_legal(game, state, seat, action)
        state, _ = game.apply(state, seat, action)
    result = game.result(state)
    assert result is not None and result["score"] == state["totals"]
    assert result["winner"] == (0 if state["totals"][0] > state["totals"][1] else 1)
