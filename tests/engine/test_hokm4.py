"""Hokm for four players: rules C-2..C-4, D-1, D-2, H4-1..H4-8, H4-X1..H4-X3, H4-X6.

Every test builds the hands it needs and turns them into a deck permutation
with the deal orders of RULES.md section D (``draw_deck``, ``deal_deck4``).
"""

import copy
import json

import pytest

from games import engine
from games.engine import CHANCE, IllegalAction
from games.engine.cards import DECK52, RANKS, SUITS
from games.engine.seats import clockwise_from, in_order_from

H4 = engine.get("hokm4")


# ----------------------------------------------------------------- helpers


def suit(s, ranks=RANKS):
    return [r + s for r in ranks]


def draw_deck(hakem, players=4, later_aces=None):
    """A draw permutation (D-1) whose first ace is turned to ``hakem``.

    ``later_aces``: positions (after the first ace) where the other three aces
    go, for H4-X6; by default they come last.
    """
    order = clockwise_from(1, players)
    first = order.index(hakem)
    aces = [c for c in DECK52 if c[0] == "A"]
    plain = [c for c in DECK52 if c[0] != "A"]
    deck = plain[:first] + [aces[0]]
    rest = plain[first:]
    if later_aces is None:
        return deck + rest + aces[1:]
    out = deck[:]
    pending = dict(zip(later_aces, aces[1:], strict=True))
    while len(out) < 52:
        out.append(pending.pop(len(out)) if len(out) in pending else rest.pop(0))
    return out


def deal_deck4(hakem, hands):
    """The deal permutation (D-2) that gives each seat ``hands[seat]`` (13 cards).

    A hand's first five cards are its first packet, so ``hands[partner][2]``
    is the partner's middle card ``d[12]`` (H4-X1).
    """
    d = [None] * 52
    for k, seat in enumerate(in_order_from(hakem, 4)):
        h = hands[seat]
        assert len(h) == 13
        d[5 * k : 5 * k + 5] = h[:5]
        d[20 + 4 * k : 24 + 4 * k] = h[5:9]
        d[36 + 4 * k : 40 + 4 * k] = h[9:13]
    assert sorted(d) == sorted(DECK52)
    return d


# Hands used by many tests. With spades trump: seat 1 holds A K Q of hearts,
# diamonds and clubs; seat 2 one heart and six high spades.
HANDS_A = {
    1: ["AH", "KH", "QH", "AD", "KD", "QD", "JD", "AC", "KC", "QC", "JC", "2S", "3S"],
    2: ["2H", "AS", "KS", "QS", "JS", "TS", "9S", "2D", "3D", "4D", "2C", "3C", "4C"],
    3: ["JH", "TH", "9H", "8H", "5D", "6D", "7D", "8D", "5C", "6C", "7C", "8C", "4S"],
    4: ["7H", "6H", "5H", "4H", "3H", "9D", "TD", "9C", "TC", "8S", "7S", "6S", "5S"],
}


def sweep_hands(winner_seat):
    """``winner_seat`` holds all thirteen spades: with spades trump his side takes 7-0."""
    others = [s for s in (1, 2, 3, 4) if s != winner_seat]
    rest = [c for c in DECK52 if c[1] != "S"]
    hands = {winner_seat: suit("S")}
    for k, s in enumerate(others):
        hands[s] = rest[13 * k : 13 * k + 13]
    return hands


def new(rules=None, game=H4):
    return game.new_match(game.validate_rules(rules or {}))


def act(state, seat, action, game=H4):
    """apply, checking on the way that the input state is never changed."""
    before = copy.deepcopy(state)
    new_state, events = game.apply(state, seat, action)
    assert state == before
    return new_state, events


def dealt(hands, hakem=1, rules=None, state=None):
    """A match at the trump step of a round dealt with ``hands``."""
    if state is None:
        state = new(rules)
        state, _ = act(state, CHANCE, {"type": "draw", "deck": draw_deck(hakem)})
    assert state["hakem"] == hakem
    state, _ = act(state, CHANCE, {"type": "deal", "deck": deal_deck4(hakem, hands)})
    return state


def started(hands, hakem=1, trump="S", rules=None, state=None):
    state = dealt(hands, hakem, rules, state)
    state, _ = act(state, hakem, {"type": "trump", "suit": trump})
    return state


def play(state, *cards, game=H4):
    """Play cards in turn order; returns the state and all events."""
    events = []
    for card in cards:
        state, ev = act(state, state["turn"], {"type": "play", "card": card}, game)
        events += ev
    return state, events


def finish_round(state, game=H4):
    """Automatic moves until the round (or the match) ends."""
    events = []
    while state["phase"] in ("play", "trump", "draft"):
        seat = min(game.to_act(state))
        state, ev = game.apply(state, seat, game.auto_action(state, seat))
        events += ev
    return state, events


