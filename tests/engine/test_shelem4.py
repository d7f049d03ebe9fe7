"""Shelem for four players, rule by rule (SH-1..SH-11, D-4) on hand-made decks.

The helpers at the top build the deck permutation that deals the hands a test
wants (D-4, D-5); test_shelem2.py uses them too.
"""

import json

import pytest

from games.engine import CHANCE, IllegalAction, get
from games.engine.cards import DECK52, DECK54, JOKERS, POWER, sort_hand
from games.engine.seats import in_order_from, next_seat
from games.engine.shelem import CARD_POINTS, round_score

SH4 = get("shelem4")


# -- deck builders -------------------------------------------------------------


def is_ace(card):
    return card[0] == "A"


def arrange(segments, players, first):
    """Join ``segments`` [(cards, free)] so that the first ace lands on seat ``first`` (D-4, D-5).

    Card i of the deck counts for seat 1 + i mod players; a free segment may be
    reordered, a fixed one (shelem2 columns) may not.
    """
    deck, placed = [], False
    for cards, free in segments:
        cards = list(cards)
        if placed or not any(is_ace(c) for c in cards):
            deck += cards
            continue
        if not free:
            i = next(k for k, c in enumerate(cards) if is_ace(c))
            assert next_seat(1, players, len(deck) + i) == first, (
                "a fixed segment puts the first ace elsewhere"
            )
            deck += cards
            placed = True
            continue
        aces = [c for c in cards if is_ace(c)]
        others = [c for c in cards if not is_ace(c)]
        for p in range(len(others) + 1):
            if next_seat(1, players, len(deck) + p) == first:
                deck += others[:p] + aces[:1] + others[p:] + aces[1:]
                placed = True
                break
        else:
            raise AssertionError("cannot put the first ace on that seat; change the hands")
    return deck


def fill(hands, *, players=4, jokers=False, widow=(), voids=None, columns=None):
    """Complete partial hands (and shelem2 columns) to full ones; the rest goes to the widow.

    Fillers are ordinary cards taken in deck order, skipping a seat's ``voids``
    suits; jokers not placed by the test go to the widow.
    """
    voids = voids or {}
    hands = {s: list(hands.get(s, ())) for s in range(1, players + 1)}
    columns = {s: [list(c) for c in (columns or {}).get(s, [[], [], []])] for s in range(1, players + 1)}
    placed = {c for h in hands.values() for c in h} | set(widow)
    placed |= {c for cols in columns.values() for col in cols for c in col}
    rest = [c for c in DECK52 if c not in placed]
    for seat in range(1, players + 1):
        while len(hands[seat]) < 12:
            c = next(c for c in rest if c[1] not in voids.get(seat, ""))
            rest.remove(c)
            hands[seat].append(c)
        if players == 2:
            for col in columns[seat]:
                while len(col) < 4:
                    col.append(rest.pop())
    widow = list(widow) + [c for c in JOKERS if jokers and c not in placed] + rest
    assert len(widow) == (6 if jokers else 4), widow
    return hands, widow, columns


def deck4(hands, widow, first):
    """The deck that deals ``hands`` {seat: 12 cards} and ``widow`` with ``first`` as first bidder (D-4)."""
    chunks = {s: [c for c in hands[s] if not is_ace(c)] + [c for c in hands[s] if is_ace(c)] for s in hands}
    segments = []
    for r in range(3):
        for seat in in_order_from(first, 4):
            segments.append((chunks[seat][4 * r : 4 * r + 4], True))
    segments.append((widow, True))
    return arrange(segments, 4, first)


def deal(game, deck, jokers=False, **rules):
    state = game.new_match({"jokers": jokers, **rules})
    state, events = game.apply(state, CHANCE, {"type": "deal", "deck": deck})
    return state, events


def win_auction(game, state, bidder, amount):
    """Everybody passes but ``bidder``, who bids ``amount`` (the first bidder opens with 100)."""
    while state["phase"] == "bidding":
        seat = state["turn"]
        if seat == bidder:
            action = {"type": "bid", "amount": amount}
        elif state["high_bid"] is None:
            action = {"type": "bid", "amount": 100}
        else:
            action = {"type": "pass"}
        state, _ = game.apply(state, seat, action)
    assert state["bidder"] == bidder and state["bid"] == amount
    return state


