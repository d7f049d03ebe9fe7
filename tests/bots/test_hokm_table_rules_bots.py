"""Bots and Hokm's table rules: never early play (H4-X2), never anything but
their own legal moves with every rule on (H4-X1 pick-up included), and a run
(H4-X3) only of sure winners."""

import random

import pytest

from games import bots, engine
from games.engine import CHANCE
from tests.engine.test_hokm4 import HANDS_A, play, started

H4 = engine.get("hokm4")
RULES = {"middle_card": True, "early_play": True, "lead_run": True, "target": 3}


def bot(state, seat, seed=0):
    return bots.choose("hokm4", H4.view(state, seat), seat, level="easy", seed=seed, budget_ms=1.0)


def test_h4_x1_x2_x3_bots_play_whole_matches_with_every_rule_on_legally_and_never_early():
    """Four bots play from their views only; each action is in the view's legal list
    and is accepted; no bot lays early, takes back or picks up."""
    rng = random.Random(20)
    kinds = {}
    for match in range(3):
        state = H4.new_match(H4.validate_rules(RULES))
        for step in range(3000):
            if H4.result(state) is not None:
                break
            seats = H4.to_act(state)
            if CHANCE in seats:
                kind, cards = H4.pending_chance(state)
                deck = list(cards)
                rng.shuffle(deck)
                state, _ = H4.apply(state, CHANCE, {"type": kind, "deck": deck})
                continue
            (seat,) = seats
            view = H4.view(state, seat)
            action = bot(state, seat, seed=match * 10000 + step)
            assert action in view["legal"] or action["type"] == "run"
            if action["type"] == "run":  # a run is listed high to low; the bot sends it that way
                assert {"type": "run", "cards": action["cards"]} in view["legal"]
            kinds[action["type"]] = kinds.get(action["type"], 0) + 1
            state, _ = H4.apply(state, seat, action)
    assert not {"early", "take_back", "pick_up"} & set(kinds)
    assert kinds.get("play", 0) > 100 and kinds.get("trump", 0) >= 3


def test_h4_x3_a_bot_leads_the_top_trumps_as_a_run_when_they_win_the_round():
    state = started(HANDS_A, rules={"lead_run": True}, trump="H")  # seat 1: AH KH QH, the top trumps
    view = H4.view(state, 1)
    view["score"] = {**view["score"], "tricks": [5, 0]}  # two sure tricks short of seven (H4-4)
    action = bots.choose("hokm4", view, 1, level="easy", seed=3, budget_ms=1.0)
    assert action["type"] == "run" and action["cards"][:2] == ["AH", "KH"]
    assert action in view["legal"]


def test_h4_x3_a_bot_never_leads_a_plain_run_the_opponents_may_cut():
    """Seat 1 holds A K Q of hearts, diamonds and clubs; seats 2 and 4 hold spades, the trump."""
    state = started(HANDS_A, rules={"lead_run": True}, trump="S")
    view = H4.view(state, 1)
    assert [a for a in view["legal"] if a["type"] == "run"]
    for seed in range(8):
        for tricks in ([0, 0], [4, 2]):
            v = {**view, "score": {**view["score"], "tricks": tricks}}
            assert bots.choose("hokm4", v, 1, level="easy", seed=seed, budget_ms=1.0)["type"] == "play"


PLAIN = {
    1: ["AS", "AC", "KC", "QC", "JC", "AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"],
    2: ["2H", "3H", "4H", "5H", "6H", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "TC"],
    3: ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S", "9C"],
    4: ["9D", "TD", "JD", "QD", "KD", "AD", "2C", "3C", "4C", "5C", "6C", "7C", "8C"],
}


def _after_ace_of_trumps(hands, second):
    state = started(hands, rules={"lead_run": True}, trump="S")
    state, _ = play(state, "AS", second, "3S", "9D")  # seat 1 wins with the ace of trumps
    assert state["turn"] == 1
    view = H4.view(state, 1)
    view["score"] = {**view["score"], "tricks": [5, 0]}  # the run's three tricks would end the round
    return view


def test_h4_x3_a_plain_run_is_led_once_no_opponent_can_hold_a_trump():
    """Seats 2 and 4 showed no spade (trump) on the ace of trumps: A K Q are sure winners."""
    view = _after_ace_of_trumps(PLAIN, "2H")
    action = bots.choose("hokm4", view, 1, level="easy", seed=1, budget_ms=1.0)
    assert action["type"] == "run" and action in view["legal"]
    assert action["cards"] in (["AH", "KH", "QH"], ["AC", "KC", "QC"])


def test_h4_x3_no_plain_run_while_one_opponent_may_still_cut():
    """Seat 2 followed with a spade: he may hold more, so even a run that would end the round is not led."""
    hands = {
        **PLAIN,
        2: [c for c in PLAIN[2] if c != "TC"] + ["2S"],
        3: [c for c in PLAIN[3] if c != "2S"] + ["TC"],
    }
    view = _after_ace_of_trumps(hands, "2S")
    assert [a for a in view["legal"] if a["type"] == "run"]
    for seed in range(6):
        assert bots.choose("hokm4", view, 1, level="easy", seed=seed, budget_ms=1.0)["type"] == "play"


@pytest.mark.parametrize("seed", range(4))
def test_h4_x1_a_bot_hakem_names_a_legal_trump_middle_included(seed):
    """The hakem bot weighs "partner's middle card" against the suits by sampled play."""
    rng = random.Random(seed)
    state = H4.new_match(H4.validate_rules(RULES))
    while state["phase"] != "trump":
        kind, cards = H4.pending_chance(state)
        deck = list(cards)
        rng.shuffle(deck)
        state, _ = H4.apply(state, CHANCE, {"type": kind, "deck": deck})
    hakem = state["hakem"]
    action = bot(state, hakem, seed)
    assert action in H4.legal_actions(state, hakem)
    state, _ = H4.apply(state, hakem, action)
    assert state["phase"] == "play"
