"""Rubber bridge through the game object and the auction (RULES.md B-1..B-10, D-6)."""

import copy
import json

import pytest

from games import engine
from games.engine import CHANCE
from games.engine.bridge import BIDS, BRIDGE, Auction, opening_call
from games.engine.cards import DECK52
from games.engine.errors import IllegalAction
from games.engine.seats import next_seat

N, E, S, W = 1, 2, 3, 4
# D-6 written out: the seats that get d[0], d[1], d[2], d[3] (then again) for each dealer
FROM_LEFT = {N: [E, S, W, N], E: [S, W, N, E], S: [W, N, E, S], W: [N, E, S, W]}

SPADES = [r + "S" for r in "AKQJT98765432"]
HEARTS = [r + "H" for r in "AKQJT98765432"]
DIAMONDS = [r + "D" for r in "AKQJT98765432"]
CLUBS = [r + "C" for r in "AKQJT98765432"]


def deck_for(hands, dealer=N):
    """A deck that D-6 deals as ``hands`` ({seat: cards}); missing cards fill up in deck order."""
    given = {c for h in hands.values() for c in h}
    rest = [c for c in DECK52 if c not in given]
    full = {}
    for seat in (N, E, S, W):
        h = list(hands.get(seat, []))
        while len(h) < 13:
            h.append(rest.pop(0))
        full[seat] = h
    deck = [None] * 52
    for k, seat in enumerate(FROM_LEFT[dealer]):
        deck[k::4] = full[seat]
    return deck


def deal(state, hands=None, dealer=None):
    dealer = dealer or (N if state["phase"] == "deal" else next_seat(state["dealer"], 4))
    state, events = BRIDGE.apply(state, CHANCE, {"type": "deal", "deck": deck_for(hands or {}, dealer)})
    assert state["dealer"] == dealer
    return state, events


def only_seat(state):
    (seat,) = BRIDGE.to_act(state)
    return seat


def calls(state, *texts):
    events = []
    for text in texts:
        state, ev = BRIDGE.apply(state, only_seat(state), {"type": "call", "call": text})
        events += ev
    return state, events


def play(state, *cards):
    events = []
    for card in cards:
        state, ev = BRIDGE.apply(state, only_seat(state), {"type": "play", "card": card})
        events += ev
    return state, events


def auto_to_round_end(state):
    events = []
    while BRIDGE.to_act(state) and CHANCE not in BRIDGE.to_act(state):
        seat = only_seat(state)
        state, ev = BRIDGE.apply(state, seat, BRIDGE.auto_action(state, seat))
        events += ev
    return state, events


def of_type(events, kind):
    return [e for e in events if e["type"] == kind]