def start4(spec, *, first=1, bidder=1, bid=100, jokers=False, sars=False, voids=None, widow=(), **rules):
    """A shelem4 round in its play phase: the bidder put the widow itself aside."""
    hands, widow, _ = fill(spec, jokers=jokers, voids=voids, widow=widow)
    state, _ = deal(SH4, deck4(hands, widow, first), jokers, **rules)
    assert state["first_bidder"] == first
    for seat in hands:
        assert sorted(state["hands"][seat - 1]) == sorted(hands[seat])
    state = win_auction(SH4, state, bidder, bid)
    state, _ = SH4.apply(state, bidder, {"type": "discard", "cards": list(widow)})
    if not jokers:
        state, _ = SH4.apply(state, bidder, {"type": "sars", "sars": sars})
    return state


def play(game, state, *cards):
    """Play ``cards`` in turn order; returns the state and all events."""
    events = []
    for card in cards:
        state, ev = game.apply(state, state["turn"], {"type": "play", "card": card})
        events += ev
    return state, events


def legal_cards(game, state):
    return sorted(a["card"] for a in game.legal_actions(state, state["turn"]))


def refused(game, state, seat, action, code):
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        game.apply(state, seat, action)
    assert info.value.code == code
    assert json.dumps(state, sort_keys=True) == before


def auto_round(game, state):
    """Play the current round out with auto actions; returns the state and events."""
    events = []
    while state["phase"] not in ("round_over", "match_over"):
        seat = state["turn"]
        state, ev = game.apply(state, seat, game.auto_action(state, seat))
        events += ev
    return state, events


def cards_in(obj):
    """Every card id anywhere in a JSON-like value (views, events)."""
    if isinstance(obj, str):
        return {obj} & ALL_CARDS
    if isinstance(obj, dict):
        return set().union(*(cards_in(v) for v in obj.values())) if obj else set()
    if isinstance(obj, (list, tuple)):
        return set().union(*(cards_in(v) for v in obj)) if obj else set()
    return set()


ALL_CARDS = set(DECK54)


def any_deck(jokers=False, shift=0):
    deck = list(DECK54 if jokers else DECK52)
    return deck[shift:] + deck[:shift]


# -- D-4, SH-1, SH-2 -----------------------------------------------------------------


def test_d_4_first_bidder_is_the_seat_of_the_first_ace():
    plain = [c for c in DECK52 if not is_ace(c)]
    deck = plain[:2] + ["AH"] + plain[2:] + ["AS", "AD", "AC"]  # the first ace is d[2]: seat 3
    state, events = deal(SH4, deck)
    assert state["first_bidder"] == 3 and state["turn"] == 3
    assert events == [{"type": "dealt", "round": 1, "first_bidder": 3}]
    # Four cards to each in play order from the first bidder, three times; widow d[48:].
    order = [3, 4, 1, 2]
    for k in range(12):
        assert set(deck[4 * k : 4 * k + 4]) <= set(state["hands"][order[k % 4] - 1])
    assert state["widow"] == deck[48:]


def test_d_4_first_ace_counts_seats_from_seat_1_and_wraps():
    plain = [c for c in DECK52 if not is_ace(c)]
    for index, seat in ((0, 1), (5, 2), (14, 3), (47, 4), (48, 1)):  # 48: all aces in the widow
        deck = plain[:index] + ["AS"] + plain[index:] + ["AH", "AD", "AC"]
        state, _ = deal(SH4, deck)
        assert state["first_bidder"] == seat, index


def test_sh_1_twelve_cards_each_and_a_widow_of_four_or_six():
    state, _ = deal(SH4, any_deck())
    assert [len(h) for h in state["hands"]] == [12] * 4 and len(state["widow"]) == 4
    state, _ = deal(SH4, any_deck(jokers=True), jokers=True)
    assert [len(h) for h in state["hands"]] == [12] * 4 and len(state["widow"]) == 6
    every = sorted(c for h in state["hands"] for c in h) + sorted(state["widow"])
    assert sorted(every) == sorted(DECK54)


def test_sh_1_the_deal_must_be_a_permutation_of_the_games_deck():
    state = SH4.new_match({"jokers": True})
    refused(SH4, state, CHANCE, {"type": "deal", "deck": list(DECK52)}, "bad_deck")
    refused(SH4, state, 1, {"type": "deal", "deck": list(DECK54)}, "not_your_turn")
    assert SH4.pending_chance(state) == ("deal", DECK54)
    assert SH4.legal_actions(state, CHANCE) == [{"type": "deal"}]


