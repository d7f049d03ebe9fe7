"""Shelem for two players, rule by rule (S2-1..S2-8, D-5) on hand-made decks."""

import pytest

from games.engine import CHANCE, IllegalAction, get
from games.engine.cards import DECK52, DECK54
from games.engine.seats import next_seat
from games.engine.shelem import CARD_POINTS

from .test_shelem4 import (
    any_deck,
    arrange,
    auto_round,
    cards_in,
    deal,
    fill,
    is_ace,
    legal_cards,
    play,
    refused,
)

SH2 = get("shelem2")


def deck2(hands, columns, widow, first):
    """The deck that deals these hands and columns (top card first) with ``first`` as first bidder (D-5)."""
    other = next_seat(first, 2)
    segments = [
        (hands[first], True),
        (hands[other], True),
        ([c for col in columns[first] for c in col], False),
        ([c for col in columns[other] for c in col], False),
        (widow, True),
    ]
    return arrange(segments, 2, first)


def start2(
    hands,
    columns=None,
    *,
    first=1,
    bidder=1,
    bid=100,
    jokers=False,
    sars=False,
    voids=None,
    widow=(),
    **rules,
):
    """A shelem2 round in its play phase: the bidder put the widow itself aside."""
    hands, widow, columns = fill(hands, players=2, jokers=jokers, voids=voids, widow=widow, columns=columns)
    state, _ = deal(SH2, deck2(hands, columns, widow, first), jokers, **rules)
    assert state["first_bidder"] == first
    assert state["columns"] == [columns[1], columns[2]]
    if bidder == first:
        state, _ = SH2.apply(state, first, {"type": "bid", "amount": bid})
        if state["phase"] == "bidding":
            state, _ = SH2.apply(state, next_seat(first, 2), {"type": "pass"})
    else:
        state, _ = SH2.apply(state, first, {"type": "bid", "amount": 100})
        state, _ = SH2.apply(state, bidder, {"type": "bid", "amount": bid})
        if state["phase"] == "bidding":
            state, _ = SH2.apply(state, first, {"type": "pass"})
    state, _ = SH2.apply(state, bidder, {"type": "discard", "cards": list(widow)})
    if not jokers:
        state, _ = SH2.apply(state, bidder, {"type": "sars", "sars": sars})
    return state


def tops(view, seat):
    return [col["top"] for col in view["columns"][seat - 1]]


def test_d_5_hands_columns_widow_and_the_first_bidder():
    plain = [c for c in DECK52 if not is_ace(c)]
    deck = plain[:3] + ["AS"] + plain[3:] + ["AH", "AD", "AC"]  # first ace d[3]: seat 1 + 3 mod 2 = 2
    state, events = deal(SH2, deck)
    assert state["first_bidder"] == 2 and events[0]["first_bidder"] == 2
    assert sorted(state["hands"][1]) == sorted(deck[0:12])
    assert sorted(state["hands"][0]) == sorted(deck[12:24])
    assert state["columns"][1] == [deck[24:28], deck[28:32], deck[32:36]]
    assert state["columns"][0] == [deck[36:40], deck[40:44], deck[44:48]]
    assert state["widow"] == deck[48:]
    deck = plain[:4] + ["AS"] + plain[4:] + ["AH", "AD", "AC"]
    assert deal(SH2, deck)[0]["first_bidder"] == 1


def test_s2_1_twelve_cards_in_hand_three_columns_of_four_and_the_widow():
    for jokers, widow_size in ((False, 4), (True, 6)):
        state, _ = deal(SH2, any_deck(jokers, shift=9), jokers)
        assert [len(h) for h in state["hands"]] == [12, 12]
        assert [[len(col) for col in mine] for mine in state["columns"]] == [[4, 4, 4], [4, 4, 4]]
        assert len(state["widow"]) == widow_size
        view = SH2.view(state, 1)
        assert view["columns"] == [[{"count": 4, "top": None}] * 3] * 2  # all face down
        first = state["first_bidder"]
        state, _ = SH2.apply(state, first, {"type": "bid", "amount": 100})
        state, _ = SH2.apply(state, next_seat(first, 2), {"type": "pass"})
        assert len(SH2.view(state, first)["hand"]) == 12 + widow_size
        state, _ = SH2.apply(state, first, {"type": "discard", "count": widow_size})
        assert len(state["hands"][first - 1]) == 12 and len(state["aside"]) == widow_size
        assert state["phase"] == ("play" if jokers else "sars")


