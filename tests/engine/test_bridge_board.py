"""Bridge board mode (issue 37, E-1): one duplicate board with its dealer and
vulnerability by board number, scored alone (B-5..B-7, B-9 plus the
duplicate bonuses; no honours B-8, no rubber B-10). Rubber mode is unchanged
(tests/engine/test_bridge*.py)."""

import pytest

from games import engine
from games.engine import CHANCE
from games.engine.bridge import BRIDGE, board_of, duplicate_entries, duplicate_score
from games.engine.errors import IllegalAction
from tests.engine.test_bridge import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    E,
    N,
    S,
    W,
    calls,
    deck_for,
    only_seat,
)

# ---------------------------------------------------------------------------
# dealer and vulnerability by board number (as in duplicate)

BOARDS = {
    1: (N, "none"),
    2: (E, "ns"),
    3: (S, "ew"),
    4: (W, "both"),
    5: (N, "ns"),
    6: (E, "ew"),
    7: (S, "both"),
    8: (W, "none"),
    9: (N, "ew"),
    10: (E, "both"),
    11: (S, "none"),
    12: (W, "ns"),
    13: (N, "both"),
    14: (E, "none"),
    15: (S, "ns"),
    16: (W, "ew"),
    17: (N, "none"),  # the cycle starts again
}


@pytest.mark.parametrize("number, expected", sorted(BOARDS.items()))
def test_e_1_b_1_board_dealer_and_vulnerability_by_number(number, expected):
    dealer, vul = expected
    board = board_of(number)
    assert board["dealer"] == dealer
    assert board["vulnerable"] == [vul in ("ns", "both"), vul in ("ew", "both")]


@pytest.mark.parametrize("bad", [0, -1, "1", True, None, 1.0])
def test_a_bad_board_number_is_refused(bad):
    with pytest.raises(IllegalAction):
        board_of(bad)


# ---------------------------------------------------------------------------
# the duplicate score table: known contract results -> known scores


@pytest.mark.parametrize(
    "contract, vulnerable, tricks, expected",
    [
        ("4S", False, 10, 420),  # B-5 120 + game 300
        ("4S", True, 10, 620),  # game 500 vulnerable
        ("3NT", False, 10, 430),  # B-5 NT 40+30+30, overtrick 30, game 300
        ("3NT", True, 9, 600),
        ("1NTX", True, 5, -500),  # B-7 vulnerable doubled 200 + 300, to the defenders
        ("6H", True, 12, 1430),  # B-9 small slam 750 + game 500
        ("6H", False, 12, 980),
        ("7NT", True, 13, 2220),  # B-9 grand slam 1500 + game 500
        ("7NT", False, 13, 1520),
        ("2SX", False, 8, 470),  # doubled 120 is a game: + insult 50 (B-6) + game 300
        ("2S", False, 9, 140),  # part score 60 + overtrick 30 + 50
        ("1C", False, 7, 70),  # part score 20 + 50
        ("5D", False, 11, 400),
        ("4H", False, 9, -50),  # B-7 not vulnerable, undoubled
        ("4H", True, 7, -300),
        ("3NTX", False, 6, -500),  # B-7 doubled not vulnerable 100 + 200 + 200
        ("4SX", False, 6, -800),  # 100 + 200 + 200 + 300
        ("1NTXX", False, 8, 760),  # redoubled 160 + overtrick 200 (B-6) + insult 100 + game 300
        ("3HX", True, 10, 930),  # 180 + overtrick 200 + 50 + 500
    ],
)
def test_b_5_b_6_b_7_b_9_duplicate_score_table(contract, vulnerable, tricks, expected):
    doubled = contract.count("X")
    bid = contract.rstrip("X")
    assert duplicate_score(int(bid[0]), bid[1:], doubled, vulnerable, tricks) == expected


def test_duplicate_entries_name_the_bonus_a_made_part_score_or_game_earns():
    kinds = {e["kind"]: e["points"] for e in duplicate_entries(2, "S", 0, False, 8)}
    assert kinds == {"contract": 60, "partscore": 50}
    kinds = {e["kind"]: e["points"] for e in duplicate_entries(4, "S", 0, True, 11)}
    assert kinds == {"contract": 120, "overtricks": 30, "game": 500}
    (down,) = duplicate_entries(4, "S", 0, True, 8)
    assert down == {"kind": "undertricks", "points": 200, "line": "above", "declarer": False}


# ---------------------------------------------------------------------------
# the game object in board mode


def board_match(number, hands=None):
    state = BRIDGE.new_match({"board": number})
    dealer = board_of(number)["dealer"]
    state, events = BRIDGE.apply(state, CHANCE, {"type": "deal", "deck": deck_for(hands or {}, dealer)})
    return state, events