def test_sh_2_no_draw_and_the_first_bidder_then_rotates():
    state = SH4.new_match({})
    assert state["phase"] == "deal" and SH4.to_act(state) == {CHANCE}
    state, _ = deal(SH4, any_deck())
    first = state["first_bidder"]
    assert state["phase"] == "bidding" and SH4.to_act(state) == {first}
    for k in range(1, 5):
        state, _ = auto_round(SH4, state)
        if state["phase"] == "match_over":
            break
        assert SH4.round_over(state) and SH4.to_act(state) == {CHANCE}
        state, events = SH4.apply(state, CHANCE, {"type": "deal", "deck": any_deck(shift=k)})
        assert state["first_bidder"] == next_seat(first, 4, k)  # not the deck's first ace
        assert events[0]["first_bidder"] == state["first_bidder"]


# -- SH-3 bidding ---------------------------------------------------------------------


def test_sh_3_refused_bids_change_nothing_and_have_their_own_codes():
    state, _ = deal(SH4, any_deck())
    first = state["first_bidder"]
    refused(SH4, state, first, {"type": "bid", "amount": 104}, "bid_not_multiple_of_5")
    refused(SH4, state, first, {"type": "bid", "amount": 95}, "bid_below_minimum")
    refused(SH4, state, first, {"type": "bid", "amount": 170}, "bid_above_maximum")
    refused(SH4, state, first, {"type": "pass"}, "first_bidder_must_bid")
    refused(SH4, state, first, {"type": "bid", "amount": "120"}, "bad_action")
    refused(SH4, state, first, {"type": "bid", "amount": True}, "bad_action")
    refused(SH4, state, next_seat(first, 4), {"type": "bid", "amount": 120}, "not_your_turn")
    refused(SH4, state, first, {"type": "play", "card": state["hands"][first - 1][0]}, "wrong_phase")
    state, events = SH4.apply(state, first, {"type": "bid", "amount": 120})
    assert events == [{"type": "bid", "seat": first, "amount": 120}]
    second = next_seat(first, 4)
    refused(SH4, state, second, {"type": "bid", "amount": 120}, "bid_not_higher")
    refused(SH4, state, second, {"type": "bid", "amount": 115}, "bid_not_higher")


def test_sh_3_with_jokers_bids_go_to_200():
    state, _ = deal(SH4, any_deck(jokers=True), jokers=True)
    first = state["first_bidder"]
    refused(SH4, state, first, {"type": "bid", "amount": 205}, "bid_above_maximum")
    amounts = [a["amount"] for a in SH4.legal_actions(state, first)]
    assert amounts == list(range(100, 201, 5))  # no pass for the first bidder
    state, events = SH4.apply(state, first, {"type": "bid", "amount": 200})
    assert state["phase"] == "discard" and state["bidder"] == first and state["bid"] == 200


def test_sh_3_jumps_passers_out_and_the_last_bidder_wins():
    state, _ = deal(SH4, any_deck())
    s1 = state["first_bidder"]
    s2, s3, s4 = (next_seat(s1, 4, k) for k in (1, 2, 3))
    state, _ = SH4.apply(state, s1, {"type": "bid", "amount": 100})
    state, _ = SH4.apply(state, s2, {"type": "bid", "amount": 120})  # a jump
    state, _ = SH4.apply(state, s3, {"type": "pass"})
    assert {"type": "pass"} in SH4.legal_actions(state, s4)
    assert SH4.legal_actions(state, s4)[0] == {"type": "bid", "amount": 125}
    state, _ = SH4.apply(state, s4, {"type": "bid", "amount": 130})
    state, _ = SH4.apply(state, s1, {"type": "pass"})
    assert state["turn"] == s2
    state, _ = SH4.apply(state, s2, {"type": "bid", "amount": 140})
    assert state["turn"] == s4  # s3 and s1 are out of the auction
    view = SH4.view(state, None)
    assert view["bids"][s1 - 1] == "pass" and view["bids"][s2 - 1] == 140
    assert view["bids"][s3 - 1] == "pass" and view["bids"][s4 - 1] == 130
    assert view["high_bid"] == 140 and view["high_bidder"] == s2
    state, events = SH4.apply(state, s4, {"type": "pass"})
    assert state["phase"] == "discard" and state["bidder"] == s2 and state["bid"] == 140
    assert [e["type"] for e in events] == ["passed", "auction_won", "widow_taken"]
    assert SH4.to_act(state) == {s2}


def test_sh_3_the_maximum_bid_ends_the_auction_at_once():
    state, _ = deal(SH4, any_deck())
    s1 = state["first_bidder"]
    state, _ = SH4.apply(state, s1, {"type": "bid", "amount": 100})
    state, events = SH4.apply(state, next_seat(s1, 4), {"type": "bid", "amount": 165})
    assert state["phase"] == "discard" and state["bidder"] == next_seat(s1, 4)
    assert events[-2] == {"type": "auction_won", "seat": next_seat(s1, 4), "amount": 165}


