"""Hokm for two players: rules H2-1..H2-6, D-1 (two seats) and D-3.

Decks are built from the hands wanted with D-3 (``deal_deck2``).
"""

import json

import pytest

from games import engine
from games.engine import CHANCE, IllegalAction
from games.engine.cards import DECK52

from .test_hokm4 import draw_deck, raises, view_cards

H2 = engine.get("hokm2")

# D-3 layout used by most tests (trump spades suits the hakem).
H5 = ["AS", "KS", "QS", "AH", "KH"]
O5 = ["AD", "KD", "QD", "AC", "KC"]
HPAIRS = [
    ["QH", "JH"],
    ["JS", "TS"],
    ["TH", "9H"],
    ["9S", "8S"],
    ["8H", "7H"],
    ["7S", "6S"],
    ["6H", "5H"],
    ["5S", "4S"],
]
OPAIRS = [
    ["JD", "TD"],
    ["JC", "TC"],
    ["9D", "8D"],
    ["9C", "8C"],
    ["7D", "6D"],
    ["7C", "6C"],
    ["5D", "4D"],
    ["5C", "4C"],
]
REMOVED = ["2S", "2H"]


def deal_deck2(h5=H5, o5=O5, hpairs=HPAIRS, opairs=OPAIRS, removed=REMOVED, at=(2, 9)):
    """A D-3 permutation: ``removed`` (two 2s) go to positions ``at`` of the deck."""
    used = set(h5) | set(o5) | {c for p in hpairs + opairs for c in p} | set(removed)
    rest = [c for c in DECK52 if c not in used]
    assert len(rest) == 8
    e = list(h5) + list(o5) + [c for p in hpairs for c in p] + [c for p in opairs for c in p] + rest
    assert not any(c[0] == "2" for c in e[: at[1]]), "the removed 2s must be the first 2s"
    d = list(e)
    d.insert(at[0], removed[0])
    d.insert(at[1], removed[1])
    assert sorted(d) == sorted(DECK52)
    return d


def new(rules=None):
    return H2.new_match(H2.validate_rules(rules or {}))


def act(state, seat, action):
    before = json.dumps(state, sort_keys=True)
    out = H2.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before
    return out


def dealt(deck=None, hakem=1, rules=None, state=None):
    if state is None:
        state, _ = act(new(rules), CHANCE, {"type": "draw", "deck": draw_deck(hakem, players=2)})
    assert state["hakem"] == hakem
    state, _ = act(state, CHANCE, {"type": "deal", "deck": deck or deal_deck2()})
    return state


def drafted(
    deck=None, hakem=1, trump="S", takes=(True,) * 8, other_takes=(True,) * 8, rules=None, state=None
):
    state = dealt(deck, hakem, rules, state)
    state, _ = act(state, hakem, {"type": "trump", "suit": trump})
    other = 2 if hakem == 1 else 1
    for a, b in zip(takes, other_takes, strict=True):
        state, _ = act(state, hakem, {"type": "draft", "take": a})
        state, _ = act(state, other, {"type": "draft", "take": b})
    return state


def finish_round(state):
    events = []
    while state["phase"] in ("play", "trump", "draft"):
        seat = min(H2.to_act(state))
        state, ev = H2.apply(state, seat, H2.auto_action(state, seat))
        events += ev
    return state, events


def h2raises(code, state, seat, action):
    raises(code, state, seat, action, game=H2)


# ----------------------------------------------------------------- tests


@pytest.mark.parametrize("position,hakem", [(0, 1), (1, 2), (2, 1), (5, 2)])
def test_d_1_the_two_player_draw_turns_to_seat_1_then_2(position, hakem):
    plain = [c for c in DECK52 if c[0] != "A"]
    aces = [c for c in DECK52 if c[0] == "A"]
    deck = plain[:position] + aces + plain[position:]
    state, events = act(new(), CHANCE, {"type": "draw", "deck": deck})
    assert state["hakem"] == hakem
    assert [t["seat"] for t in events[0]["draw"]] == ([1, 2] * 26)[: position + 1]