def strings(data):
    """Every string in a JSON-like value (keys included)."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for k, v in data.items():
            yield k
            yield from strings(v)
    elif isinstance(data, (list, tuple)):
        for v in data:
            yield from strings(v)


def fresh(hands=None):
    return deal(BRIDGE.new_match({}), hands)[0]


# ---------------------------------------------------------------------------
# the game object's metadata


def test_bridge_is_registered_with_four_seats_and_its_table_rules():
    game = engine.get("bridge")
    assert game is BRIDGE and game.name == "bridge" and game.players == 4
    assert game.validate_rules(None) == {"turn_seconds": 30, "rubbers": 1}
    assert game.validate_rules({"turn_seconds": 10}) == {"turn_seconds": 10, "rubbers": 1}
    for bad in ({"turn_seconds": 15}, {"rubbers": 2}, {"kot": True}, {"turn_seconds": True}):
        with pytest.raises(IllegalAction) as err:
            game.validate_rules(bad)
        assert err.value.code == "bad_rules"


def test_a_match_starts_with_a_deal_by_chance():
    state = BRIDGE.new_match({})
    assert json.loads(json.dumps(state)) == state
    assert BRIDGE.to_act(state) == {CHANCE}
    assert BRIDGE.pending_chance(state) == ("deal", DECK52)
    assert BRIDGE.legal_actions(state, CHANCE) == [{"type": "deal"}]
    assert BRIDGE.result(state) is None and not BRIDGE.round_over(state)
    with pytest.raises(IllegalAction) as err:
        BRIDGE.apply(state, CHANCE, {"type": "deal", "deck": DECK52[:51]})
    assert err.value.code == "bad_deck"
    with pytest.raises(IllegalAction) as err:
        BRIDGE.apply(state, N, {"type": "call", "call": "P"})
    assert err.value.code == "not_your_turn"


# ---------------------------------------------------------------------------
# B-1 seats, partners, clockwise turns, rotating dealer


def test_b_1_partnerships_north_south_and_east_west():
    assert [BRIDGE.team_of(s) for s in (N, E, S, W)] == [0, 1, 0, 1]


def test_b_1_dealer_calls_first_and_the_turn_goes_clockwise():
    state = fresh()
    assert state["dealer"] == N
    order = []
    for _ in range(3):
        order.append(only_seat(state))
        state, _ = calls(state, "P")
    order.append(only_seat(state))
    assert order == [N, E, S, W]


def test_b_1_the_dealer_rotates_clockwise_each_deal_passed_out_or_played():
    state = BRIDGE.new_match({})
    dealers = []
    for _ in range(5):
        state, events = deal(state)
        dealers.append(of_type(events, "dealt")[0]["dealer"])
        state, _ = calls(state, "P", "P", "P", "P")
    assert dealers == [N, E, S, W, N]
    state, _ = deal(state)
    state, _ = calls(state, "P", "1C", "P", "P", "P")
    state, _ = auto_to_round_end(state)
    state, events = deal(state)
    assert of_type(events, "dealt")[0]["dealer"] == S


# ---------------------------------------------------------------------------
# D-6 the deal


def test_d_6_north_deals_first_one_card_at_a_time_from_the_dealers_left():
    state = BRIDGE.new_match({})
    deck = list(DECK52)
    state, events = BRIDGE.apply(state, CHANCE, {"type": "deal", "deck": deck})
    assert events == [{"type": "dealt", "dealer": N, "round": 1}]
    assert sorted(state["hands"][E - 1]) == sorted(deck[0::4])  # d[0] to East, North's left
    assert sorted(state["hands"][S - 1]) == sorted(deck[1::4])
    assert sorted(state["hands"][W - 1]) == sorted(deck[2::4])
    assert sorted(state["hands"][N - 1]) == sorted(deck[3::4])  # the dealer gets the last card


def test_d_6_the_next_dealer_deals_from_his_own_left():
    state = fresh()
    state, _ = calls(state, "P", "P", "P", "P")
    deck = list(reversed(DECK52))
    state, _ = BRIDGE.apply(state, CHANCE, {"type": "deal", "deck": deck})
    assert state["dealer"] == E
    assert sorted(state["hands"][S - 1]) == sorted(deck[0::4])
    assert sorted(state["hands"][E - 1]) == sorted(deck[3::4])


# ---------------------------------------------------------------------------
# B-2 calls


def test_b_2_each_bid_must_outrank_the_last():
    a = Auction("N")
    a.call("1S")
    for low in ("1S", "1H", "1C"):
        with pytest.raises(IllegalAction) as err:
            a.call(low)
        assert err.value.code == "insufficient_bid"
    a.call("1NT")
    a.call("2C")
    assert a.calls == ["1S", "1NT", "2C"]
    assert a.legal_calls() == ["P", "X"] + list(BIDS[BIDS.index("2C") + 1 :])


def test_b_2_strains_rank_clubs_diamonds_hearts_spades_notrump():
    assert BIDS[:5] == ("1C", "1D", "1H", "1S", "1NT")
    a = Auction("N")
    for bid in ("1C", "1D", "1H", "1S", "1NT", "2C", "7NT"):
        a.call(bid)
    assert a.legal_calls() == ["P", "X"]


@pytest.mark.parametrize(
    "before, call, code",
    [
        ([], "X", "nothing_to_double"),
        (["1C", "P"], "X", "double_own_side"),  # South doubles partner's bid
        (["1C"], "XX", "redouble_undoubled"),
        ([], "XX", "redouble_undoubled"),
        (["1C", "X", "P"], "X", "double_already_doubled"),
        (["1C", "X", "XX"], "X", "double_already_doubled"),  # West doubles a redoubled bid
        (["1C", "X", "XX", "P"], "XX", "redouble_already_redoubled"),
        (["1C", "X", "P"], "XX", "redouble_opponents"),  # West redoubles his own side's double
        (["1C", "P", "P", "P"], "1D", "auction_over"),
        (["P", "P", "P", "P"], "P", "auction_over"),
        ([], "8C", "bad_call"),
        ([], "1N", "bad_call"),
        ([], "pass", "bad_call"),
        ([], "", "bad_call"),
        ([], None, "bad_call"),
        ([], 1, "bad_call"),
    ],
)
def test_b_2_illegal_calls_are_refused_with_their_own_code(before, call, code):
    a = Auction("N")
    for c in before:
        a.call(c)
    calls_before = list(a.calls)
    with pytest.raises(IllegalAction) as err:
        a.call(call)
    assert err.value.code == code
    assert a.calls == calls_before


def test_b_2_the_game_refuses_an_illegal_call_and_changes_nothing():
    state, _ = calls(fresh(), "1H")
    frozen = copy.deepcopy(state)
    for action, code in [
        ({"type": "call", "call": "1D"}, "insufficient_bid"),
        ({"type": "call", "call": "XX"}, "redouble_undoubled"),
        ({"type": "call"}, "bad_action"),
        ({"type": "play", "card": "AS"}, "bad_action"),
        ("P", "bad_action"),
    ]:
        with pytest.raises(IllegalAction) as err:
            BRIDGE.apply(state, E, action)
        assert err.value.code == code
    with pytest.raises(IllegalAction) as err:
        BRIDGE.apply(state, S, {"type": "call", "call": "P"})
    assert err.value.code == "not_your_turn"
    assert state == frozen


def test_b_2_double_and_redouble_are_legal_only_when_b_2_allows():
    a = Auction("N")
    a.call("1C")  # N
    assert a.legal_calls()[:2] == ["P", "X"]  # E may double
    a.call("X")
    assert a.legal_calls()[:2] == ["P", "XX"]  # S may redouble his side's doubled bid
    a.call("P")
    assert a.legal_calls()[:2] == ["P", "1D"]  # W: no double (own side's), no redouble
    a.call("P")
    assert "XX" in a.legal_calls()  # N may still redouble
    a.call("XX")
    assert "X" not in a.legal_calls() and "XX" not in a.legal_calls()


def test_b_2_four_passes_at_the_start_pass_the_deal_out_with_no_score():
    state = fresh()
    sheet = copy.deepcopy(state["sheet"])
    state, events = calls(state, "P", "P", "P", "P")
    assert of_type(events, "passed_out") == [{"type": "passed_out", "dealer": N}]
    assert state["phase"] == "round_over" and BRIDGE.round_over(state)
    assert state["sheet"] == sheet
    assert BRIDGE.to_act(state) == {CHANCE}  # redeal
    assert state["last_result"] == {"round": 1, "passed_out": True}
    a = Auction("W")
    for _ in range(4):
        a.call("P")
    assert a.is_over and a.passed_out and a.contract is None


def test_b_2_three_passes_in_a_row_after_a_bid_end_the_auction():
    a = Auction("N")
    for c in ("P", "P", "P", "1C", "P", "P"):
        a.call(c)
        assert not a.is_over  # three opening passes do not end it: a fourth would
    a.call("P")
    assert a.is_over and not a.passed_out
    assert a.contract.level == 1 and a.contract.strain == "C" and a.contract.declarer == "W"


def test_b_2_a_double_or_redouble_restarts_the_three_passes():
    a = Auction("N")
    for c in ("1C", "P", "P", "X", "P", "P", "XX", "P", "P"):
        a.call(c)
        assert not a.is_over
    a.call("P")
    assert a.is_over and a.contract.doubled == 2


# ---------------------------------------------------------------------------
# B-3 declarer


def test_b_3_declarer_is_the_first_of_the_contracting_side_to_name_the_strain():
    a = Auction("N")
    for c in ("1C", "1H", "2H", "P", "4H", "P", "P", "P"):  # E named hearts first, but for EW
        a.call(c)
    contract = a.contract
    assert (contract.level, contract.strain, contract.doubled, contract.declarer) == (4, "H", 0, "S")
    assert contract.side == "NS" and contract.text == "4H"


def test_b_3_the_opener_declares_when_partner_raises():
    a = Auction("E")
    for c in ("1S", "X", "4S", "X", "P", "P", "P"):
        a.call(c)
    assert a.contract.declarer == "E" and a.contract.doubled == 1 and a.contract.text == "4SX"


def test_b_3_declarer_and_dummy_in_the_game():
    state, events = calls(fresh(), "1NT", "P", "3NT", "P", "P", "P")
    assert of_type(events, "auction_over")[0]["contract"] == {
        "level": 3,
        "strain": "NT",
        "doubled": 0,
        "declarer": N,
        "text": "3NT",
    }
    view = BRIDGE.view(state, None)
    assert view["declarer"] == N and view["dummy"] == S and view["trump"] is None
    assert view["phase"] == "play"


# ---------------------------------------------------------------------------
# B-4 the play

# N holds every spade, so a 1NT or spade contract by North is easy to follow.
DEAL_A = {
    N: SPADES,
    E: ["JH", "TH"] + DIAMONDS[:11],
    S: HEARTS[5:12] + ["3D", "2D", "AC", "KC", "QC", "JC"],
    W: ["AH", "KH", "QH", "2H"] + CLUBS[4:],
}


def test_b_4_opening_lead_from_declarers_left_dummy_hidden_until_then():
    state, _ = calls(fresh(DEAL_A), "1NT", "P", "P", "P")
    assert BRIDGE.to_act(state) == {E}  # declarer N: East leads
    dummy_cards = set(DEAL_A[S])
    for viewer in (N, E, W, None):
        view = BRIDGE.view(state, viewer)
        assert view["dummy_hand"] is None
        assert not dummy_cards & set(strings(view))
    state, events = play(state, "JH")
    assert of_type(events, "dummy_shown") == [{"type": "dummy_shown", "seat": S, "cards": DEAL_A[S]}]
    for viewer in (N, E, S, W, None):
        assert BRIDGE.view(state, viewer)["dummy_hand"] == DEAL_A[S]


def test_b_4_declarer_plays_dummys_cards_on_dummys_turn():
    state, _ = calls(fresh(DEAL_A), "1NT", "P", "P", "P")
    state, _ = play(state, "JH")
    assert BRIDGE.to_act(state) == {N}  # dummy (S) is next: declarer acts
    legal = BRIDGE.legal_actions(state, N)
    assert legal == [{"type": "play", "card": c} for c in HEARTS[5:12]]  # dummy's hearts
    assert BRIDGE.legal_actions(state, S) == []
    assert BRIDGE.view(state, N)["legal"] == legal and BRIDGE.view(state, N)["next_hand"] == S
    assert BRIDGE.view(state, S)["legal"] == []
    with pytest.raises(IllegalAction) as err:
        BRIDGE.apply(state, S, {"type": "play", "card": "3H"})
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as err:
        BRIDGE.apply(state, N, {"type": "play", "card": "AS"})  # his own card, not dummy's
    assert err.value.code == "not_in_hand"
    state, events = play(state, "3H")
    assert of_type(events, "card_played") == [{"type": "card_played", "seat": S, "card": "3H", "cut": False}]
    assert "3H" not in state["hands"][S - 1]
    assert BRIDGE.to_act(state) == {W}


def test_b_4_follow_suit():
    state, _ = calls(fresh(DEAL_A), "1NT", "P", "P", "P")
    state, _ = play(state, "JH", "3H")
    with pytest.raises(IllegalAction) as err:
        BRIDGE.apply(state, W, {"type": "play", "card": "2C"})
    assert err.value.code == "must_follow_suit"
    assert {a["card"] for a in BRIDGE.legal_actions(state, W)} == {"AH", "KH", "QH", "2H"}


def test_b_4_highest_card_of_the_suit_led_wins_in_notrump_and_the_winner_leads():
    state, _ = calls(fresh(DEAL_A), "1NT", "P", "P", "P")
    state, events = play(state, "JH", "3H", "2H", "AS")  # N discards the ace of spades: no trump
    assert of_type(events, "trick_won") == [
        {"type": "trick_won", "seat": E, "cards": ["JH", "3H", "2H", "AS"], "leader": E}
    ]
    assert state["tricks_won"] == [0, 1]
    assert BRIDGE.to_act(state) == {E}
    assert BRIDGE.view(state, None)["last_trick"] == {
        "cards": [
            {"seat": E, "card": "JH"},
            {"seat": S, "card": "3H"},
            {"seat": W, "card": "2H"},
            {"seat": N, "card": "AS"},
        ],
        "winner": E,
    }


def test_b_4_the_highest_trump_wins_and_a_cut_is_announced():
    state, _ = calls(fresh(DEAL_A), "1S", "P", "P", "P")
    state, events = play(state, "JH", "3H", "QH", "2S")
    assert [e["cut"] for e in of_type(events, "card_played")] == [False, False, False, True]
    assert of_type(events, "trick_won")[0]["seat"] == N
    assert BRIDGE.to_act(state) == {N}  # the winner leads
    assert BRIDGE.view(state, None)["trump"] == "S"


# ---------------------------------------------------------------------------
# B-5..B-9 through whole deals


def test_b_9_grand_slam_with_honours_goes_on_the_sheet():
    hands = {N: SPADES, E: HEARTS, S: DIAMONDS, W: CLUBS}
    state, _ = calls(fresh(hands), "7S", "P", "P", "P")
    state, events = auto_to_round_end(state)
    assert state["tricks_won"] == [13, 0]
    (scored,) = of_type(events, "deal_scored")
    assert scored["tricks"] == 13 and scored["honours"] == [150, 0]
    assert {(e["side"], e["line"], e["kind"], e["points"]) for e in scored["entries"]} == {
        ("NS", "below", "contract", 210),
        ("NS", "above", "slam", 1000),
        ("NS", "above", "honours", 150),
    }
    assert state["phase"] == "round_over" and BRIDGE.to_act(state) == {CHANCE}
    score = BRIDGE.view(state, None)["score"]
    assert score["games"] == [1, 0] and score["vulnerable"] == [True, False]
    assert score["totals"] == [1360, 0]
    assert [[e["points"] for e in side] for side in score["games_below"][0]] == [[210], []]


def test_b_8_honours_count_in_the_trump_suit_only():
    hands = {N: HEARTS, E: SPADES, S: DIAMONDS, W: CLUBS}
    state, _ = calls(fresh(hands), "1H", "P", "P", "P")
    state, events = auto_to_round_end(state)
    (scored,) = of_type(events, "deal_scored")
    assert scored["honours"] == [150, 0]  # hearts are trumps: East's five top spades are no honours
    assert state["tricks_won"] == [13, 0]
    assert ("NS", "above", "honours", 150) in {
        (e["side"], e["line"], e["kind"], e["points"]) for e in scored["entries"]
    }
    state, _ = calls(fresh(hands), "1NT", "P", "P", "P")  # no hand holds four aces
    state, _ = auto_to_round_end(state)
    assert state["last_result"]["honours"] == [0, 0]


def test_b_8_defenders_holding_the_honours_score_them():
    hands = {E: ["AS", "KS", "QS", "JS"], N: ["TS", "9S", "8S", "7S", "6S"]}
    state, _ = calls(fresh(hands), "2S", "P", "P", "P")
    state, events = auto_to_round_end(state)
    (scored,) = of_type(events, "deal_scored")
    assert scored["honours"] == [0, 100]
    assert ("EW", "above", "honours", 100) in {
        (e["side"], e["line"], e["kind"], e["points"]) for e in scored["entries"]
    }


def test_b_8_four_aces_in_notrump_held_by_a_defender():
    hands = {W: ["AS", "AH", "AD", "AC"]}
    state, _ = calls(fresh(hands), "1NT", "P", "P", "P")
    state, _ = auto_to_round_end(state)
    assert state["last_result"]["honours"] == [0, 150]
    assert BRIDGE.view(state, None)["score"]["above"][1][-1]["kind"] == "honours"


def test_honours_stay_hidden_until_the_deal_is_scored():
    hands = {E: ["AS", "KS", "QS", "JS", "TS"]}
    state, _ = calls(fresh(hands), "2S", "P", "P", "P")
    for viewer in (N, E, S, W, None):
        view = BRIDGE.view(state, viewer)
        assert "honours" not in json.dumps(view)


# ---------------------------------------------------------------------------
# B-10 a whole rubber through the game

GRAND_NS = {N: SPADES, E: HEARTS, S: DIAMONDS, W: CLUBS}
GRAND_EW = {E: SPADES, S: HEARTS, W: DIAMONDS, N: CLUBS}


def bid_grand(state, declarer):
    """Everyone passes until ``declarer`` bids 7S, then three passes."""
    texts = []
    seat = state["dealer"]
    while seat != declarer:
        texts.append("P")
        seat = next_seat(seat, 4)
    return calls(state, *texts, "7S", "P", "P", "P")


def test_b_10_rubber_won_two_games_to_none_through_the_game():
    state = BRIDGE.new_match({})
    state, _ = deal(state, GRAND_NS)
    state, _ = bid_grand(state, N)
    state, _ = auto_to_round_end(state)
    assert BRIDGE.result(state) is None
    state, _ = deal(state, GRAND_NS)
    state, _ = bid_grand(state, N)
    state, events = auto_to_round_end(state)
    assert state["phase"] == "match_over" and BRIDGE.to_act(state) == set()
    ns = 210 + 1000 + 150 + 210 + 1500 + 150 + 700
    assert of_type(events, "rubber_won") == [
        {"type": "rubber_won", "team": 0, "side": "NS", "score": [ns, 0]}
    ]
    assert of_type(events, "match_won") == [{"type": "match_won", "winner": 0, "score": [ns, 0]}]
    assert BRIDGE.result(state) == {"winner": 0, "score": [ns, 0]}
    assert BRIDGE.legal_actions(state, N) == []
    with pytest.raises(IllegalAction) as err:
        BRIDGE.apply(state, CHANCE, {"type": "deal", "deck": list(DECK52)})
    assert err.value.code == "match_over"


def test_b_10_rubber_won_two_games_to_one_through_the_game():
    state = BRIDGE.new_match({})
    for hands, declarer in ((GRAND_NS, N), (GRAND_EW, E), (GRAND_EW, E)):
        state, _ = deal(state, hands)
        state, _ = bid_grand(state, declarer)
        state, events = auto_to_round_end(state)
    ew = 210 + 1000 + 150 + 210 + 1500 + 150 + 500
    ns = 210 + 1000 + 150
    assert BRIDGE.result(state) == {"winner": 1, "score": [ns, ew]}
    assert of_type(events, "rubber_won")[0]["team"] == 1


def test_result_winner_is_the_higher_total_even_against_the_rubber_winner():
    state = BRIDGE.new_match({})
    state, _ = deal(state, GRAND_EW)  # East runs thirteen spades against 7NT redoubled
    state, _ = calls(state, "7NT", "X", "XX", "P", "P", "P")
    state, _ = auto_to_round_end(state)
    assert state["tricks_won"] == [0, 13]
    assert state["last_result"]["entries"][0]["points"] == 2 * (100 + 200 + 200 + 300 * 10)  # B-7
    for _ in range(2):
        state, _ = deal(state, GRAND_NS)
        state, _ = bid_grand(state, N)
        state, _ = auto_to_round_end(state)
    sheet = BRIDGE.view(state, None)["score"]
    assert sheet["winner"] == 0  # NS won the rubber...
    assert BRIDGE.result(state)["winner"] == 1  # ...but EW scored more
    assert BRIDGE.result(state)["score"] == sheet["totals"]


# ---------------------------------------------------------------------------
# views and events


def test_views_show_own_hand_calls_counts_and_the_public_sheet():
    state, _ = calls(fresh(DEAL_A), "1NT", "P")
    view = BRIDGE.view(state, E)
    assert view["hand"] == DEAL_A[E]
    assert view["calls"] == [{"seat": N, "call": "1NT"}, {"seat": E, "call": "P"}]
    assert view["hand_counts"] == [13, 13, 13, 13]
    assert view["to_act"] == [S] and view["legal"] == [] and view["dealer"] == N
    assert BRIDGE.view(state, S)["legal"][0] == {"type": "call", "call": "P"}
    public = BRIDGE.view(state, None)
    assert public["hand"] is None and public["viewer"] is None and public["legal"] == []
    assert public["score"]["totals"] == [0, 0] and public["contract"] is None
    for key in (
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
        "dealer",
        "score",
    ):
        assert key in public


def test_events_are_public():
    state, _ = BRIDGE.apply(BRIDGE.new_match({}), CHANCE, {"type": "deal", "deck": deck_for(DEAL_A)})
    state, events = calls(state, "1NT", "P", "P", "P")
    state, more = auto_to_round_end(state)
    events += more
    text = json.dumps(events)
    for card in DEAL_A[E]:  # East's cards appear only as they are played
        assert text.count(f'"{card}"') == 2  # card_played and trick_won
    kinds = {e["type"] for e in events}
    assert kinds == {"call", "auction_over", "card_played", "dummy_shown", "trick_won", "deal_scored"}


def test_apply_never_mutates_its_input():
    state = BRIDGE.new_match({})
    for _ in range(60):
        seats = BRIDGE.to_act(state)
        if not seats:
            break
        before = copy.deepcopy(state)
        if CHANCE in seats:
            new, _ = BRIDGE.apply(state, CHANCE, {"type": "deal", "deck": deck_for(DEAL_A)})
        else:
            seat = min(seats)
            new, _ = BRIDGE.apply(state, seat, BRIDGE.auto_action(state, seat))
        assert state == before
        state = new


# ---------------------------------------------------------------------------
# automatic actions (timeouts)


def test_auto_call_opens_a_clear_opening_hand_and_passes_otherwise():
    strong = ["AS", "KS", "QS", "JS", "TS", "AH", "2H", "3D", "4D", "5D", "2C", "3C", "4C"]
    assert opening_call(strong) == "1S"
    balanced = ["AS", "6S", "5S", "4S", "AH", "3H", "2H", "KD", "4D", "3D", "KC", "QC", "2C"]
    assert opening_call(balanced) == "1NT"
    weak = ["AS", "KS", "QS", "JS", "5S", "4H", "2H", "3D", "4D", "5D", "2C", "3C", "4C"]  # 10 points
    assert opening_call(weak) == "P"
    two_suits = ["AH", "KH", "5H", "4H", "3H", "AD", "KD", "5D", "4D", "3D", "2C", "3C", "4C"]
    assert opening_call(two_suits) == "1H"  # the higher of two longest suits

    state = fresh({N: strong})
    assert BRIDGE.auto_action(state, N) == {"type": "call", "call": "1S"}
    state = fresh({E: strong})
    state, _ = calls(state, "1NT")
    assert BRIDGE.auto_action(state, E) == {"type": "call", "call": "P"}  # 1S would be insufficient
    state = fresh({S: strong})
    state, _ = calls(state, "1C", "P")
    assert BRIDGE.auto_action(state, S) == {"type": "call", "call": "P"}  # partner has bid


def test_auto_card_does_not_beat_partners_winning_card():
    state, _ = calls(fresh(DEAL_A), "1NT", "P", "P", "P")
    state, _ = play(state, "JH", "3H")
    assert BRIDGE.auto_action(state, W) == {"type": "play", "card": "2H"}


def test_auto_card_wins_cheaply_and_ruffs_with_the_lowest_trump():
    deal_b = {
        N: SPADES,
        E: ["4H", "3H"] + DIAMONDS[:11],
        S: HEARTS[3:10] + ["3D", "2D", "AC", "KC", "QC", "JC"],
        W: ["AH", "KH", "QH", "2H"] + CLUBS[4:],
    }
    state, _ = calls(fresh(deal_b), "1S", "P", "P", "P")
    state, _ = play(state, "3H", "JH")
    assert BRIDGE.auto_action(state, W) == {"type": "play", "card": "QH"}
    state, _ = play(state, "QH")
    assert BRIDGE.auto_action(state, N) == {"type": "play", "card": "2S"}


def test_auto_card_leads_from_the_longest_suit():
    state, _ = calls(fresh(DEAL_A), "1NT", "P", "P", "P")
    assert BRIDGE.auto_action(state, E) == {"type": "play", "card": "AD"}  # a winner on top: lead it
    deal_c = {
        N: SPADES[:12] + ["AD"],
        E: DIAMONDS[1:11] + ["JH", "TH", "2S"],
        S: HEARTS[5:12] + ["3D", "2D", "AC", "KC", "QC", "JC"],
        W: ["AH", "KH", "QH", "2H"] + CLUBS[4:],
    }
    state, _ = calls(fresh(deal_c), "1NT", "P", "P", "P")
    assert BRIDGE.auto_action(state, E) == {"type": "play", "card": "4D"}  # the ace is out: lead low


def test_auto_action_for_dummy_is_asked_of_declarer():
    state, _ = calls(fresh(DEAL_A), "1NT", "P", "P", "P")
    state, _ = play(state, "JH")
    action = BRIDGE.auto_action(state, N)
    assert action["card"] in DEAL_A[S]
    with pytest.raises(IllegalAction):
        BRIDGE.auto_action(state, S)