def test_sh_3_the_first_bidder_alone_wins_with_100_when_all_pass():
    state, _ = deal(SH4, any_deck())
    s1 = state["first_bidder"]
    state = win_auction(SH4, state, s1, 100)
    assert state["bids"].count("pass") == 3


# -- SH-4 widow and put-aside -------------------------------------------------------------


def test_sh_4_the_bidder_takes_the_widow_and_puts_aside_four():
    hands, widow, _ = fill({1: ["AS", "KS"]}, widow=["TD", "5C", "2H", "3H"])
    state, _ = deal(SH4, deck4(hands, widow, 1))
    state = win_auction(SH4, state, 2, 120)
    assert state["phase"] == "discard"
    assert SH4.legal_actions(state, 2) == [{"type": "discard", "count": 4}]
    mine = SH4.view(state, 2)
    assert len(mine["hand"]) == 16 and sorted(mine["widow"]) == sorted(widow)
    assert set(widow) <= set(mine["hand"])
    for seat in (None, 1, 3, 4):
        other = SH4.view(state, seat)
        assert other["widow"] is None and other["hand_counts"][1] == 16
        assert not set(widow) & cards_in(other)
    own = state["hands"][1]
    refused(SH4, state, 2, {"type": "discard", "cards": own[:3]}, "bad_discard")
    refused(SH4, state, 2, {"type": "discard", "cards": [own[0]] * 4}, "bad_discard")
    refused(SH4, state, 2, {"type": "discard", "cards": own[:3] + ["AS"]}, "bad_discard")  # seat 1's
    refused(SH4, state, 2, {"type": "discard", "cards": own[:4], "count": 6}, "bad_discard")
    refused(SH4, state, 1, {"type": "discard", "cards": own[:4]}, "not_your_turn")
    aside = ["TD", "5C", own[0], own[1]]
    state, events = SH4.apply(state, 2, {"type": "discard", "cards": aside})
    assert events == [{"type": "discarded", "seat": 2, "count": 4}]
    assert len(state["hands"][1]) == 12 and sorted(state["aside"]) == sorted(aside)
    assert not set(aside) & set(state["hands"][1])
    # SH-4: the put-aside cards plus 5 count for the bidder's side as soon as they are aside.
    assert state["points"] == [0, 5 + 15 + CARD_POINTS[own[0]] + CARD_POINTS[own[1]]]
    assert state["phase"] == "sars"
    for seat in (None, 1, 2, 3, 4):
        assert SH4.view(state, seat)["widow"] is None
        assert not set(aside) & cards_in(SH4.view(state, seat))


def test_sh_4_the_discard_template_applies_the_engines_choice():
    state, _ = deal(SH4, any_deck(jokers=True), jokers=True)
    state = win_auction(SH4, state, state["first_bidder"], 100)
    bidder = state["bidder"]
    [template] = SH4.legal_actions(state, bidder)
    assert template == {"type": "discard", "count": 6}
    expected = SH4.auto_action(state, bidder)
    state2, _ = SH4.apply(state, bidder, template)
    assert sorted(state2["aside"]) == sorted(expected["cards"])
    assert state2["phase"] == "play"  # with jokers there is no sars choice (SH-5)


def test_sh_4_auto_put_aside_keeps_points_and_voids_a_short_suit():
    spec = {1: ["AS", "KS", "QS", "JS", "9S", "AH", "TH", "5H", "KH", "QD", "2C", "4C"]}
    hands, widow, _ = fill(spec, widow=["3C", "8S", "7S", "6S"])
    state, _ = deal(SH4, deck4(hands, widow, 1))
    state = win_auction(SH4, state, 1, 100)
    aside = SH4.auto_action(state, 1)["cards"]
    assert not any(CARD_POINTS[c] for c in aside)
    assert {"2C", "3C", "4C", "QD"} == set(aside)  # clubs voided, the lone queen too


# -- SH-5, SH-6 trump or sars ----------------------------------------------------------


def test_sh_5_without_jokers_sars_means_no_trump_whatever_card_leads():
    state = start4({1: ["AH"], 2: ["2S"]}, sars=True, voids={2: "H"})
    assert state["sars"] is True and state["trump"] is None
    state, events = play(SH4, state, "AH")
    assert state["trump"] is None
    assert events[0] == {"type": "trump_named", "suit": None, "sars": True}
    state, events = play(SH4, state, "2S")  # out of hearts: a spade is no trump
    assert events == [{"type": "card_played", "seat": 2, "card": "2S", "cut": False}]
    state, _ = play(SH4, state, legal_cards(SH4, state)[0])
    state, _ = play(SH4, state, legal_cards(SH4, state)[0])
    assert state["tricks"][0]["winner"] == 1


