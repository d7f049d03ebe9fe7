"""Bridge scoring: contract score, honours and the rubber sheet (RULES.md B-5..B-10)."""

import pytest

from games.engine.bridge import Contract, RubberSheet, honours, score_contract
from games.engine.errors import IllegalAction

# ---------------------------------------------------------------------------
# B-5 trick values, below the line


@pytest.mark.parametrize(
    "level, strain, expected",
    [
        (1, "C", 20),
        (2, "C", 40),
        (5, "C", 100),
        (1, "D", 20),
        (3, "D", 60),
        (5, "D", 100),
        (1, "H", 30),
        (2, "H", 60),
        (4, "H", 120),
        (1, "S", 30),
        (3, "S", 90),
        (4, "S", 120),
        (1, "NT", 40),
        (2, "NT", 70),
        (3, "NT", 100),
        (7, "NT", 220),
    ],
)
def test_b_5_odd_tricks_bid_and_made_score_below(level, strain, expected):
    score = score_contract(level, strain, 0, False, 6 + level)
    assert score.declarer_below == expected
    assert score.declarer_above == 0 + (500 if level == 6 else 1000 if level == 7 else 0)
    assert score.defenders_above == 0


def test_b_5_notrump_first_trick_is_40_then_30_and_an_overtrick_is_30():
    score = score_contract(1, "NT", 0, False, 8)
    assert score.declarer_below == 40
    assert score.overtricks == 30
    assert score.declarer_above == 30


@pytest.mark.parametrize(
    "level, strain, doubled, below",
    [
        (1, "NT", 1, 80),
        (1, "NT", 2, 160),
        (2, "C", 1, 80),
        (2, "C", 2, 160),
        (3, "H", 1, 180),
        (1, "S", 2, 120),
        (2, "NT", 1, 140),
        (4, "S", 2, 480),
    ],
)
def test_b_5_doubled_tricks_count_twice_redoubled_four_times(level, strain, doubled, below):
    assert score_contract(level, strain, doubled, False, 6 + level).declarer_below == below


def test_b_5_only_tricks_bid_count_below_the_line():
    score = score_contract(2, "H", 0, False, 11)  # 2H making 5
    assert score.declarer_below == 60
    assert score.declarer_above == 90


# ---------------------------------------------------------------------------
# B-6 insult and overtricks


@pytest.mark.parametrize("doubled, insult", [(0, 0), (1, 50), (2, 100)])
@pytest.mark.parametrize("vulnerable", [False, True])
def test_b_6_made_doubled_contract_scores_50_redoubled_100_above(doubled, insult, vulnerable):
    score = score_contract(2, "D", doubled, vulnerable, 8)
    assert score.insult == insult
    assert score.declarer_above == insult


@pytest.mark.parametrize("strain, per_trick", [("C", 20), ("D", 20), ("H", 30), ("S", 30), ("NT", 30)])
@pytest.mark.parametrize("vulnerable", [False, True])
def test_b_6_undoubled_overtricks_score_at_trick_value(strain, per_trick, vulnerable):
    score = score_contract(1, strain, 0, vulnerable, 10)  # three overtricks
    assert score.overtricks == 3 * per_trick
    assert score.declarer_above == 3 * per_trick


@pytest.mark.parametrize(
    "doubled, vulnerable, each",
    [
        (1, False, 100),
        (1, True, 200),
        (2, False, 200),
        (2, True, 400),
    ],
)
@pytest.mark.parametrize("over", [1, 2, 3])
def test_b_6_doubled_and_redoubled_overtricks(doubled, vulnerable, each, over):
    score = score_contract(3, "C", doubled, vulnerable, 9 + over)
    assert score.overtricks == over * each
    assert score.declarer_above == over * each + 50 * doubled
    assert score.declarer_below == 60 * (1, 2, 4)[doubled]


# ---------------------------------------------------------------------------
# B-7 undertricks: every line of the table, 1..13 down