def raises(code, state, seat, action, game=H4):
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        game.apply(state, seat, action)
    assert info.value.code == code, info.value
    assert json.dumps(state, sort_keys=True) == before


def view_cards(view):
    text = json.dumps(view)
    return {c for c in DECK52 if f'"{c}"' in text}


# ------------------------------------------------------------ C: common


def test_c_2_play_goes_to_the_next_seat_and_1_3_are_partners_against_2_4():
    state = started(HANDS_A, hakem=2)
    assert state["turn"] == 2
    order = []
    for _ in range(4):
        order.append(state["turn"])
        seat = state["turn"]
        state, _ = act(state, seat, H4.auto_action(state, seat))
    assert order == [2, 3, 4, 1]
    assert [H4.team_of(s) for s in (1, 2, 3, 4)] == [0, 1, 0, 1]


def test_c_3_must_follow_suit_even_when_holding_a_trump():
    state = started(HANDS_A)
    state, _ = play(state, "AH")
    assert H4.legal_actions(state, 2) == [{"type": "play", "card": "2H"}]
    raises("must_follow_suit", state, 2, {"type": "play", "card": "AS"})
    raises("must_follow_suit", state, 2, {"type": "play", "card": "2D"})
    state, _ = play(state, "2H")
    assert state["trick"] == [[1, "AH"], [2, "2H"]]


def test_c_3_a_player_out_of_the_suit_led_may_cut_with_a_trump_or_discard():
    state = started(HANDS_A)
    state, _ = play(state, "AH", "2H", "8H", "3H")  # seat 1 wins, leads again
    state, _ = play(state, "KH")
    legal = {a["card"] for a in H4.legal_actions(state, 2)}
    assert legal == set(HANDS_A[2]) - {"2H"}  # void: any card
    state, events = play(state, "9S")
    assert events[-1] == {"type": "card_played", "seat": 2, "card": "9S", "cut": True}


def test_c_4_highest_trump_wins_else_highest_of_the_suit_led_and_the_winner_leads():
    state = started(HANDS_A)
    state, events = play(state, "AH", "2H", "8H", "3H")
    assert events[-1]["type"] == "trick_won" and events[-1]["seat"] == 1
    assert state["turn"] == state["leader"] == 1
    state, events = play(state, "KH", "9S", "JH", "4H")
    won = [e for e in events if e["type"] == "trick_won"]
    assert won[0]["seat"] == 2 and won[0]["cards"] == ["KH", "9S", "JH", "4H"]
    assert state["turn"] == 2
    assert state["tricks"] == [1, 1]
    # A higher card of another plain suit never wins: 2 leads 2D, 3 plays 8D, 4 TD, 1 AD.
    state, events = play(state, "2D", "8D", "TD", "AD")
    assert [e["seat"] for e in events if e["type"] == "trick_won"] == [1]


def test_c_4_r_11_a_higher_trump_overtakes_a_lower_one_a_weaker_trump_is_no_cut():
    hands = {
        1: ["AH"] + suit("D")[:12],
        2: ["4S"] + suit("C")[:12],
        3: ["3S"] + suit("H")[1:],
        4: ["2S", "2D", "2C"] + suit("S")[:10],
    }
    state = started(hands)
    state, events = play(state, "AH", "4S")
    assert events[-1]["cut"] is True
    state, events = play(state, "KH")  # seat 3 must follow hearts
    assert events[-1]["cut"] is False
    weaker, events = play(state, "2S")
    assert events[0]["cut"] is False
    assert [e["seat"] for e in events if e["type"] == "trick_won"] == [2]
    higher, events = play(state, "AS")
    assert events[0]["cut"] is True
    assert [e["seat"] for e in events if e["type"] == "trick_won"] == [4]


# --------------------------------------------------------- D-1, H4-1 draw


@pytest.mark.parametrize("position,hakem", [(0, 1), (1, 4), (2, 3), (3, 2), (4, 1), (5, 4), (7, 2)])
def test_d_1_the_draw_turns_cards_to_seat_1_then_clockwise_4_3_2(position, hakem):
    plain = [c for c in DECK52 if c[0] != "A"]
    aces = [c for c in DECK52 if c[0] == "A"]
    deck = plain[:position] + aces + plain[position:]
    state, events = act(new(), CHANCE, {"type": "draw", "deck": deck})
    assert state["hakem"] == hakem
    turned = events[0]["draw"]
    assert [t["seat"] for t in turned] == ([1, 4, 3, 2] * 13)[: position + 1]
    assert turned[-1]["card"] == "AS"