def test_sh_5_without_jokers_trump_by_first_card():
    state = start4({1: ["7D", "AS"], 2: ["2S"]}, sars=False)
    state, events = play(SH4, state, "7D")
    assert state["trump"] == "D"
    assert events[:2] == [
        {"type": "trump_named", "suit": "D", "sars": False},
        {"type": "card_played", "seat": 1, "card": "7D", "cut": False},
    ]


def test_sh_5_the_sars_choice_and_its_refusals():
    hands, widow, _ = fill({})
    state, _ = deal(SH4, deck4(hands, widow, 1))
    state = win_auction(SH4, state, 1, 100)
    state, _ = SH4.apply(state, 1, {"type": "discard", "cards": widow})
    assert SH4.legal_actions(state, 1) == [{"type": "sars", "sars": True}, {"type": "sars", "sars": False}]
    refused(SH4, state, 1, {"type": "sars", "sars": "yes"}, "bad_action")
    refused(SH4, state, 2, {"type": "sars", "sars": True}, "not_your_turn")
    refused(SH4, state, 1, {"type": "play", "card": state["hands"][0][0]}, "wrong_phase")
    state, events = SH4.apply(state, 1, {"type": "sars", "sars": True})
    assert events == [{"type": "sars_chosen", "seat": 1, "sars": True}]


def test_sh_5_with_jokers_the_first_ordinary_card_names_trump():
    state = start4({1: ["9C", "RJ"]}, jokers=True)
    assert state["phase"] == "play" and state["sars"] is None
    state, events = play(SH4, state, "9C")
    assert state["trump"] == "C" and state["sars"] is False
    assert events[0] == {"type": "trump_named", "suit": "C", "sars": False}


def test_sh_5_with_jokers_a_joker_first_makes_the_round_sars():
    state = start4({1: ["BJ", "AH"], 3: ["RJ"]}, jokers=True)
    state, events = play(SH4, state, "BJ")
    assert state["trump"] is None and state["sars"] is True
    assert events[0] == {"type": "trump_named", "suit": None, "sars": True}


def test_sh_6_the_bidder_leads_the_first_trick():
    state = start4({}, first=1, bidder=3, bid=105)
    assert state["leader"] == 3 and SH4.to_act(state) == {3}
    assert len(SH4.legal_actions(state, 3)) == 12
    assert SH4.legal_actions(state, 1) == []


# -- SH-7 jokers ---------------------------------------------------------------------------


def test_sh_7_a_trump_lead_must_be_followed_with_the_joker_when_it_is_the_only_trump():
    # Spades are trump (the first card). Seat 2's only "trump" is the red joker.
    state = start4({1: ["5S", "4S"], 2: ["RJ", "AH"], 3: ["2S", "BJ"]}, jokers=True, voids={2: "S"})
    state, _ = play(SH4, state, "5S")
    assert legal_cards(SH4, state) == ["RJ"]
    refused(SH4, state, 2, {"type": "play", "card": "AH"}, "must_follow_suit")
    state, _ = play(SH4, state, "RJ")
    # Seat 3 holds a trump and a joker: either may follow a trump lead, nothing else.
    assert {"2S", "BJ"} <= set(legal_cards(SH4, state))
    assert all(c[1] == "S" or c in JOKERS for c in legal_cards(SH4, state))
    state, _ = play(SH4, state, "BJ")
    state, _ = play(SH4, state, legal_cards(SH4, state)[0])
    assert state["tricks"][0]["winner"] == 2  # red beats black, both beat the ace of trumps


def test_sh_7_a_joker_cuts_an_ordinary_lead_when_out_of_the_suit():
    state = start4(
        {1: ["AS", "AH"], 2: ["2S", "TH"], 3: ["3S", "BJ"], 4: ["4S", "3H"]}, jokers=True, voids={3: "H"}
    )
    state, _ = play(SH4, state, "AS", "2S", "3S", "4S")  # spades trump; seat 1 wins
    assert state["leader"] == 1 and state["trump"] == "S"
    state, _ = play(SH4, state, "AH", "TH")
    assert "BJ" in legal_cards(SH4, state)  # out of hearts: may cut with the joker
    state, events = play(SH4, state, "BJ")
    assert events == [{"type": "card_played", "seat": 3, "card": "BJ", "cut": True}]
    state, events = play(SH4, state, "3H")
    assert events[-1] == {
        "type": "trick_won",
        "seat": 3,
        "cards": ["AH", "TH", "BJ", "3H"],
        "points": 5 + 10 + 10 + 15,
    }
    assert state["leader"] == 3