PER_UNDERTRICK = {  # (vulnerable, doubled): the n-th undertrick's value, as B-7 writes it
    (False, 0): [50] * 13,
    (False, 1): [100, 200, 200] + [300] * 10,
    (False, 2): [200, 400, 400] + [600] * 10,
    (True, 0): [100] * 13,
    (True, 1): [200] + [300] * 12,
    (True, 2): [400] + [600] * 12,
}


@pytest.mark.parametrize("vulnerable, doubled", sorted(PER_UNDERTRICK))
@pytest.mark.parametrize("down", range(1, 14))
def test_b_7_undertrick_table(vulnerable, doubled, down):
    score = score_contract(7, "NT", doubled, vulnerable, 13 - down)
    assert score.defenders_above == sum(PER_UNDERTRICK[(vulnerable, doubled)][:down])
    assert score.declarer_below == score.declarer_above == 0
    assert not score.made


@pytest.mark.parametrize(
    "vulnerable, doubled, down, total",
    [
        (False, 0, 1, 50),
        (False, 1, 1, 100),
        (False, 1, 2, 300),
        (False, 1, 3, 500),
        (False, 1, 4, 800),
        (False, 2, 1, 200),
        (False, 2, 3, 1000),
        (False, 2, 4, 1600),
        (True, 0, 2, 200),
        (True, 1, 1, 200),
        (True, 1, 2, 500),
        (True, 1, 3, 800),
        (True, 2, 1, 400),
        (True, 2, 2, 1000),
        (True, 1, 13, 3800),
        (False, 1, 13, 3500),
    ],
)
def test_b_7_known_totals(vulnerable, doubled, down, total):
    level = max(1, down - 6)
    assert score_contract(level, "S", doubled, vulnerable, 6 + level - down).defenders_above == total


def test_b_7_undertricks_depend_on_the_level_bid():
    assert score_contract(4, "H", 0, False, 9).defenders_above == 50
    assert score_contract(4, "H", 0, False, 8).defenders_above == 100
    assert score_contract(1, "C", 0, True, 0).defenders_above == 700


# ---------------------------------------------------------------------------
# B-9 slams bid and made


@pytest.mark.parametrize(
    "level, vulnerable, bonus", [(6, False, 500), (6, True, 750), (7, False, 1000), (7, True, 1500)]
)
def test_b_9_slam_bid_and_made(level, vulnerable, bonus):
    score = score_contract(level, "H", 0, vulnerable, 6 + level)
    assert score.slam == bonus
    assert score.declarer_above == bonus
    assert score.declarer_below == 30 * level


def test_b_9_small_slam_with_an_overtrick_is_not_a_grand_slam():
    score = score_contract(6, "NT", 0, True, 13)
    assert score.slam == 750
    assert score.overtricks == 30
    assert score.declarer_below == 190


def test_b_9_slam_not_bid_gets_no_bonus_and_slam_failed_gets_none():
    assert score_contract(4, "S", 0, False, 13).slam == 0
    failed = score_contract(6, "S", 0, True, 11)
    assert failed.slam == 0 and failed.defenders_above == 100


def test_b_9_redoubled_grand_slam_vulnerable():
    score = score_contract(7, "NT", 2, True, 13)
    assert score.declarer_below == 880
    assert score.declarer_above == 100 + 1500


def test_score_contract_refuses_impossible_input():
    for args in [
        (0, "S", 0, False, 7),
        (8, "S", 0, False, 7),
        (1, "X", 0, False, 7),
        (1, "S", 3, False, 7),
        (1, "S", 0, False, 14),
        (1, "S", 0, False, -1),
    ]:
        with pytest.raises(IllegalAction):
            score_contract(*args)


# ---------------------------------------------------------------------------
# B-8 honours, one hand at a time


