"""The bitmask fast path agrees with the public API (C-3 legal cards, C-4 trick winners, H4-4)."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import engine
from games.engine import CHANCE, IllegalAction
from games.engine import hokm_fast as fast
from games.engine.cards import CARD_INDEX, DECK52
from games.engine.seats import next_seat

from .test_hokm4 import HANDS_A, started

H4 = engine.get("hokm4")
H2 = engine.get("hokm2")
SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow], "database": None}


def random_play_state(game, rules, rng):
    """Play a random prefix of a match (early cards, runs, drafts included) and stop in the play phase."""
    state = game.new_match(game.validate_rules(rules))
    stop = rng.randrange(0, 40)
    steps = 0
    while True:
        seats = game.to_act(state)
        if not seats:
            state = game.new_match(game.validate_rules(rules))
            continue
        if state["phase"] == "play" and steps >= stop:
            return state
        if CHANCE in seats:
            kind, cards = game.pending_chance(state)
            deck = list(cards)
            rng.shuffle(deck)
            state, _ = game.apply(state, CHANCE, {"type": kind, "deck": deck})
            continue
        if state["phase"] == "play" and rules.get("early_play") and rng.random() < 0.3:
            for seat in range(1, game.players + 1):
                options = game.legal_actions(state, seat) if seat not in seats else []
                if options:
                    state, _ = game.apply(state, seat, rng.choice(options))
                    break
        seat = rng.choice(sorted(game.to_act(state)))
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        steps += 1


def test_the_fast_path_uses_the_cores_card_index():
    assert fast.CARDS == DECK52
    assert all(fast.BIT[CARD_INDEX[c]] == 1 << CARD_INDEX[c] for c in DECK52)
    assert fast.mask_to_cards(fast.cards_to_mask(["2C", "AS", "TD"])) == ["AS", "TD", "2C"]
    assert fast.cards_to_mask(DECK52) == fast.FULL


@settings(max_examples=150, **SETTINGS)
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_c_3_c_4_h4_4_fast_legal_cards_and_trick_winners_agree_with_hokm4(seed):
    rng = random.Random(seed)
    rules = {"early_play": rng.random() < 0.5, "lead_run": rng.random() < 0.5}
    state = random_play_state(H4, rules, rng)
    assert fast.check_against_public(H4, state, rng) > 0


@settings(max_examples=150, **SETTINGS)
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_c_3_c_4_h2_1_fast_legal_cards_and_trick_winners_agree_with_hokm2(seed):
    rng = random.Random(seed)
    state = random_play_state(H2, {}, rng)
    assert fast.check_against_public(H2, state, rng) > 0


def test_check_against_public_catches_a_disagreement():
    state = started(HANDS_A)
    state, _ = H4.apply(state, 1, {"type": "play", "card": "AH"})

    class Liar:  # lets seat 2 revoke: a trump although he holds a heart
        def legal_actions(self, s, seat):
            return H4.legal_actions(s, seat) + [{"type": "play", "card": "AS"}]

        apply = staticmethod(H4.apply)

    with pytest.raises(AssertionError, match="legal cards"):
        fast.check_against_public(Liar(), state, random.Random(1))


def test_from_state_with_a_seat_keeps_what_it_sees_and_deals_the_rest():
    rng = random.Random(7)
    state = started(HANDS_A, trump="middle")  # the middle card 9H is public, in seat 3's hand
    state, _ = H4.apply(state, 1, {"type": "play", "card": "AD"})
    for _ in range(20):
        fs = fast.from_state(state, seat=2, rng=rng)
        assert fs.hands[1] == fast.cards_to_mask(state["hands"][1])
        assert [h.bit_count() for h in fs.hands] == [len(h) for h in state["hands"]]
        assert fs.hands[2] & fast.BIT[CARD_INDEX["9H"]]
        union = 0
        for h in fs.hands:
            assert union & h == 0
            union |= h
        assert union | fast.cards_to_mask(["AD"]) == fast.FULL
        assert fast.legal_mask(fs) == fast.cards_to_mask(["2D", "3D", "4D"])
    with pytest.raises(ValueError):
        fast.from_state(state, seat=2)


def test_from_state_for_hokm2_deals_the_opponent_from_every_unseen_card():
    rng = random.Random(3)
    state = random_play_state(H2, {}, rng)
    me = state["turn"]
    other = next_seat(me, 2)
    seen = set(state["hands"][me - 1]) | set(state["refused"][me - 1])
    for _ in range(20):
        fs = fast.from_state(state, seat=me, rng=rng)
        theirs = set(fast.mask_to_cards(fs.hands[other - 1]))
        assert len(theirs) == len(state["hands"][other - 1])
        assert not theirs & seen


def test_from_state_needs_the_play_phase():
    state = H4.new_match({})
    with pytest.raises(IllegalAction):
        fast.from_state(state)


def test_rollout_plays_to_seven_tricks_and_play_leaves_copies_alone():
    rng = random.Random(11)
    for game in (H4, H2):
        state = random_play_state(game, {}, rng)
        fs = fast.from_state(state)
        before = fs.copy()
        side = fast.rollout(fs.copy(), rng)
        assert side in (0, 1)
        assert fs.hands == before.hands and fs.tricks == before.tricks
        played = fs.copy()
        fast.rollout(played, rng)
        assert played.over and max(played.tricks) == 7


def test_random_rounds_is_deterministic_for_a_seed_and_covers_both_games():
    for name in ("hokm4", "hokm2"):
        a = fast.random_rounds(name, 300, random.Random(5))
        b = fast.random_rounds(name, 300, random.Random(5))
        assert a == b and 0 < a < 300
    with pytest.raises(IllegalAction):
        fast.random_rounds("bridge", 1, random.Random(1))