def test_sh_7_a_joker_led_later_is_a_trump_lead():
    state = start4({1: ["AS", "RJ"], 2: ["2S", "3S"], 3: ["4S"], 4: ["5S"]}, jokers=True)
    state, _ = play(SH4, state, "AS", "2S", "4S", "5S")
    assert state["leader"] == 1 and state["trump"] == "S"
    state, _ = play(SH4, state, "RJ")
    assert all(c[1] == "S" or c in JOKERS for c in legal_cards(SH4, state))
    assert "3S" in legal_cards(SH4, state)  # must follow trumps


def test_sh_7_in_sars_a_joker_lead_sets_no_suit_and_an_ordinary_lead_must_be_followed():
    keep = {"AH", "KD", "3H", "4H"}
    state = start4(
        {1: ["RJ", "BJ", "2H"], 2: ["AH", "KD"], 3: ["3H"], 4: ["4H"]},
        jokers=True,
        voids={1: "D", 3: "H", 4: "H"},
    )
    state, _ = play(SH4, state, "RJ")  # sars; seat 1 holds both jokers: no duty (SH-8)
    assert state["sars"] is True
    assert len(legal_cards(SH4, state)) == 12  # no suit to follow
    for _ in range(3):
        state, _ = play(SH4, state, next(c for c in legal_cards(SH4, state) if c not in keep))
    assert state["tricks"][0]["winner"] == 1
    state, _ = play(SH4, state, "2H")
    assert "AH" in legal_cards(SH4, state)
    assert all(c[1] == "H" for c in legal_cards(SH4, state))  # follow hearts in sars
    state, _ = play(SH4, state, "AH", "3H", "4H")
    assert state["leader"] == 2
    # In sars the black joker still beats every ordinary card (seat 1 is out of diamonds).
    state, _ = play(SH4, state, "KD")
    state, _ = play(SH4, state, legal_cards(SH4, state)[0])
    state, _ = play(SH4, state, legal_cards(SH4, state)[0])
    state, events = play(SH4, state, "BJ")
    assert events[0]["cut"] is True and events[-1]["type"] == "trick_won" and events[-1]["seat"] == 1


# -- SH-8 first-trick joker duty -----------------------------------------------------------


def test_sh_8_a_joker_led_first_forces_out_the_other_joker():
    state = start4({1: ["BJ", "AH"], 3: ["RJ", "AS"]}, jokers=True)
    state, _ = play(SH4, state, "BJ")
    assert state["sars"] is True
    assert len(legal_cards(SH4, state)) == 12  # seat 2 has no joker: anything
    state, _ = play(SH4, state, state["hands"][1][0])
    assert legal_cards(SH4, state) == ["RJ"]
    refused(SH4, state, 3, {"type": "play", "card": "AS"}, "must_play_joker")
    assert SH4.auto_action(state, 3) == {"type": "play", "card": "RJ"}
    state, _ = play(SH4, state, "RJ", state["hands"][3][0])
    assert state["tricks"][0]["winner"] == 3


def test_sh_8_no_duty_after_the_first_trick_or_when_the_leader_holds_both():
    state = start4({1: ["AS", "BJ"], 2: ["RJ", "2S", "3S"]}, jokers=True, voids={3: "S", 4: "S"})
    state, _ = play(SH4, state, "AS", "2S")  # spades trump
    state, _ = play(SH4, state, legal_cards(SH4, state)[0])
    state, _ = play(SH4, state, legal_cards(SH4, state)[0])
    assert state["leader"] == 1
    state, _ = play(SH4, state, "BJ")  # a joker led later: a trump lead, no duty
    assert legal_cards(SH4, state) == ["3S", "RJ"]
    both = start4({1: ["RJ", "BJ"]}, jokers=True)
    both, _ = play(SH4, both, "RJ")
    assert len(legal_cards(SH4, both)) == 12


# -- SH-9 points ------------------------------------------------------------------------------


def test_sh_9_points_per_trick_and_card_and_165_or_200_a_round():
    assert sum(CARD_POINTS[c] for c in DECK52) + 12 * 5 + 5 == 165
    assert sum(CARD_POINTS[c] for c in DECK54) + 12 * 5 + 5 == 200
    for jokers in (False, True):
        state, _ = deal(SH4, any_deck(jokers, shift=7), jokers)
        state, events = auto_round(SH4, state)
        assert sum(state["last_result"]["points"]) == (200 if jokers else 165)
        won = [e for e in events if e["type"] == "trick_won"]
        assert len(won) == 12
        for e in won:
            assert e["points"] == 5 + sum(CARD_POINTS[c] for c in e["cards"])
        view = SH4.view(state, None)
        assert view["score"]["last_result"]["points"] == state["last_result"]["points"]