def test_h4_1_the_ace_draw_picks_the_first_hakem_and_deals_no_card():
    state = new()
    assert H4.to_act(state) == {CHANCE}
    assert H4.pending_chance(state) == ("draw", DECK52)
    assert H4.legal_actions(state, CHANCE) == [{"type": "draw"}]
    state, events = act(state, CHANCE, {"type": "draw", "deck": draw_deck(3)})
    assert events[0]["type"] == "hakem" and events[0]["seat"] == 3
    assert state["hakem"] == 3 and state["phase"] == "deal"
    assert state["hands"] == [[], [], [], []]
    assert H4.pending_chance(state) == ("deal", DECK52)


# --------------------------------------------------------- D-2, H4-2 deal


def test_d_2_five_each_from_the_hakem_then_four_and_four():
    d = list(DECK52)
    state, _ = act(new(), CHANCE, {"type": "draw", "deck": draw_deck(2)})
    state, _ = act(state, CHANCE, {"type": "deal", "deck": d})
    assert state["hands"][1] == d[0:5]  # the hakem sees his five
    state, _ = act(state, 2, {"type": "trump", "suit": "S"})
    expected = {
        2: d[0:5] + d[20:24] + d[36:40],
        3: d[5:10] + d[24:28] + d[40:44],
        4: d[10:15] + d[28:32] + d[44:48],
        1: d[15:20] + d[32:36] + d[48:52],
    }
    for seat, cards in expected.items():
        assert sorted(state["hands"][seat - 1]) == sorted(cards)


def test_h4_2_nobody_but_the_hakem_sees_a_card_before_trump_is_named():
    state = dealt(HANDS_A, hakem=1)
    assert state["phase"] == "trump" and H4.to_act(state) == {1}
    hakem_view = H4.view(state, 1)
    assert sorted(hakem_view["hand"]) == sorted(HANDS_A[1][:5])
    assert view_cards(hakem_view) == set(HANDS_A[1][:5])
    assert {a["suit"] for a in hakem_view["legal"]} == {"S", "H", "D", "C", "middle"}
    for seat in (2, 3, 4, None):
        v = H4.view(state, seat)
        assert view_cards(v) == set()
        assert v["legal"] == []
        assert v["hand"] in ([], None)
    assert hakem_view["hand_counts"] == [5, 0, 0, 0]
    raises("not_your_turn", state, 2, {"type": "trump", "suit": "S"})
    state, events = act(state, 1, {"type": "trump", "suit": "D"})
    assert events == [{"type": "trump_named", "seat": 1, "suit": "D", "middle": None}]
    assert state["trump"] == "D"
    for seat in (1, 2, 3, 4):
        assert sorted(H4.view(state, seat)["hand"]) == sorted(HANDS_A[seat])


def test_h4_2_the_trump_must_be_a_suit():
    state = dealt(HANDS_A)
    for bad in ("X", "s", None, 1, "SH"):
        raises("bad_action", state, 1, {"type": "trump", "suit": bad})
    raises("bad_action", state, 1, {"type": "trump"})


# ------------------------------------------------------------ H4-3 .. H4-8


def test_h4_3_the_hakem_leads_the_first_trick_with_any_card():
    state = started(HANDS_A, hakem=1)
    assert H4.to_act(state) == {1}
    assert {a["card"] for a in H4.legal_actions(state, 1)} == set(HANDS_A[1])
    for seat in (2, 3, 4):
        assert H4.legal_actions(state, seat) == []
        raises("not_your_turn", state, seat, {"type": "play", "card": HANDS_A[seat][0]})
    state, _ = play(state, "2S")  # a low trump lead is fine too
    assert state["turn"] == 2


def test_h4_4_the_round_ends_as_soon_as_a_side_has_seven_tricks():
    state = started(sweep_hands(1), hakem=1)
    state, events = finish_round(state)
    won = [e for e in events if e["type"] == "trick_won"]
    assert len(won) == 7 and state["tricks"] == [7, 0]
    assert state["phase"] == "round_over" and H4.round_over(state)
    assert [len(h) for h in state["hands"]] == [6, 6, 6, 6]  # the rest is not played
    assert H4.to_act(state) == {CHANCE}
    assert H4.pending_chance(state) == ("deal", DECK52)
    raises("not_your_turn", state, 1, {"type": "play", "card": state["hands"][0][0]})
    round_won = [e for e in events if e["type"] == "round_won"]
    assert round_won == [
        {"type": "round_won", "team": 0, "points": 1, "kot": None, "tricks": [7, 0], "score": [1, 0]}
    ]


def test_h4_4_a_round_that_is_not_a_sweep_ends_at_the_seventh_trick_of_a_side():
    state = started(HANDS_A, hakem=1)
    while state["phase"] == "play":
        assert max(state["tricks"]) < 7
        state, _ = act(state, state["turn"], H4.auto_action(state, state["turn"]))
    assert max(state["tricks"]) == 7 and sum(state["tricks"]) < 13