def test_h2_1_two_players_face_each_other_without_partners():
    assert H2.players == 2 and H2.name == "hokm2"
    assert H2.team_of(1) == 0 and H2.team_of(2) == 1
    state = drafted()
    assert H2.to_act(state) == {1}
    state, events = act(state, 1, {"type": "play", "card": "AH"})
    assert H2.to_act(state) == {2}
    state, events = act(state, 2, {"type": "play", "card": "AD"})  # no hearts: any card
    assert [e for e in events if e["type"] == "trick_won"][0]["seat"] == 1
    assert state["turn"] == 1 and state["tricks"] == [1, 0]


def test_h2_1_first_to_7_of_13_tricks_wins_the_round_and_h4_7_moves_the_hakem():
    state, events = finish_round(drafted())
    assert max(state["tricks"]) == 7 and sum(state["tricks"]) <= 13
    winner = state["last_result"]["winner"]
    assert state["score"][winner] == 1
    assert state["hakem"] == (1 if winner == 0 else 2)
    assert state["phase"] == "round_over" and H2.pending_chance(state) == ("deal", DECK52)


def hearts_sweep_deck():
    """Seat 2 ends with all thirteen hearts; seat 1 (hakem) names hearts."""
    h5 = ["AS", "KS", "QS", "JS", "TS"]
    o5 = ["AH", "KH", "QH", "JH", "TH"]
    hpairs = [
        ["9S", "AD"],
        ["8S", "KD"],
        ["7S", "QD"],
        ["6S", "JD"],
        ["5S", "TD"],
        ["4S", "9D"],
        ["3S", "8D"],
        ["7D", "6D"],
    ]
    opairs = [
        ["9H", "AC"],
        ["8H", "KC"],
        ["7H", "QC"],
        ["6H", "JC"],
        ["5H", "TC"],
        ["4H", "9C"],
        ["3H", "8C"],
        ["2H", "7C"],
    ]
    return deal_deck2(h5, o5, hpairs, opairs, removed=["2S", "2D"], at=(0, 1))


def test_h2_1_kot_and_hakem_kot_apply_to_two_players():
    state = drafted(hearts_sweep_deck(), trump="H", rules={"kot": True})
    assert sorted(state["hands"][1]) == sorted(r + "H" for r in "AKQJT98765432")
    state, events = finish_round(state)
    assert state["tricks"] == [0, 7]
    assert state["score"] == [0, 3] and state["last_result"]["kot"] == "hakem_kot"
    assert state["hakem"] == 2


def test_h2_1_a_3_round_match():
    state, _ = act(new({"target": 3}), CHANCE, {"type": "draw", "deck": draw_deck(1, players=2)})
    rounds = 0
    while state["phase"] != "match_over":
        hakem = state["hakem"]
        state = drafted(deal_deck2(), hakem=hakem, state=state)
        state, _ = finish_round(state)
        rounds += 1
    assert max(state["score"]) == 3 and rounds >= 3
    assert H2.result(state) == {"winner": state["winner"], "score": state["score"]}


def test_h2_2_and_d_3_the_first_two_2s_are_removed_unseen():
    state = dealt()
    assert state["removed"] == ["2S", "2H"]
    assert "2C" in state["rest"] and "2D" in state["rest"]  # later 2s stay in the deck
    state = drafted(takes=(False,) * 8, other_takes=(False,) * 8)
    everywhere = (
        state["hands"][0] + state["hands"][1] + state["refused"][0] + state["refused"][1] + state["rest"]
    )
    assert "2S" not in everywhere and "2H" not in everywhere
    for seat in (1, 2, None):
        assert not {"2S", "2H"} & view_cards(H2.view(state, seat))


def test_d_3_the_hands_pairs_and_put_aside_cards_follow_the_deck():
    state = dealt(deal_deck2(at=(0, 7)))
    assert state["hands"][0] == H5 and state["hidden"][1] == O5
    assert state["pairs"] == [HPAIRS, OPAIRS]
    assert sorted(state["rest"]) == sorted(["QC", "3C", "2C", "3D", "2D", "4H", "3H", "3S"])
    # The hakem may be seat 2: e[0:5] and the first pairs are then seat 2's.
    state = dealt(deal_deck2(), hakem=2)
    assert state["hands"][1] == H5 and state["pairs"] == [OPAIRS, HPAIRS]