def test_s2_1_the_auction_as_in_sh_3():
    state, _ = deal(SH2, any_deck())
    first = state["first_bidder"]
    other = next_seat(first, 2)
    refused(SH2, state, first, {"type": "pass"}, "first_bidder_must_bid")
    refused(SH2, state, first, {"type": "bid", "amount": 104}, "bid_not_multiple_of_5")
    state, _ = SH2.apply(state, first, {"type": "bid", "amount": 110})
    refused(SH2, state, other, {"type": "bid", "amount": 110}, "bid_not_higher")
    state, _ = SH2.apply(state, other, {"type": "bid", "amount": 130})
    state, events = SH2.apply(state, first, {"type": "pass"})
    assert state["bidder"] == other and state["bid"] == 130
    assert [e["type"] for e in events] == ["passed", "auction_won", "widow_taken"]


def test_s2_2_the_hand_phase_and_the_first_card_names_trump():
    state = start2({1: ["7H"], 2: ["2H"]}, {1: [["KH"], ["AS"], ["3C"]], 2: [["9D"], ["QH"], ["4S"]]})
    assert SH2.to_act(state) == {1} and legal_cards(SH2, state) == sorted(state["hands"][0])
    refused(SH2, state, 1, {"type": "play", "card": "KH"}, "not_in_hand")  # a column card
    state, events = play(SH2, state, "7H")
    assert state["trump"] == "H" and events[0] == {"type": "trump_named", "suit": "H", "sars": False}
    assert SH2.to_act(state) == {2}
    assert all(c[1] == "H" for c in legal_cards(SH2, state))  # C-3 from the hand
    refused(SH2, state, 2, {"type": "play", "card": "QH"}, "not_in_hand")


def test_s2_3_column_tops_turn_only_after_the_rounds_first_two_cards():
    state = start2({1: ["7H"], 2: ["2H"]}, {1: [["KH"], ["AS"], ["3C"]], 2: [["9D"], ["QH"], ["4S"]]})
    for seat in (1, 2, None):
        assert tops(SH2.view(state, seat), 1) == [None] * 3
    state, events = play(SH2, state, "7H")
    assert tops(SH2.view(state, 2), 2) == [None] * 3
    assert not any(e["type"] == "columns_turned" for e in events)
    state, events = play(SH2, state, "2H")
    assert events[-1] == {
        "type": "columns_turned",
        "cards": [
            {"seat": 1, "column": 1, "card": "KH"},
            {"seat": 1, "column": 2, "card": "AS"},
            {"seat": 1, "column": 3, "card": "3C"},
            {"seat": 2, "column": 1, "card": "9D"},
            {"seat": 2, "column": 2, "card": "QH"},
            {"seat": 2, "column": 3, "card": "4S"},
        ],
    }
    for seat in (1, 2, None):
        view = SH2.view(state, seat)
        assert tops(view, 1) == ["KH", "AS", "3C"] and tops(view, 2) == ["9D", "QH", "4S"]


def test_s2_4_the_column_phase_plays_face_up_tops_only():
    state = start2(
        {1: ["7S"], 2: ["2S"]}, {1: [["KH", "5D"], ["AC"], ["3C"]], 2: [["9D"], ["QH"], ["4H"]]}, sars=True
    )
    state, _ = play(SH2, state, "7S", "2S")
    assert SH2.to_act(state) == {1}  # the same leader, now from his columns
    assert legal_cards(SH2, state) == ["3C", "AC", "KH"]  # no spade among the tops: any top
    refused(SH2, state, 1, {"type": "play", "card": state["hands"][0][0]}, "column_card_due")  # issue 34
    refused(SH2, state, 1, {"type": "play", "card": "5D"}, "not_in_hand")  # face down
    refused(SH2, state, 1, {"type": "play", "card": "9D"}, "not_in_hand")  # the opponent's
    state, _ = play(SH2, state, "KH")
    assert legal_cards(SH2, state) == ["4H", "9D", "QH"]
    state, _ = play(SH2, state, "QH")
    assert state["tricks"][0]["winner"] == 1  # sars: 7S is the highest spade


def test_s2_5_following_uses_the_suit_of_the_tricks_first_card_in_the_column_phase():
    state = start2(
        {1: ["5H"], 2: ["2H"]}, {1: [["KH", "7C"], ["AS"], ["3C"]], 2: [["9D"], ["QH", "8D"], ["4S"]]}
    )
    state, _ = play(SH2, state, "5H", "2H")
    assert legal_cards(SH2, state) == ["KH"]  # a heart is among the tops: follow
    refused(SH2, state, 1, {"type": "play", "card": "AS"}, "must_follow_suit")
    state, _ = play(SH2, state, "KH")
    assert legal_cards(SH2, state) == ["QH"]
    refused(SH2, state, 2, {"type": "play", "card": "9D"}, "must_follow_suit")