def test_h4_5_kot_off_a_7_0_counts_one_round():
    state, events = finish_round(started(sweep_hands(3), hakem=1))
    assert state["score"] == [1, 0]
    assert state["last_result"]["points"] == 1 and state["last_result"]["kot"] is None


def test_h4_5_kot_on_a_7_0_counts_two():
    state, events = finish_round(started(sweep_hands(3), hakem=1, rules={"kot": True}))
    assert state["score"] == [2, 0]
    assert [e for e in events if e["type"] == "round_won"][0]["points"] == 2
    assert state["last_result"]["kot"] == "kot"


def test_h4_5_kot_on_hakem_kot_scores_3_when_the_hakems_side_takes_no_trick():
    state, events = finish_round(started(sweep_hands(2), hakem=1, rules={"kot": True}))
    assert state["tricks"] == [0, 7]
    assert state["score"] == [0, 3]
    assert state["last_result"]["kot"] == "hakem_kot"


def test_h4_5_kot_on_a_win_that_is_not_7_0_counts_one():
    state = started(HANDS_A, hakem=1, rules={"kot": True})
    state, _ = finish_round(state)
    assert state["tricks"] == [5, 7]
    assert state["score"] == [0, 1] and state["last_result"]["kot"] is None


def play_rounds(winners, target):
    """Rounds where the side of each seat in ``winners`` sweeps; returns the state and events."""
    state = new({"target": target})
    state, _ = act(state, CHANCE, {"type": "draw", "deck": draw_deck(1)})
    events = []
    for seat in winners:
        hakem = state["hakem"]
        state = started(sweep_hands(seat), hakem=hakem, state=state)
        state, ev = finish_round(state)
        events += ev
    return state, events


def test_h4_6_a_3_round_match_ends_when_a_side_has_3_rounds():
    state, events = play_rounds([1, 2, 3, 1], target=3)
    assert state["phase"] == "match_over"
    assert H4.result(state) == {"winner": 0, "score": [3, 1]}
    assert events[-1] == {"type": "match_won", "team": 0, "score": [3, 1]}
    assert H4.to_act(state) == set()
    assert H4.pending_chance(state) is None
    raises("match_over", state, CHANCE, {"type": "deal", "deck": list(DECK52)})


def test_h4_6_a_7_round_match_round_wins_need_not_be_consecutive():
    winners = [1, 2, 2, 3, 4, 1, 2, 3, 1, 4, 1, 3]  # side 0 wins its 7th in the 12th round
    state, events = play_rounds(winners, target=7)
    rounds = [e["team"] for e in events if e["type"] == "round_won"]
    assert rounds == [H4.team_of(s) for s in winners]
    assert H4.result(state) == {"winner": 0, "score": [7, 5]}
    assert state["round"] == 12


def test_c_7_after_a_round_the_engine_waits_for_the_next_deal():
    state, _ = finish_round(started(sweep_hands(1)))
    assert H4.round_over(state) and H4.to_act(state) == {CHANCE}
    assert H4.legal_actions(state, CHANCE) == [{"type": "deal"}]
    state = dealt(HANDS_A, hakem=1, state=state)
    assert not H4.round_over(state) and state["round"] == 2
    assert state["tricks"] == [0, 0] and state["score"] == [1, 0] and state["last_trick"] is None


def test_h4_6_the_match_goes_on_before_the_target():
    state, _ = play_rounds([1, 1], target=3)
    assert state["phase"] == "round_over" and H4.result(state) is None


def test_h4_7_the_hakem_stays_when_his_side_wins():
    state, events = finish_round(started(sweep_hands(3), hakem=1))
    assert state["hakem"] == 1
    assert events[-1] == {"type": "next_hakem", "seat": 1, "stays": True}


def test_h4_7_the_next_seat_becomes_hakem_when_the_hakems_side_loses():
    state = new()
    state, _ = act(state, CHANCE, {"type": "draw", "deck": draw_deck(4)})
    state, events = finish_round(started(sweep_hands(1), hakem=4, state=state))
    assert state["hakem"] == 1  # after seat 4 comes seat 1
    assert state["last_result"]["hakem"] == 4
    state = dealt(sweep_hands(1), hakem=1, state=state)
    assert state["hakem"] == 1 and H4.to_act(state) == {1} and state["round"] == 2


def test_h4_8_every_view_shows_the_trump_the_tricks_and_the_rounds_of_each_side():
    state, _ = play_rounds([2], target=3)
    state = started(HANDS_A, hakem=2, state=state)
    state, _ = play(state, "2H", "JH", "7H", "AH")
    for seat in (1, 2, 3, 4, None):
        v = H4.view(state, seat)
        assert v["trump"] == "S"
        assert v["score"] == {"rounds": [0, 1], "tricks": [1, 0], "target": 3}
        assert v["hakem"] == 2
        assert v["last_trick"] == {
            "cards": [
                {"seat": 2, "card": "2H"},
                {"seat": 3, "card": "JH"},
                {"seat": 4, "card": "7H"},
                {"seat": 1, "card": "AH"},
            ],
            "winner": 1,
        }
        assert v["last_result"]["winner"] == 1