def test_board_is_a_hidden_rule_not_a_room_option():
    assert "board" not in BRIDGE.RULE_OPTIONS
    assert "board" not in BRIDGE.default_rules()
    assert BRIDGE.validate_rules({"board": 3})["board"] == 3
    for bad in (0, 17, "3", True, None):
        with pytest.raises(IllegalAction) as err:
            BRIDGE.validate_rules({"board": bad})
        assert err.value.code == "bad_rules"


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5, 6, 7, 8])
def test_e_1_b_1_the_board_dealer_deals_and_calls_first(number):
    state, events = board_match(number)
    dealer = board_of(number)["dealer"]
    assert state["dealer"] == dealer
    assert events[0]["dealer"] == dealer
    assert BRIDGE.to_act(state) == {dealer}
    view = BRIDGE.view(state, 1)
    assert view["board"]["number"] == number
    assert view["score"]["vulnerable"] == board_of(number)["vulnerable"]


def test_b_2_a_passed_out_board_scores_0_and_ends_the_match():
    state, _ = board_match(5)
    state, events = calls(state, "P", "P", "P", "P")
    assert state["phase"] == "match_over"
    assert BRIDGE.to_act(state) == set()
    assert BRIDGE.result(state) == {"winner": None, "score": [0, 0], "board": 5}
    assert [e for e in events if e["type"] == "match_won"]
    assert engine.get("bridge").view(state, None)["score"]["totals"] == [0, 0]


def play_out(state):
    while BRIDGE.to_act(state):
        seat = only_seat(state)
        state, _ = BRIDGE.apply(state, seat, BRIDGE.auto_action(state, seat))
    return state


def test_b_5_b_9_a_vulnerable_grand_slam_board_scores_2220_and_no_rubber():
    # board 7: South deals, both vulnerable; North holds every spade and the red aces
    hands = {N: SPADES[:13], E: HEARTS[:13], S: DIAMONDS[:13], W: CLUBS[:13]}
    state, _ = board_match(7, hands)
    state, _ = calls(state, "P", "P", "7NT", "P", "P", "P")  # S, W, N bids, E S W pass
    assert state["contract"]["declarer"] == N
    state = play_out(state)
    assert state["phase"] == "match_over"
    taken = state["tricks_won"][0]
    expected = duplicate_score(7, "NT", 0, True, taken)
    result = BRIDGE.result(state)
    assert result["score"] == ([expected, 0] if expected > 0 else [0, -expected])
    assert state["last_result"]["honours"] == [0, 0]  # no honours in duplicate (B-8 is rubber's)
    assert not [e for e in state["last_result"]["entries"] if e["kind"] in ("honours", "rubber")]


def test_b_5_a_made_game_board_scores_its_game_bonus_by_the_boards_vulnerability():
    # board 2: East deals, N-S vulnerable. N-S hold all the spades: 4S by North makes at least 10
    hands = {N: SPADES[:7] + HEARTS[:6], S: SPADES[7:] + DIAMONDS[:7]}
    state, _ = board_match(2, hands)
    state, _ = calls(state, "P", "4S", "P", "P", "P")
    state = play_out(state)
    taken = state["tricks_won"][0]
    assert taken >= 10
    assert state["score"] == [duplicate_score(4, "S", 0, True, taken), 0]
    assert state["score"][0] >= 620
    view = BRIDGE.view(state, 3)
    kinds = {e["kind"] for e in view["score"]["above"][0]}
    assert "game" in kinds
    assert view["score"]["totals"] == state["score"]


def test_b_7_undertricks_go_to_the_defenders_in_board_mode():
    # board 1: North deals, nobody vulnerable; E-W hold every spade: 7S by North goes down
    hands = {E: SPADES[:7] + HEARTS[:6], W: SPADES[7:] + HEARTS[6:]}
    state, _ = board_match(1, hands)
    state, _ = calls(state, "7S", "X", "P", "P", "P")
    state = play_out(state)
    down = 13 - state["tricks_won"][0]
    assert state["score"][0] == 0
    assert state["score"][1] == -duplicate_score(7, "S", 1, False, 13 - down)
    assert BRIDGE.result(state)["winner"] == 1


def test_rubber_mode_is_untouched_by_board_mode():
    state = BRIDGE.new_match({})
    assert "board" not in state and "score" not in state
    assert state["dealer"] == N
    state, _ = BRIDGE.apply(state, CHANCE, {"type": "deal", "deck": deck_for({}, N)})
    state, _ = calls(state, "P", "P", "P", "P")
    assert state["phase"] == "round_over"  # B-2: a redeal, the match goes on
    assert "board" not in BRIDGE.view(state, 1)
