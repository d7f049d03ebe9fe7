"""Shelem's pure scoring functions (SH-9, SH-10, SH-11)."""

import pytest

from games.engine.cards import DECK52, DECK54
from games.engine.shelem import CARD_POINTS, match_winner, round_score, round_total


def test_sh_9_a_round_holds_165_points_200_with_jokers():
    assert round_total(False) == 165 and round_total(True) == 200
    assert sum(CARD_POINTS[c] for c in DECK52) + 12 * 5 + 5 == 165
    assert sum(CARD_POINTS[c] for c in DECK54) + 12 * 5 + 5 == 200
    assert CARD_POINTS["RJ"] == 20 and CARD_POINTS["BJ"] == 15
    assert {c: p for c, p in CARD_POINTS.items() if p} == {
        **{"A" + s: 10 for s in "SHDC"},
        **{"T" + s: 10 for s in "SHDC"},
        **{"5" + s: 5 for s in "SHDC"},
        "RJ": 20,
        "BJ": 15,
    }


@pytest.mark.parametrize(
    "bid, took, jokers, expected",
    [
        (120, 115, False, (-120, 50)),  # the rule book's examples
        (120, 80, False, (-240, 85)),
        (120, 120, False, (120, 45)),  # exactly the bid
        (100, 140, False, (140, 25)),  # more than the bid: the points taken
        (165, 165, False, (330, 0)),  # a full shelem
        (200, 200, True, (400, 0)),
        (100, 165, False, (330, 0)),  # every point, whatever the bid
        (165, 160, False, (-165, 5)),  # everything but one trick: only minus the bid
        (150, 85, False, (-150, 80)),  # failed, but the opponents did not take more
        (150, 80, False, (-300, 85)),  # opponents took more: minus twice
        (140, 100, True, (-140, 100)),  # with jokers: equal points are not "more"
        (140, 95, True, (-280, 105)),
        (180, 185, True, (185, 15)),
    ],
)
def test_sh_10_round_score(bid, took, jokers, expected):
    assert round_score(bid, took, jokers) == expected


def test_sh_10_opponents_score_what_they_took():
    for jokers in (False, True):
        total = round_total(jokers)
        for bid in range(100, total + 1, 5):
            for took in range(5, total + 1, 5):
                mine, theirs = round_score(bid, took, jokers)
                assert theirs == total - took
                if took == total:
                    assert mine == 2 * total
                elif took >= bid:
                    assert mine == took
                else:
                    assert mine == (-2 * bid if total - took > took else -bid)


@pytest.mark.parametrize(
    "totals, cap, lead, winner",
    [
        ((0, 0), 600, None, None),
        ((599, 10), 600, None, None),
        ((600, 10), 600, None, 0),  # the cap reached
        ((10, 650), 600, None, 1),
        ((700, 650), 600, None, 0),  # both past the cap: the side ahead
        ((650, 650), 600, None, None),  # equal totals play on
        ((650, 650), 600, 165, None),
        ((-600, 0), 600, None, 1),  # Decision: at minus the cap a side loses
        ((0, -620), 600, None, 0),
        ((-599, 0), 600, None, None),
        ((-300, -300), 300, None, None),  # equal: play on, even below minus the cap
        ((-310, -300), 300, None, 1),
        ((165, 0), 600, 165, 0),  # the lead reached
        ((0, 164), 600, 165, None),
        ((100, 430), 1200, 330, 1),
        ((100, 429), 1200, 330, None),
        ((100, 429), 1200, 0, None),  # 0: no lead rule
        ((-100, 300), 300, 400, 1),
    ],
)
def test_sh_11_match_winner(totals, cap, lead, winner):
    assert match_winner(totals, cap, lead) == winner
