"""The double-dummy table of a finished bridge deal (R-10 extra), from DDS through endplay."""

from __future__ import annotations

from replays import doubledummy

# endplay is a dependency (pyproject), not an optional extra: no skip when it is missing,
# the table below is None then and these tests fail.

# Each hand holds one suit's top four, the next suit's 10-9-8 and so on: a deal worked out by hand.
NORTH = ["AS", "KS", "QS", "JS", "TH", "9H", "8H", "7D", "6D", "5D", "4C", "3C", "2C"]
EAST = ["TS", "9S", "8S", "7H", "6H", "5H", "4D", "3D", "2D", "AC", "KC", "QC", "JC"]
SOUTH = ["7S", "6S", "5S", "4H", "3H", "2H", "AD", "KD", "QD", "JD", "TC", "9C", "8C"]
WEST = ["4S", "3S", "2S", "AH", "KH", "QH", "JH", "TD", "9D", "8D", "7C", "6C", "5C"]


def test_pbn_lists_the_hands_north_first_by_suit():
    text = doubledummy.pbn([NORTH, EAST, SOUTH, WEST])
    assert text == "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


def test_the_table_gives_tricks_per_strain_for_each_declarer():
    table = doubledummy.table([NORTH, EAST, SOUTH, WEST])
    # North-South hold the top spades and diamonds, East-West the top hearts and clubs
    assert table["S"] == [7, 5, 7, 5]
    assert table["D"] == [7, 5, 7, 5]
    assert table["H"] == [5, 7, 5, 7]
    assert table["C"] == [5, 7, 5, 7]
    assert table["NT"] == [5, 5, 5, 5]


def test_an_unfinished_deal_has_no_table():
    assert doubledummy.table([NORTH[:12], EAST, SOUTH, WEST]) is None