def test_h2_3_the_hakem_names_trump_from_his_five_before_the_draft():
    state = dealt()
    assert state["phase"] == "trump" and H2.to_act(state) == {1}
    assert view_cards(H2.view(state, 1)) == set(H5)
    assert view_cards(H2.view(state, 2)) == set()  # as H4-2: the other waits for trump
    assert view_cards(H2.view(state, None)) == set()
    h2raises("bad_action", state, 1, {"type": "draft", "take": True})
    h2raises("not_your_turn", state, 2, {"type": "draft", "take": True})
    assert H2.legal_actions(state, 1) == [{"type": "trump", "suit": s} for s in "SHDC"]
    state, events = act(state, 1, {"type": "trump", "suit": "S"})
    assert events == [{"type": "trump_named", "seat": 1, "suit": "S", "middle": None}]
    assert state["phase"] == "draft" and H2.to_act(state) == {1, 2}
    assert sorted(H2.view(state, 2)["hand"]) == sorted(O5)


def test_h2_3_there_is_no_middle_card_in_two_player_hokm():
    state = dealt()
    with pytest.raises(IllegalAction) as info:
        H2.apply(state, 1, {"type": "trump", "suit": "middle"})
    assert info.value.code == "not_allowed"


def test_h2_4_take_keeps_the_first_card_refuse_keeps_the_second():
    state = dealt()
    state, _ = act(state, 1, {"type": "trump", "suit": "S"})
    assert H2.view(state, 1)["draft_card"] == "QH"
    state, events = act(state, 1, {"type": "draft", "take": True})
    assert events == [{"type": "drafted", "seat": 1, "count": 1}]
    assert "QH" in state["hands"][0] and "JH" not in state["hands"][0]
    assert state["discarded"][0] == ["JH"]
    assert H2.view(state, 1)["draft_card"] == "JS"
    state, _ = act(state, 1, {"type": "draft", "take": False})
    assert "TS" in state["hands"][0] and "JS" not in state["hands"][0]
    assert state["refused"][0] == ["JS"]
    assert H2.view(state, 1)["draft_card"] == "TH"  # never the card put aside


def test_h2_4_the_two_players_draft_independently():
    state = dealt()
    state, _ = act(state, 1, {"type": "trump", "suit": "S"})
    for i in range(8):  # seat 2 drafts all eight while seat 1 waits
        assert H2.to_act(state) == {1, 2}
        state, _ = act(state, 2, {"type": "draft", "take": i in (0, 2, 4, 6)})
    assert H2.to_act(state) == {1}
    assert H2.legal_actions(state, 2) == []
    h2raises("not_your_turn", state, 2, {"type": "draft", "take": True})
    assert len(state["hands"][1]) == 13
    for _ in range(8):
        state, _ = act(state, 1, {"type": "draft", "take": True})
    assert state["phase"] == "play"


def test_h2_5_thirteen_cards_each_eight_put_aside_and_the_hakem_leads():
    state = dealt(hakem=2)
    state, _ = act(state, 2, {"type": "trump", "suit": "C"})
    for _ in range(8):
        state, _ = act(state, 1, {"type": "draft", "take": False})
    h2raises("bad_action", state, 2, {"type": "play", "card": "AS"})  # still drafting
    for _ in range(7):
        state, _ = act(state, 2, {"type": "draft", "take": True})
    assert state["phase"] == "draft"
    state, events = act(state, 2, {"type": "draft", "take": True})
    assert events[-1] == {"type": "draft_done"}
    assert [len(h) for h in state["hands"]] == [13, 13]
    assert len(state["rest"]) == 8
    assert state["phase"] == "play" and H2.to_act(state) == {2} and state["turn"] == 2
    everywhere = (
        state["hands"][0]
        + state["hands"][1]
        + state["refused"][0]
        + state["refused"][1]
        + state["discarded"][0]
        + state["discarded"][1]
        + state["rest"]
        + state["removed"]
    )
    assert sorted(everywhere) == sorted(DECK52)