# ------------------------------------------------------- H4-X1 middle card


def test_h4_x1_partners_middle_card_names_trump_and_stays_visible_until_he_plays():
    state = dealt(HANDS_A, hakem=1, rules={"middle_card": True})
    middle = HANDS_A[3][2]  # d[12]
    assert middle == "9H"
    for seat in (2, 3, 4, None):
        assert middle not in view_cards(H4.view(state, seat))  # H4-2: not before trump
    state, events = act(state, 1, {"type": "trump", "suit": "middle"})
    assert events == [{"type": "trump_named", "seat": 1, "suit": "H", "middle": "9H"}]
    assert state["trump"] == "H"
    assert middle in state["hands"][2]  # it is the partner's card
    state, _ = play(state, "AD", "2D")
    for seat in (1, 2, 3, 4, None):
        v = H4.view(state, seat)
        assert v["middle"] == "9H" and "9H" in view_cards(v)
    state, _ = play(state, "5D")  # the partner's first card: he has picked it up
    for seat in (1, 2, 4, None):
        v = H4.view(state, seat)
        assert v["middle"] is None and "9H" not in view_cards(v)
    assert "9H" in H4.view(state, 3)["hand"]


def test_h4_x1_the_partner_may_play_the_middle_card_itself():
    state = dealt(HANDS_A, hakem=1)
    state, _ = act(state, 1, {"type": "trump", "suit": "middle"})
    state, _ = play(state, "AH", "2H", "9H")
    assert state["middle"] is None
    assert state["trick"][-1] == [3, "9H"]


def test_h4_x1_middle_is_refused_when_the_table_rule_is_off():
    state = dealt(HANDS_A, hakem=1, rules={"middle_card": False})
    assert {a["suit"] for a in H4.legal_actions(state, 1)} == set(SUITS)
    raises("not_allowed", state, 1, {"type": "trump", "suit": "middle"})


def test_h4_x1_the_middle_card_of_the_hakems_partner_when_the_hakem_is_seat_2():
    hands = {1: HANDS_A[4], 2: HANDS_A[1], 3: HANDS_A[2], 4: HANDS_A[3]}
    state = started(hands, hakem=2, trump="middle")
    assert state["middle"] == hands[4][2] and state["trump"] == hands[4][2][1]


# ------------------------------------------------------- H4-X2 early play

EARLY = {"early_play": True}


def test_h4_x2_an_early_card_is_face_down_can_be_taken_back_and_plays_itself():
    state = started(HANDS_A, rules=EARLY)
    raises("trick_not_begun", state, 3, {"type": "early", "card": "8H"})
    state, _ = play(state, "AH")
    assert H4.to_act(state) == {2}
    assert {"type": "early", "card": "8H"} in H4.legal_actions(state, 3)
    assert {"type": "early", "card": "5D"} not in H4.legal_actions(state, 3)  # must be legal (C-3)
    raises("must_follow_suit", state, 3, {"type": "early", "card": "5D"})
    raises("your_turn", state, 2, {"type": "early", "card": "2H"})
    raises("already_played", state, 1, {"type": "early", "card": "KH"})
    state, events = act(state, 3, {"type": "early", "card": "8H"})
    assert events == [{"type": "early_laid", "seat": 3}]
    assert H4.to_act(state) == {2}
    for seat in (1, 2, 4, None):
        v = H4.view(state, seat)
        assert v["early"] == [False, False, True, False]
        assert "8H" not in view_cards(v) and v["my_early"] is None
    assert H4.view(state, 3)["my_early"] == "8H"
    assert H4.legal_actions(state, 3) == [{"type": "take_back"}]
    raises("early_already_laid", state, 3, {"type": "early", "card": "9H"})
    state, events = act(state, 3, {"type": "take_back"})
    assert events == [{"type": "early_taken_back", "seat": 3}]
    assert "8H" in state["hands"][2] and state["early"] == [None] * 4
    raises("no_early_card", state, 3, {"type": "take_back"})
    state, _ = act(state, 3, {"type": "early", "card": "JH"})
    state, _ = act(state, 4, {"type": "early", "card": "3H"})
    state, events = play(state, "2H")  # seat 2 plays: 3 and 4 turn their cards over
    assert [(e["seat"], e["card"], e.get("early", False)) for e in events if e["type"] == "card_played"] == [
        (2, "2H", False),
        (3, "JH", True),
        (4, "3H", True),
    ]
    assert events[-1]["type"] == "trick_won" and events[-1]["seat"] == 1
    assert state["turn"] == 1 and state["trick"] == []