def test_s2_5_a_joker_lead_in_sars_and_the_joker_duty_on_a_column_top():
    state = start2({1: ["BJ"]}, {1: [["2C"], ["3C"], ["4C"]], 2: [["RJ"], ["5D"], ["6D"]]}, jokers=True)
    state, _ = play(SH2, state, "BJ")
    assert state["sars"] is True and len(legal_cards(SH2, state)) == 12  # RJ is not in his hand
    state, _ = play(SH2, state, state["hands"][1][0])
    assert legal_cards(SH2, state) == ["2C", "3C", "4C"]  # no suit; the leader has no duty
    state, _ = play(SH2, state, "3C")
    assert legal_cards(SH2, state) == ["RJ"]  # SH-8 where the joker is playable
    refused(SH2, state, 2, {"type": "play", "card": "5D"}, "must_play_joker")
    state, events = play(SH2, state, "RJ")
    assert state["tricks"][0]["winner"] == 2 and events[-2]["type"] == "trick_won"


def test_s2_5_no_duty_when_the_leader_holds_the_other_joker():
    state = start2(
        {1: ["BJ"], 2: ["AS"]}, {1: [["RJ"], ["3C"], ["4C"]], 2: [["2D"], ["5D"], ["6D"]]}, jokers=True
    )
    state, _ = play(SH2, state, "BJ", "AS")
    assert legal_cards(SH2, state) == ["3C", "4C", "RJ"]
    state, _ = play(SH2, state, "3C")
    assert legal_cards(SH2, state) == ["2D", "5D", "6D"]


def test_s2_6_the_winner_takes_5_plus_the_cards_and_the_card_under_turns_after_gathering():
    state = start2(
        {1: ["5H"], 2: ["2H"]}, {1: [["KH", "7C"], ["AS"], ["3C"]], 2: [["9D"], ["QH", "8D"], ["4S"]]}
    )
    state, _ = play(SH2, state, "5H", "2H", "KH")
    view = SH2.view(state, 2)
    assert view["columns"][0][0] == {"count": 3, "top": None}  # 7C stays face down for now
    assert "7C" not in cards_in(view) and "7C" not in cards_in(SH2.view(state, 1))
    state, events = play(SH2, state, "QH")
    assert events[-2] == {
        "type": "trick_won",
        "seat": 1,
        "cards": ["5H", "2H", "KH", "QH"],
        "points": 5 + CARD_POINTS["5H"],
    }
    assert events[-1] == {
        "type": "columns_turned",
        "cards": [{"seat": 1, "column": 1, "card": "7C"}, {"seat": 2, "column": 2, "card": "8D"}],
    }
    widow = 5 + sum(CARD_POINTS[c] for c in state["aside"])
    assert state["points"] == [widow + 5 + 5, 0]
    view = SH2.view(state, None)
    assert tops(view, 1) == ["7C", "AS", "3C"] and tops(view, 2) == ["9D", "8D", "4S"]


def test_s2_6_an_empty_column_can_no_longer_be_chosen():
    column = ["AC", "KC", "QC", "JC"]
    state = start2(
        {
            1: ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "AS", "KS", "QS"],
            2: ["2D", "3D", "4D", "5D", "JS", "TS", "AH", "KH", "QH", "JH", "TH", "TC"],
        },
        {
            1: [column, ["2H", "3H", "4H", "5H"], ["2S", "3S", "4S", "5S"]],
            2: [["6H", "7H", "8H", "9H"], ["6S", "7S", "8S", "9S"], ["6C", "7C", "8C", "9C"]],
        },
        widow=["5C", "4C", "3C", "2C"],
        sars=True,
    )
    for k in range(4):
        assert state["leader"] == 1
        state, _ = play(SH2, state, column[k][0] + "D")
        state, _ = play(SH2, state, SH2.auto_action(state, 2)["card"])
        assert column[k] in legal_cards(SH2, state)  # no diamond among the tops: any top
        state, _ = play(SH2, state, column[k])
        state, _ = play(SH2, state, SH2.auto_action(state, 2)["card"])
    assert state["leader"] == 1 and state["columns"][0][0] == []
    assert SH2.view(state, 2)["columns"][0][0] == {"count": 0, "top": None}
    state, _ = play(SH2, state, "TD")
    state, _ = play(SH2, state, SH2.auto_action(state, 2)["card"])
    assert legal_cards(SH2, state) == ["2H", "2S"]  # column 1 is closed
    refused(SH2, state, 1, {"type": "play", "card": "3H"}, "not_in_hand")