@pytest.mark.parametrize(
    "hand, strain, expected",
    [
        (["AS", "KS", "QS", "JS", "TS", "2H"], "S", 150),
        (["AS", "KS", "QS", "JS", "9S", "2H"], "S", 100),
        (["KS", "QS", "JS", "TS", "2H"], "S", 100),
        (["AS", "KS", "QS", "9S", "2H"], "S", 0),
        (["AH", "KH", "QH", "JH", "TH"], "S", 0),  # honours of a suit that is not trump
        (["AH", "KH", "QH", "JH", "TH"], "H", 150),
        (["AD", "QD", "JD", "TD"], "D", 100),
        (["AC", "KC", "QC", "JC", "TC", "9C", "8C"], "C", 150),
        (["AS", "AH", "AD", "AC", "KS"], "NT", 150),
        (["AS", "AH", "AD", "KC", "QC"], "NT", 0),
        (["AS", "KS", "QS", "JS", "TS"], "NT", 0),  # in notrump only the four aces count
        ([], "NT", 0),
    ],
)
def test_b_8_honours_in_one_hand(hand, strain, expected):
    assert honours(strain, hand) == expected


def test_b_8_four_aces_do_not_count_in_a_suit_contract():
    assert honours("S", ["AS", "AH", "AD", "AC"]) == 0


# ---------------------------------------------------------------------------
# The rubber sheet: B-5 games and vulnerability, B-10 the rubber


def c(text, declarer, doubled=0):
    return Contract(int(text[0]), text[1:], doubled, declarer)


def points(entries):
    return [e["points"] for e in entries]


def test_b_5_entries_land_above_and_below_for_the_right_side():
    sheet = RubberSheet()
    new = sheet.record(c("2H", "N"), 9)
    assert points(sheet.below("NS")) == [60]
    assert points(sheet.above("NS")) == [30]
    assert sheet.below("EW") == sheet.above("EW") == []
    assert {(e["side"], e["line"], e["kind"], e["points"]) for e in new} == {
        ("NS", "below", "contract", 60),
        ("NS", "above", "overtricks", 30),
    }
    sheet.record(c("3NT", "W"), 8)  # one down: to NS above
    assert points(sheet.above("NS")) == [30, 50]
    assert sheet.above("EW") == []
    assert sheet.totals() == {"NS": 140, "EW": 0}


def test_b_5_a_game_made_of_two_part_scores():
    sheet = RubberSheet()
    sheet.record(c("2H", "S"), 8)  # 60
    assert sheet.part_score("NS") == 60 and sheet.games_won("NS") == 0
    sheet.record(c("1C", "E"), 7)  # EW part score 20
    sheet.record(c("2C", "N"), 8)  # 40: 100 in all, a game
    assert sheet.games_won("NS") == 1
    assert sheet.below("NS") == sheet.below("EW") == []  # both start the next game at 0
    assert [points(g) for g in sheet.games_below("NS")] == [[60, 40]]
    assert [points(g) for g in sheet.games_below("EW")] == [[20]]
    assert sheet.vulnerable("NS") and not sheet.vulnerable("EW")
    assert sheet.totals() == {"NS": 100, "EW": 20}


def test_b_5_overtricks_do_not_make_a_game():
    sheet = RubberSheet()
    sheet.record(c("1S", "N"), 13)  # 30 below, 180 above
    assert sheet.games_won("NS") == 0 and sheet.part_score("NS") == 30


def test_b_5_vulnerability_changes_the_score_of_later_deals():
    sheet = RubberSheet()
    sheet.record(c("4S", "N"), 10)
    assert sheet.vulnerable("NS")
    sheet.record(c("2S", "S", doubled=1), 7)  # vulnerable doubled one down: 200
    assert points(sheet.above("EW")) == [200]
    sheet.record(c("2S", "E", doubled=1), 7)  # not vulnerable doubled one down: 100
    assert points(sheet.above("NS"))[-1] == 100


def test_b_8_honours_go_to_the_side_that_holds_them_even_the_defenders():
    sheet = RubberSheet()
    new = sheet.record(c("4S", "N"), 9, honours_ns=0, honours_ew=100)  # one down, EW held 4 honours
    assert {(e["side"], e["kind"], e["points"]) for e in new} == {
        ("EW", "undertricks", 50),
        ("EW", "honours", 100),
    }
    sheet.record(c("3NT", "E"), 9, honours_ns=150)
    assert points(sheet.above("NS")) == [150]