def test_h2_6_the_opponent_sees_only_how_many_pairs_were_drafted():
    state = dealt()
    state, _ = act(state, 1, {"type": "trump", "suit": "S"})
    state, _ = act(state, 1, {"type": "draft", "take": True})
    state, _ = act(state, 1, {"type": "draft", "take": False})
    state, events = act(state, 2, {"type": "draft", "take": False})
    assert events == [{"type": "drafted", "seat": 2, "count": 1}]
    v2 = H2.view(state, 2)
    assert v2["drafted"] == [2, 1] and v2["pairs_left"] == [6, 7]
    assert v2["draft_card"] == "JC"
    seen_by_2 = view_cards(v2)
    assert seen_by_2 == set(state["hands"][1]) | {"JC"}
    seen_by_1 = view_cards(H2.view(state, 1))
    assert seen_by_1 == set(state["hands"][0]) | {"TH"}
    assert view_cards(H2.view(state, None)) == set()
    assert H2.view(state, None)["draft_card"] is None
    assert all(not view_cards(e) for e in events)  # events carry no card either


def test_c_3_follow_suit_in_two_player_hokm():
    state = drafted()
    state, _ = act(state, 1, {"type": "play", "card": "AS"})  # spades led; seat 2 holds none
    assert {a["card"] for a in H2.legal_actions(state, 2)} == set(state["hands"][1])
    state, _ = act(state, 2, {"type": "play", "card": "AD"})
    state, _ = act(state, 1, {"type": "play", "card": "AH"})
    h2raises("not_in_hand", state, 2, {"type": "play", "card": "QH"})


def test_hokm2_has_no_early_play_nor_runs():
    state = drafted()
    h2raises("bad_action", state, 1, {"type": "run", "cards": ["AS", "KS", "QS"]})
    state, _ = act(state, 1, {"type": "play", "card": "AH"})
    h2raises("bad_action", state, 1, {"type": "early", "card": "AS"})
    assert H2.legal_actions(state, 1) == []


def test_hokm2_illegal_actions_raise_and_change_nothing():
    state = dealt()
    state, _ = act(state, 1, {"type": "trump", "suit": "S"})
    h2raises("bad_action", state, 1, {"type": "draft", "take": "yes"})
    h2raises("bad_action", state, 1, {"type": "draft", "take": 1})
    h2raises("bad_action", state, 1, {"type": "draft"})
    h2raises("bad_action", state, 1, {"type": "play", "card": "AS"})
    h2raises("not_your_turn", state, 3, {"type": "draft", "take": True})
    h2raises("not_your_turn", state, CHANCE, {"type": "deal", "deck": list(DECK52)})
    fresh = new()
    h2raises("bad_deck", fresh, CHANCE, {"type": "draw", "deck": list(DECK52) + ["RJ"]})
    with pytest.raises(IllegalAction):
        H2.validate_rules({"middle_card": True})
    assert H2.validate_rules({}) == {
        "target": 7,
        "kot": False,
        "turn_seconds": 30,
        "tea": False,
        "throwing": False,
    }


def test_hokm2_auto_action_drafts_high_cards_and_trumps():
    state = dealt()
    state, _ = act(state, 1, {"type": "trump", "suit": "D"})
    assert H2.auto_action(state, 1) == {"type": "draft", "take": True}  # QH is high
    state, _ = act(state, 1, {"type": "draft", "take": True})
    state, _ = act(state, 1, {"type": "draft", "take": True})  # JS
    state, _ = act(state, 1, {"type": "draft", "take": True})  # TH
    state, _ = act(state, 1, {"type": "draft", "take": True})  # 9S
    assert H2.view(state, 1)["draft_card"] == "8H"
    assert H2.auto_action(state, 1) == {"type": "draft", "take": False}
    assert H2.view(state, 2)["draft_card"] == "JD"
    assert H2.auto_action(state, 2) == {"type": "draft", "take": True}
    for _ in range(4):
        state, _ = act(state, 2, {"type": "draft", "take": True})
    assert H2.view(state, 2)["draft_card"] == "7D"  # low, but a trump
    assert H2.auto_action(state, 2) == {"type": "draft", "take": True}