def test_s2_7_the_winner_leads_from_his_hand_and_twelve_tricks_make_the_round():
    for jokers in (False, True):
        state, _ = deal(SH2, any_deck(jokers, shift=13), jokers)
        state, events = auto_round(SH2, state)
        won = [e for e in events if e["type"] == "trick_won"]
        assert len(won) == 12 and all(len(e["cards"]) == 4 for e in won)
        assert sum(state["last_result"]["points"]) == (200 if jokers else 165)
        assert state["hands"] == [[], []] and state["columns"] == [[[], [], []], [[], [], []]]
        plays = [e for e in events if e["type"] == "card_played"]
        for k, e in enumerate(won[:-1]):
            assert plays[4 * (k + 1)]["seat"] == e["seat"]  # the winner leads the next trick
        assert SH2.round_over(state)
        first = state["first_bidder"]
        if state["phase"] == "round_over":
            state, _ = SH2.apply(state, CHANCE, {"type": "deal", "deck": any_deck(jokers)})
            assert state["first_bidder"] == next_seat(first, 2)


def test_s2_7_scoring_and_match_end_as_sh_10_and_sh_11():
    spades = [r + "S" for r in "AKQJT9876543"]
    state = start2(
        {1: spades},
        {1: [["AH", "KH", "QH", "JH"], ["AD", "KD", "QD", "JD"], ["AC", "KC", "QC", "JC"]]},
        bid=165,
        widow=["2S", "2H", "3H", "4H"],
        voids={2: "S"},
        cap=300,
    )
    state, _ = auto_round(SH2, state)
    assert state["last_result"]["points"] == [165, 0]
    assert state["last_result"]["score"] == [330, 0]
    assert SH2.result(state) == {"winner": 0, "score": [330, 0]}


def hidden_of(state):
    """The face-down column cards (S2-8): under the tops, and every card before the first turning."""
    out = set()
    for s in (1, 2):
        used = state["used"][s - 1]
        for j, col in enumerate(state["columns"][s - 1]):
            up = state["columns_up"] and j != used
            out |= set(col[1:] if up else col)
    return out


def test_s2_8_face_down_cards_are_never_seen_nor_played():
    for jokers in (False, True):
        state, _ = deal(SH2, any_deck(jokers, shift=21), jokers)
        while state["phase"] not in ("round_over", "match_over"):
            seat = state["turn"]
            hidden = hidden_of(state)
            for viewer in (1, 2, None):
                assert not hidden & cards_in(SH2.view(state, viewer))
            if state["phase"] == "play":
                for card in hidden:
                    with pytest.raises(IllegalAction):
                        SH2.apply(state, seat, {"type": "play", "card": card})
            state, events = SH2.apply(state, seat, SH2.auto_action(state, seat))
            assert not (hidden_of(state) | set(state["aside"])) & cards_in(events)


def test_s2_1_views_and_the_public_view_hold_no_hand_card():
    state, _ = deal(SH2, any_deck(True, shift=2), True)
    assert not cards_in(SH2.view(state, None))
    mine = SH2.view(state, 1)
    assert cards_in(mine) == set(state["hands"][0])
    assert set(DECK54) - cards_in(mine) >= set(state["hands"][1]) | set(state["widow"])


def test_s2_4_a_hand_card_in_the_column_phase_is_refused_saying_a_column_card_is_due():
    """Issue 34: it said "That card is not in your hand" of a card in the hand."""
    state = start2(
        {1: ["7S", "8S"], 2: ["2S", "3S"]},
        {1: [["KH", "5D"], ["AC"], ["3C"]], 2: [["9D"], ["QH"], ["4H"]]},
        sars=True,
    )
    state, _ = play(SH2, state, "7S", "2S")
    refused(SH2, state, 1, {"type": "play", "card": "8S"}, "column_card_due")
    state, _ = play(SH2, state, "KH", "QH")
    # S2-2: the next trick starts from the hands again; a column top is refused as such.
    leader = SH2.to_act(state).pop()
    top = next(c for c in SH2._tops(state, leader))
    refused(SH2, state, leader, {"type": "play", "card": top}, "hand_card_due")