def test_sh_9_points_taken_show_during_the_round_and_restart_at_zero():
    state = start4({1: ["AS", "TS"], 2: ["2S"], 3: ["3S"], 4: ["4S"]}, widow=["5D", "2D", "3D", "4D"])
    assert state["points"] == [10, 0]  # 5 + the widow's 5D
    state, _ = play(SH4, state, "AS", "2S", "3S", "4S")
    assert SH4.view(state, 3)["score"]["points"] == [25, 0]
    state, _ = auto_round(SH4, state)
    state, _ = SH4.apply(state, CHANCE, {"type": "deal", "deck": any_deck(shift=3)})
    assert state["points"] == [0, 0]


# -- SH-10, SH-11 through the engine ---------------------------------------------------------


def test_sh_10_a_full_shelem_scores_330():
    state = start4({1: SPADES_TO_THREE}, bid=165, widow=["2S", "2H", "3H", "4H"], voids=NO_SPADES)
    state, events = auto_round(SH4, state)
    assert state["last_result"]["points"] == [165, 0]
    assert state["last_result"]["score"] == [330, 0] and state["totals"] == [330, 0]


def test_sh_10_a_full_shelem_with_jokers_scores_400():
    top = ["RJ", "BJ"] + [r + "S" for r in "AKQJT987"]
    state = start4({1: top + ["6S", "5S"]}, bid=200, jokers=True, voids={2: "S", 3: "S", 4: "S"})
    state, _ = auto_round(SH4, state)
    assert state["last_result"]["points"] == [200, 0]
    assert state["last_result"]["score"] == [400, 0]


def test_sh_10_the_round_score_follows_round_score():
    for shift in range(6):
        state, _ = deal(SH4, any_deck(shift=11 * shift))
        state, events = auto_round(SH4, state)
        result = state["last_result"]
        side = SH4.team_of(result["bidder"])
        mine, theirs = round_score(result["bid"], result["points"][side], False)
        assert result["score"][side] == mine and sum(result["score"]) == mine + theirs
        scored = [e for e in events if e["type"] == "round_scored"]
        assert scored == [{"type": "round_scored", **result}]


SPADES_TO_THREE = [r + "S" for r in "AKQJT9876543"]
NO_SPADES = {2: "S", 3: "S", 4: "S"}


def test_sh_11_the_match_ends_at_the_cap_and_result_gives_the_totals():
    state = start4({1: SPADES_TO_THREE}, bid=165, widow=["2S", "2H", "3H", "4H"], voids=NO_SPADES, cap=300)
    assert SH4.result(state) is None
    state, events = auto_round(SH4, state)
    assert state["phase"] == "match_over" and state["totals"] == [330, 0]
    assert SH4.result(state) == {"winner": 0, "score": [330, 0]}
    assert events[-1] == {"type": "match_won", "winner": 0, "score": [330, 0]}
    assert SH4.to_act(state) == set() and SH4.legal_actions(state, 1) == []
    refused(SH4, state, CHANCE, {"type": "deal", "deck": any_deck()}, "match_over")


def test_sh_11_a_side_at_minus_the_cap_loses():
    low = [r + s for r in "234" for s in "SHDC"]
    high = [r + s for r in "AKQ" for s in "SHDC"]
    state = start4({1: low, 2: high}, bid=165)  # seat 2 must take a trick: the bid fails
    state = dict(state, totals=[-500, 0])
    state, _ = auto_round(SH4, state)
    assert state["last_result"]["score"][0] in (-165, -330)
    assert state["phase"] == "match_over" and SH4.result(state)["winner"] == 1


def test_sh_11_equal_totals_play_on():
    state = start4({1: SPADES_TO_THREE}, bid=165, widow=["2S", "2H", "3H", "4H"], voids=NO_SPADES, cap=300)
    state = dict(state, totals=[-30, 300])
    state, _ = auto_round(SH4, state)
    assert state["totals"] == [300, 300] and state["phase"] == "round_over"