def test_b_9_slam_bonus_is_above_the_line():
    sheet = RubberSheet()
    sheet.record(c("6H", "E"), 12)
    assert points(sheet.above("EW")) == [500]
    assert sheet.games_won("EW") == 1
    sheet.record(c("7NT", "W"), 13)
    assert sheet.is_over
    assert sorted(points(sheet.above("EW"))) == [500, 700, 1500]


def test_b_10_rubber_won_two_games_to_none_scores_700():
    sheet = RubberSheet()
    sheet.record(c("3NT", "N"), 9)
    sheet.record(c("2D", "W"), 8)  # an EW part score: it stays in the game it was made in
    new = sheet.record(c("4H", "S"), 10)
    assert sheet.is_over and sheet.winner == "NS"
    assert ("NS", "above", "rubber", 700) in {(e["side"], e["line"], e["kind"], e["points"]) for e in new}
    assert sheet.totals() == {"NS": 100 + 120 + 700, "EW": 40}
    with pytest.raises(IllegalAction) as err:
        sheet.record(c("1C", "N"), 7)
    assert err.value.code == "rubber_over"


def test_b_10_rubber_won_two_games_to_one_scores_500():
    sheet = RubberSheet()
    sheet.record(c("5C", "E"), 11)  # EW game
    sheet.record(c("4S", "N"), 10)  # NS game
    assert sheet.vulnerable("NS") and sheet.vulnerable("EW")
    sheet.record(c("3NT", "N"), 10)  # NS second game: 100 below, 30 above
    assert sheet.winner == "NS"
    assert points(sheet.above("NS")) == [30, 500]
    assert sheet.totals() == {"NS": 120 + 100 + 30 + 500, "EW": 100}
    assert sheet.games_won("NS") == 2 and sheet.games_won("EW") == 1


def test_b_10_unfinished_rubber_300_for_the_only_game_100_for_the_only_part_score():
    sheet = RubberSheet()
    sheet.record(c("4S", "N"), 10)  # NS game
    sheet.record(c("2H", "E"), 8)  # EW part score in the unfinished game
    assert sheet.totals() == {"NS": 120, "EW": 60}
    assert sheet.closing_bonuses() == {"NS": 300, "EW": 100}
    assert sheet.totals(close=True) == {"NS": 420, "EW": 160}


def test_b_10_unfinished_rubber_no_bonus_when_both_have_a_game_or_a_part_score():
    sheet = RubberSheet()
    sheet.record(c("4S", "N"), 10)
    sheet.record(c("4S", "E"), 10)  # a game each: no 300
    sheet.record(c("1NT", "N"), 7)
    sheet.record(c("1C", "W"), 7)  # a part score each: no 100
    assert sheet.closing_bonuses() == {"NS": 0, "EW": 0}
    assert sheet.totals(close=True) == sheet.totals()


def test_b_10_unfinished_rubber_part_score_alone():
    sheet = RubberSheet()
    sheet.record(c("2S", "S"), 8)
    assert sheet.totals(close=True) == {"NS": 160, "EW": 0}
    assert RubberSheet().totals(close=True) == {"NS": 0, "EW": 0}


def test_rubber_sheet_round_trips_through_plain_data():
    import json

    sheet = RubberSheet()
    sheet.record(c("4S", "N"), 10, honours_ew=100)
    sheet.record(c("2H", "E", doubled=2), 6)
    data = json.loads(json.dumps(sheet.to_data()))
    again = RubberSheet.from_data(data)
    assert again.to_data() == sheet.to_data()
    again.record(c("1C", "N"), 7)
    assert again.to_data() != sheet.to_data()  # from_data copied: the original is untouched
    assert RubberSheet.from_data(data).to_data() == sheet.to_data()


def test_rubber_sheet_refuses_bad_input():
    sheet = RubberSheet()
    with pytest.raises(IllegalAction):
        sheet.record(c("1C", "N"), 7, honours_ns=120)
    with pytest.raises(IllegalAction):
        sheet.vulnerable("NE")