def test_h4_x2_after_an_early_card_a_player_waits_three_tricks_a_taken_back_card_does_not_count():
    state = started(HANDS_A, rules=EARLY)
    state, _ = play(state, "AH")
    state, _ = act(state, 4, {"type": "early", "card": "3H"})
    state, _ = act(state, 4, {"type": "take_back"})  # does not count
    state, _ = act(state, 3, {"type": "early", "card": "8H"})  # trick 0
    state, _ = play(state, "2H", "3H")  # 3's card plays itself between them
    assert state["early_from"][2] == 4 and state["early_from"][3] == 0
    checked_waiting = checked_allowed = 0
    while state["phase"] == "play" and state["trick_no"] < 6:
        trick = state["trick"]
        if trick and state["turn"] != 3 and all(s != 3 for s, _ in trick):
            legal3 = H4.legal_actions(state, 3)
            if state["trick_no"] < 4:
                assert legal3 == []
                raises("early_wait", state, 3, {"type": "early", "card": state["hands"][2][0]})
                checked_waiting += 1
            else:
                assert legal3 and all(a["type"] == "early" for a in legal3)
                checked_allowed += 1
        if trick and state["trick_no"] == 1 and state["turn"] != 4 and all(s != 4 for s, _ in trick):
            assert H4.legal_actions(state, 4)  # seat 4 only took his card back
        seat = state["turn"]
        state, _ = act(state, seat, H4.auto_action(state, seat))
    assert checked_waiting and checked_allowed


def test_h4_x2_the_wait_restarts_each_round():
    state = started(HANDS_A, rules=EARLY)
    state, _ = play(state, "AH")
    state, _ = act(state, 3, {"type": "early", "card": "8H"})
    state, _ = play(state, "2H", "3H")
    state, _ = finish_round(state)
    state = started(HANDS_A, hakem=state["hakem"], state=state)
    assert state["early_from"] == [0, 0, 0, 0]


def test_h4_x2_early_play_is_refused_when_the_table_rule_is_off():
    state = started(HANDS_A)
    state, _ = play(state, "AH")
    assert H4.legal_actions(state, 3) == []
    raises("not_allowed", state, 3, {"type": "early", "card": "8H"})
    raises("not_allowed", state, 3, {"type": "take_back"})


def test_h4_x2_laying_another_card_early_does_not_pick_up_the_middle_card_h4_x1_decision():
    state = started(HANDS_A, rules=EARLY, trump="middle")
    state, _ = play(state, "AD")
    state, _ = act(state, 3, {"type": "early", "card": "5D"})
    assert state["middle"] == "9H"
    state, _ = play(state, "2D")  # his early card is turned and played: now it goes
    assert state["middle"] is None


# ------------------------------------------------------------- H4-X3 runs

RUN = {"lead_run": True}


def test_h4_x3_a_run_of_a_k_q_is_led_one_per_trick_and_the_second_card_is_cut():
    state = started(HANDS_A, rules=RUN)
    runs = [a["cards"] for a in H4.legal_actions(state, 1) if a["type"] == "run"]
    assert runs == [["AH", "KH", "QH"], ["AD", "KD", "QD"], ["AC", "KC", "QC"]]
    state, events = act(state, 1, {"type": "run", "cards": ["AH", "KH", "QH"]})
    assert events == [
        {"type": "run_led", "seat": 1, "cards": ["AH", "KH", "QH"]},
        {"type": "card_played", "seat": 1, "card": "AH", "cut": False},
    ]
    for seat in (2, 3, 4, None):
        assert H4.view(state, seat)["run"] == {"seat": 1, "cards": ["KH", "QH"]}
    state, events = play(state, "2H", "8H", "3H")
    assert [e["seat"] for e in events if e["type"] == "trick_won"] == [1]
    assert events[-1] == {"type": "card_played", "seat": 1, "card": "KH", "cut": False}
    assert state["turn"] == 2
    state, events = play(state, "9S", "9H", "4H")  # seat 2, out of hearts, cuts
    assert events[0]["cut"] is True
    assert [e["seat"] for e in events if e["type"] == "trick_won"] == [2]
    # Seat 2 won, yet the runner leads the run's next card.
    assert events[-1] == {"type": "card_played", "seat": 1, "card": "QH", "cut": False}
    assert state["run"] is None and state["turn"] == 2
    state, events = play(state, "TS", "TH", "5H")
    assert [e["seat"] for e in events if e["type"] == "trick_won"] == [2]
    assert state["turn"] == state["leader"] == 2  # after the run its last trick's winner leads
    assert state["trick"] == []