def test_sh_11_lead_rule_is_a_multiple_of_the_round_total():
    state = start4(
        {1: SPADES_TO_THREE}, bid=165, widow=["2S", "2H", "3H", "4H"], voids=NO_SPADES, cap=1200, lead=1
    )
    state, _ = auto_round(SH4, state)
    assert state["totals"] == [330, 0] and state["phase"] == "match_over"  # 330 >= 165
    state = start4(
        {1: SPADES_TO_THREE}, bid=165, widow=["2S", "2H", "3H", "4H"], voids=NO_SPADES, cap=1200, lead=3
    )
    state, _ = auto_round(SH4, state)
    assert state["phase"] == "round_over"  # 330 < 495


def test_sh_11_rules_are_validated():
    assert SH4.validate_rules(None) == {"jokers": False, "cap": 600, "lead": 0, "turn_seconds": 30}
    assert SH4.validate_rules({"cap": 1200, "lead": 3, "jokers": True, "turn_seconds": 10})["cap"] == 1200
    for bad in (
        {"cap": 500},
        {"lead": 165},
        {"jokers": 1},
        {"cap": True},
        {"turn_seconds": 15},
        {"kot": True},
    ):
        with pytest.raises(IllegalAction) as info:
            SH4.validate_rules(bad)
        assert info.value.code == "bad_rules"
    assert set(SH4.RULE_OPTIONS) == {"jokers", "cap", "lead", "turn_seconds"}


# -- the contract: views, events, auto actions ------------------------------------------------


def test_sh_3_views_show_bids_and_the_public_view_no_hand():
    state, _ = deal(SH4, any_deck())
    first = state["first_bidder"]
    state, _ = SH4.apply(state, first, {"type": "bid", "amount": 110})
    public = SH4.view(state, None)
    assert public["hand"] is None and public["legal"] == [] and public["widow"] is None
    assert public["bids"][first - 1] == 110 and public["to_act"] == [next_seat(first, 4)]
    assert not cards_in(public)
    mine = SH4.view(state, next_seat(first, 4))
    assert mine["hand"] == sort_hand(state["hands"][next_seat(first, 4) - 1])
    assert mine["legal"] == SH4.legal_actions(state, next_seat(first, 4))
    assert {
        "game",
        "players",
        "phase",
        "viewer",
        "to_act",
        "legal",
        "hand",
        "hand_counts",
        "trick",
        "last_trick",
        "trump",
        "round",
        "bidder",
        "score",
    } <= set(public)


def test_sh_9_last_trick_and_current_trick_in_views():
    state = start4({1: ["AS"], 2: ["2S"], 3: ["3S"], 4: ["4S"]})
    state, _ = play(SH4, state, "AS", "2S")
    view = SH4.view(state, 4)
    assert view["trick"] == [{"seat": 1, "card": "AS"}, {"seat": 2, "card": "2S"}]
    state, _ = play(SH4, state, "3S", "4S")
    view = SH4.view(state, None)
    assert view["trick"] == [] and view["last_trick"]["winner"] == 1
    assert view["last_trick"]["cards"][3] == {"seat": 4, "card": "4S"}


def test_sh_7_auto_actions_are_legal_and_deterministic():
    for jokers in (False, True):
        state, _ = deal(SH4, any_deck(jokers, shift=5), jokers)
        while SH4.to_act(state) and CHANCE not in SH4.to_act(state):
            seat = state["turn"]
            action = SH4.auto_action(state, seat)
            assert action == SH4.auto_action(state, seat)
            state, _ = SH4.apply(state, seat, action)
    with pytest.raises(IllegalAction):
        SH4.auto_action(state, 1)


def test_sh_7_auto_card_wins_cheaply_and_gives_points_to_the_partner():
    state = start4(
        {1: ["2H"], 2: ["AH"], 3: ["4H", "3H"], 4: ["TH", "6H", "5H"]}, voids={1: "H", 3: "H", 4: "H"}
    )
    state, _ = play(SH4, state, "2H")  # trump hearts
    hearts = [c for c in state["hands"][1] if c[1] == "H"]
    assert SH4.auto_action(state, 2)["card"] == min(hearts, key=POWER.get)  # the cheapest winner
    state, _ = play(SH4, state, "AH")
    assert SH4.auto_action(state, 3)["card"] == "3H"  # cannot win: the cheapest card
    state, _ = play(SH4, state, "3H")
    assert SH4.auto_action(state, 4)["card"] == "TH"  # the partner's trick for sure: add points


def test_sh_2_round_over_between_the_last_card_and_the_next_deal():
    state, _ = deal(SH4, any_deck())
    assert not SH4.round_over(state)
    state, events = auto_round(SH4, state)
    assert SH4.round_over(state) and SH4.pending_chance(state)[0] == "deal"
    assert SH4.view(state, None)["score"]["last_result"]["round"] == 1
