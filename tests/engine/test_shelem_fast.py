"""The bitmask fast path agrees with the public API (SH-5..SH-9, S2-2..S2-6)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import CHANCE, get
from games.engine import shelem_fast as F
from games.engine.cards import CARD_INDEX, DECK52, DECK54
from games.engine.tricks import winning_index

CONFIGS = [("shelem4", False), ("shelem4", True), ("shelem2", False), ("shelem2", True)]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def sorted_cards(mask):
    return sorted(F.cards_of(mask))


def play_to_the_cards(game, state, rng):
    """Random legal actions until the play phase (or the match's end)."""
    while game.to_act(state) and state["phase"] != "play":
        seat = min(game.to_act(state))
        if seat == CHANCE:
            deck = list(game.pending_chance(state)[1])
            rng.shuffle(deck)
            action = {"type": "deal", "deck": deck}
        else:
            action = rng.choice(game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
    return state


@pytest.mark.parametrize("name, jokers", CONFIGS)
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_sh_7_s2_5_fast_legal_moves_winners_and_points_agree_with_the_public_api(name, jokers, seed):
    game = get(name)
    rng = random.Random(seed)
    state = game.new_match({"jokers": jokers, "cap": 1200})
    for _ in range(4):
        state = play_to_the_cards(game, state, rng)
        if state["phase"] != "play":
            return
        fast = F.full_state(state)
        while state["phase"] == "play":
            seat = state["turn"]
            assert fast.turn == seat - 1
            legal = sorted(a["card"] for a in game.legal_actions(state, seat))
            assert sorted_cards(F.legal_mask(fast)) == legal
            assert sorted_cards(F.legal_mask(F.full_state(state))) == legal
            # What the seat itself sees is enough for its legal moves.
            assert sorted_cards(F.legal_mask(F.from_view(game.view(state, seat)))) == legal
            card = rng.choice(legal)
            trick = state["trick"] + [card]
            state, events = game.apply(state, seat, {"type": "play", "card": card})
            F.play(fast, CARD_INDEX[card])
            if len(trick) == 4:
                won = next(e for e in events if e["type"] == "trick_won")
                assert fast.leader == won["seat"] - 1
                assert F.trick_winner([CARD_INDEX[c] for c in trick], fast.trump) == winning_index(
                    trick, state["trump"]
                )
            assert fast.points == state["points"]
            if state["phase"] == "play":
                assert fast.leader == state["leader"] - 1 and fast.done == len(state["tricks"])
        assert F.round_done(fast)
        assert list(F.score(fast)) == state["last_result"]["score"]


@pytest.mark.parametrize("name, jokers", CONFIGS)
def test_sh_9_random_rounds_replay_through_the_public_api(name, jokers):
    game = get(name)
    rng = random.Random(7)
    for _ in range(150):
        record = []
        bid, side, points, _ = F.random_round(game.players, jokers, rng, record)
        assert sum(points) == F.round_total(jokers)
        state = game.new_match({"jokers": jokers})
        for seat, action in record:
            state, _ = game.apply(state, seat, action)  # every random move is legal there too
        assert game.round_over(state)
        assert state["last_result"]["points"] == points and state["bid"] == bid
        assert game.team_of(state["bidder"]) == side


def test_sh_9_random_rounds_counts_and_is_deterministic():
    for name in ("shelem4", "shelem2"):
        a = F.random_rounds(name, 50, random.Random(3))
        b = F.random_rounds(name, 50, random.Random(3))
        assert isinstance(a, int) and a == b
        assert F.random_rounds(name, 20, random.Random(3), jokers=True) != F.random_rounds(
            name, 20, random.Random(3), jokers=False
        )
    with pytest.raises(ValueError):
        F.random_rounds("hokm4", 1, random.Random(1))


@pytest.mark.parametrize("name, jokers", CONFIGS)
@settings(max_examples=20, deadline=None)
@given(seed=SEEDS)
def test_s2_8_a_seats_compact_state_holds_only_what_it_sees_and_determinizes(name, jokers, seed):
    game = get(name)
    rng = random.Random(seed)
    state = play_to_the_cards(game, game.new_match({"jokers": jokers}), rng)
    steps = rng.randrange(0, 40)
    for _ in range(steps):
        if state["phase"] != "play":
            break
        state, _ = game.apply(state, state["turn"], rng.choice(game.legal_actions(state, state["turn"])))
    if state["phase"] != "play":
        return
    seat = state["turn"]
    fs = F.from_view(game.view(state, seat))
    n = game.players
    for p in range(n):
        if p != seat - 1:
            assert fs.hands[p] == 0  # other hands are unknown
            assert not F.mask_of(state["hands"][p]) & ~fs.unknown
    assert not F.mask_of(state["aside"]) & ~fs.unknown
    guess = F.determinize(fs, rng)
    deck = F.mask_of(DECK54 if jokers else DECK52)
    placed = 0
    for p in range(n):
        assert guess.hands[p] & placed == 0
        placed |= guess.hands[p]
        assert guess.hands[p].bit_count() == len(state["hands"][p])
    assert guess.hands[seat - 1] == F.mask_of(state["hands"][seat - 1])
    if n == 2:
        for mine, real in zip(guess.cols, state["columns"], strict=True):
            for col, real_col in zip(mine, real, strict=True):
                assert len(col) == len(real_col) and min(col, default=0) >= 0
                for c in col:
                    assert not placed & F.BIT[c]
                    placed |= F.BIT[c]
    played = F.mask_of(state["trick"]) | F.mask_of(c for t in state["tricks"] for c in t["cards"])
    assert placed & played == 0 and (placed | played) & ~deck == 0
    assert (deck & ~placed & ~played).bit_count() == len(state["aside"])
    assert F.legal_mask(guess) == F.legal_mask(fs)
    points = F.rollout(guess, rng)
    assert sum(points) == F.round_total(jokers)
    assert F.rollout(F.full_state(state), random.Random(1)) == F.rollout(
        F.full_state(state), random.Random(1)
    )


def test_sh_7_trick_winner_agrees_with_the_core():
    rng = random.Random(11)
    for _ in range(3000):
        cards = rng.sample(DECK54, 4)
        trump = rng.choice([None, "S", "H", "D", "C"])
        index = -1 if trump is None else "SHDC".index(trump)
        assert F.trick_winner([CARD_INDEX[c] for c in cards], index) == winning_index(cards, trump)