def test_h4_x3_a_run_in_trumps_is_two_or_more_of_the_highest_trumps_still_out():
    state = started(HANDS_A, rules=RUN, trump="H")
    runs = [a["cards"] for a in H4.legal_actions(state, 1) if a["type"] == "run"]
    assert ["AH", "KH"] in runs and ["AH", "KH", "QH"] in runs
    assert ["AH", "KH", "QH", "JH"] not in runs  # JH is seat 3's
    raises("bad_run", state, 1, {"type": "run", "cards": ["AH", "QH"]})
    raises("bad_run", state, 1, {"type": "run", "cards": ["AH"]})
    raises("bad_run", state, 1, {"type": "run", "cards": ["AH", "AH"]})
    raises("bad_run", state, 1, {"type": "run", "cards": ["AD", "KD"]})
    # Any order of a listed run is accepted and is the order of the leads.
    state, events = act(state, 1, {"type": "run", "cards": ["KH", "AH"]})
    assert state["trick"] == [[1, "KH"]] and state["run"] == {"seat": 1, "cards": ["AH"]}


def test_h4_x3_once_the_top_trumps_are_played_the_next_ones_make_a_run():
    hands = {1: HANDS_A[2], 2: HANDS_A[3], 3: HANDS_A[4], 4: HANDS_A[1]}  # seat 4 holds AH KH QH
    state = started(hands, hakem=1, rules=RUN, trump="H")
    state, _ = play(state, "2H", "8H", "3H", "AH")  # 4 wins with the ace of trumps
    runs = [a["cards"] for a in H4.legal_actions(state, 4) if a["type"] == "run"]
    assert [r for r in runs if r[0][1] == "H"] == [["KH", "QH"]]


def test_h4_x3_runs_need_the_table_rule_and_the_lead():
    state = started(HANDS_A)
    assert all(a["type"] == "play" for a in H4.legal_actions(state, 1))
    raises("not_allowed", state, 1, {"type": "run", "cards": ["AH", "KH", "QH"]})
    state = started(HANDS_A, rules=RUN)
    raises("not_your_turn", state, 2, {"type": "run", "cards": ["AS", "KS"]})
    raises("bad_action", state, 1, {"type": "run", "cards": "AH KH QH"})
    raises("bad_action", state, 1, {"type": "run", "cards": ["AH", "ZZ"]})
    raises("bad_run", state, 1, {"type": "run", "cards": ["AH", "KH", "QH", "JH"]})
    state, _ = play(state, "AH")
    raises("bad_run", state, 2, {"type": "run", "cards": ["AS", "KS"]})


def test_h4_x3_a_round_that_ends_inside_a_run_gives_the_rest_back_to_the_hand():
    hands = sweep_hands(1)
    state = started(hands, rules=RUN)
    for _ in range(6):
        state, _ = play(state, state["hands"][0][-1], *[state["hands"][s - 1][0] for s in (2, 3, 4)])
    assert state["tricks"] == [6, 0]
    state, _ = act(state, 1, {"type": "run", "cards": ["AS", "KS", "QS"]})
    state, _ = play(state, *[state["hands"][s - 1][0] for s in (2, 3, 4)])
    assert state["phase"] == "round_over" and state["run"] is None
    assert {"KS", "QS"} <= set(state["hands"][0])


# ------------------------------------------------------ H4-X6 ace partners


def test_h4_x6_the_next_other_seat_to_get_an_ace_becomes_the_partner_seats_swap():
    deck = draw_deck(1, later_aces=[5, 30, 40])  # position 5 is seat 4
    state, events = act(new({"ace_partners": True}), CHANCE, {"type": "draw", "deck": deck})
    assert state["hakem"] == 1
    assert events[1]["type"] == "partner_draw" and events[1]["seat"] == 4
    assert events[2] == {"type": "swap_seats", "a": 4, "b": 3}


def test_h4_x6_nobody_moves_when_the_partner_already_sits_opposite():
    deck = draw_deck(1, later_aces=[2, 30, 40])  # position 2 is seat 3
    state, events = act(new({"ace_partners": True}), CHANCE, {"type": "draw", "deck": deck})
    assert events[1]["seat"] == 3
    assert [e for e in events if e["type"] == "swap_seats"] == []


def test_h4_x6_nobody_moves_when_every_ace_reaches_the_hakem():
    deck = draw_deck(2, later_aces=[7, 11, 15])  # positions 3, 7, 11, 15 are seat 2
    state, events = act(new({"ace_partners": True}), CHANCE, {"type": "draw", "deck": deck})
    assert state["hakem"] == 2 and events[1]["seat"] is None
    assert [e for e in events if e["type"] == "swap_seats"] == []


def test_h4_x6_off_by_default_no_partner_draw():
    deck = draw_deck(1, later_aces=[5, 30, 40])
    state, events = act(new(), CHANCE, {"type": "draw", "deck": deck})
    assert [e["type"] for e in events] == ["hakem"]


# -------------------------------------------------------- illegal actions


def test_c_6_illegal_actions_raise_a_code_and_change_nothing():
    state = new()
    raises("not_your_turn", state, 1, {"type": "draw", "deck": list(DECK52)})
    raises("bad_action", state, CHANCE, {"type": "deal", "deck": list(DECK52)})
    raises("bad_action", state, CHANCE, {"type": "draw"})
    raises("bad_deck", state, CHANCE, {"type": "draw", "deck": list(DECK52)[:51]})
    raises("bad_deck", state, CHANCE, {"type": "draw", "deck": list(DECK52)[:51] + ["AS"]})
    raises("bad_deck", state, CHANCE, {"type": "draw", "deck": list(DECK52) + ["RJ", "BJ"]})
    raises("bad_deck", state, CHANCE, {"type": "draw", "deck": "AS KS"})
    state = started(HANDS_A)
    raises("bad_action", state, 1, "play AS")
    raises("bad_action", state, 1, {"card": "AH"})
    raises("bad_action", state, 1, {"type": "play"})
    raises("bad_action", state, 1, {"type": "play", "card": 7})
    raises("bad_action", state, 1, {"type": "play", "card": "AH", "extra": 1})
    raises("bad_action", state, 1, {"type": "fold"})
    raises("bad_action", state, 1, {"type": "trump", "suit": "S"})
    raises("not_in_hand", state, 1, {"type": "play", "card": "2H"})
    raises("not_in_hand", state, 1, {"type": "play", "card": "ZZ"})
    raises("not_your_turn", state, 2, {"type": "play", "card": "2H"})
    raises("not_your_turn", state, CHANCE, {"type": "deal", "deck": list(DECK52)})
    raises("not_your_turn", state, 7, {"type": "play", "card": "AH"})


def test_validate_rules_fills_defaults_and_refuses_unknown_keys_or_values():
    assert H4.validate_rules(None) == {
        "target": 7,
        "kot": False,
        "middle_card": True,
        "early_play": False,
        "lead_run": False,
        "ace_partners": False,
        "turn_seconds": 30,
        "tea": False,  # H4-X4, off unless the room turns it on
        "throwing": False,  # H4-X5, likewise
    }
    assert H4.validate_rules({"target": 3, "turn_seconds": 10})["target"] == 3
    for bad in ({"target": 4}, {"target": True}, {"kot": 1}, {"colour": "red"}, {"turn_seconds": 45}):
        with pytest.raises(IllegalAction) as info:
            H4.validate_rules(bad)
        assert info.value.code == "bad_rules"
    with pytest.raises(IllegalAction):
        H4.new_match({"target": 9})
    assert H4.RULE_OPTIONS["turn_seconds"] == {"choices": [10, 20, 30, 60], "default": 30}


def test_the_registry_finds_both_games():
    assert engine.get("hokm4") is H4 and H4.name == "hokm4" and H4.players == 4
    assert engine.get("hokm2").players == 2


# ------------------------------------------------------------- auto moves


def test_auto_action_names_the_hakems_strongest_suit():
    state = dealt(HANDS_A)
    # Five cards AH KH QH AD KD: hearts has three with A K Q.
    assert H4.auto_action(state, 1) == {"type": "trump", "suit": "H"}
    with pytest.raises(IllegalAction):
        H4.auto_action(state, 2)


def test_auto_action_follows_cheaply_wins_cheaply_and_never_overtakes_a_winning_partner():
    state = started(HANDS_A)
    assert H4.auto_action(state, 1) == {"type": "play", "card": "AH"}  # a plain ace first
    state, _ = play(state, "AH")
    assert H4.auto_action(state, 2) == {"type": "play", "card": "2H"}
    state, _ = play(state, "2H")
    assert H4.auto_action(state, 3) == {"type": "play", "card": "8H"}  # partner wins: lowest
    state, _ = play(state, "8H", "3H")
    state, _ = play(state, "KH")
    assert H4.auto_action(state, 2) == {"type": "play", "card": "9S"}  # cheapest winning trump
    state, _ = play(state, "9S")
    assert H4.auto_action(state, 3) == {"type": "play", "card": "9H"}  # cannot win: lowest heart


def test_auto_action_plays_its_lowest_card_when_it_cannot_win():
    state = started(HANDS_A)
    state, _ = play(state, "AD", "2D", "5D")
    assert H4.auto_action(state, 4) == {"type": "play", "card": "9D"}


def test_apply_is_deterministic_and_the_state_round_trips_through_json():
    a = started(HANDS_A)
    b = started(HANDS_A)
    a, ea = play(a, "AH", "2H")
    b, eb = play(b, "AH", "2H")
    assert a == b and ea == eb
    assert json.loads(json.dumps(a)) == a
