"""Bots (issue 21): legal moves only (C-6), the seat's view only, never over the partner (R-2), the arena's line."""

import copy
import random
import re

import pytest

from bench import arena
from games import bots, engine
from games.engine import CHANCE

POSITIONS = {"hokm4": 500, "hokm2": 500, "shelem4": 300, "shelem2": 300, "bridge": 400}


def _chance(game, state, rng):
    """The pending chance step (an ace draw, a deal) from a deck shuffled by ``rng``."""
    kind, cards = game.pending_chance(state)
    deck = list(cards)
    rng.shuffle(deck)
    state, _ = game.apply(state, CHANCE, {"type": kind, "deck": deck})
    return state


def _random_positions(name, count, rng, rules=None):
    """(state, seat) pairs along random games played with random legal actions."""
    game = engine.get(name)
    rules = game.validate_rules(rules or {})
    state = game.new_match(rules)
    found = 0
    while found < count:
        seats = game.to_act(state)
        if not seats:
            state = game.new_match(rules)
            continue
        if CHANCE in seats:
            state = _chance(game, state, rng)
            continue
        seat = min(seats)
        yield state, seat
        found += 1
        legal = game.legal_actions(state, seat)
        action = rng.choice(legal)
        if action["type"] == "discard":
            hand = game.view(state, seat)["hand"]
            action = {"type": "discard", "cards": rng.sample(hand, action["count"])}
        state, _ = game.apply(state, seat, action)


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_a_bot_never_makes_an_illegal_move(name):
    """C-6 for bots: over many random positions of every game the bot's action is accepted by the engine."""
    game = engine.get(name)
    rng = random.Random(21)
    checked = 0
    for state, seat in _random_positions(name, POSITIONS[name], rng):
        view = game.view(state, seat)
        action = bots.choose(name, view, seat, level="easy", seed=checked, budget_ms=0.5)
        game.apply(state, seat, action)  # raises IllegalAction on an illegal move
        checked += 1
    assert checked == POSITIONS[name]


@pytest.mark.parametrize("name", ["hokm4", "shelem4", "shelem2"])
def test_jokers_and_table_rules_too(name):
    """The same with the optional rules on (SH-1 jokers, H4-X1..X3)."""
    game = engine.get(name)
    rules = {"jokers": True} if name.startswith("shelem") else {"early_play": True, "lead_run": True}
    rng = random.Random(5)
    for i, (state, seat) in enumerate(_random_positions(name, 150, rng, rules)):
        action = bots.choose(name, game.view(state, seat), seat, level="easy", seed=i, budget_ms=0.5)
        game.apply(state, seat, action)


def _play_state(name, seed):
    game = engine.get(name)
    rng = random.Random(seed)
    for state, seat in _random_positions(name, 400, rng):
        if state["phase"] == "play" and len(game.legal_actions(state, seat)) > 2 and not state["trick"]:
            return state, seat
    raise AssertionError("no play position found")


@pytest.mark.parametrize("name", ["hokm4", "hokm2", "shelem4", "bridge"])
def test_the_bot_sees_only_its_view(name):
    """R-6 / issue 21: two states that differ only in cards hidden from the seat give the same decision."""
    game = engine.get(name)
    for seed in range(3):
        state, seat = _play_state(name, seed)
        n = game.players
        others = [s for s in range(1, n + 1) if s != seat]
        view = game.view(state, seat)
        visible = set(view.get("dummy_hand") or [])
        a, b = (
            [s for s in others if not set(state["hands"][s - 1]) & visible][:2]
            if n == 4
            else (others[0], None)
        )
        other = copy.deepcopy(state)
        if b is not None:  # swap one hidden card between two other hands, same suit so that no void changes
            for x in other["hands"][a - 1]:
                ys = [y for y in other["hands"][b - 1] if y[1] == x[1]]
                if ys:
                    y = ys[0]
                    ha, hb = other["hands"][a - 1], other["hands"][b - 1]
                    other["hands"][a - 1] = [y if c == x else c for c in ha]
                    other["hands"][b - 1] = [x if c == y else c for c in hb]
                    break
        else:  # hokm2: swap a card of the opponent with one put aside unseen
            opp = other["hands"][a - 1]
            rest = other["rest"]
            other["hands"][a - 1] = [rest[0]] + opp[1:]
            other["rest"] = [opp[0]] + rest[1:]
        assert other["hands"] != state["hands"] or other.get("rest") != state.get("rest")
        assert game.view(other, seat) == view
        first = bots.choose(name, view, seat, level="easy", seed=7, budget_ms=1e6)
        second = bots.choose(name, game.view(other, seat), seat, level="easy", seed=7, budget_ms=1e6)
        assert first == second


def test_a_bot_never_outbids_its_partner():
    """R-2: in Shelem (four players) a bot whose partner holds the high bid passes."""
    game = engine.get("shelem4")
    rng = random.Random(2)
    seen = 0
    for state, seat in _random_positions("shelem4", 8000, rng):
        if state["phase"] != "bidding" or state["high_bidder"] is None:
            continue
        if game.team_of(state["high_bidder"]) != game.team_of(seat):
            continue
        action = bots.choose("shelem4", game.view(state, seat), seat, level="easy", seed=seen, budget_ms=0.5)
        assert action == {"type": "pass"}
        seen += 1
        if seen >= 30:
            break
    assert seen >= 30


def test_bot_action_keeps_the_play_service_call():
    game = engine.get("hokm4")
    state, seat = _play_state("hokm4", 1)
    action = bots.bot_action("hokm4", state, seat)
    assert action in game.legal_actions(state, seat)


@pytest.mark.parametrize(
    ("name", "metric"), [("hokm2", "rate"), ("shelem2", "points_per_deal"), ("bridge", "imps_per_board")]
)
def test_arena_last_line(name, metric):
    lines = []
    arena.run(name, 2, "easy", "auto", seed=3, out=lines.append)
    pattern = rf"arena {name} easy vs auto: deals=2 {metric}=-?\d+\.\d+ ci95=-?\d+\.\d+--?\d+\.\d+ p50_ms=\d+ p95_ms=\d+"
    assert re.fullmatch(pattern, lines[-1]), lines[-1]


def test_arena_jobs_play_the_same_deals(monkeypatch):
    """``--jobs``: the deals are drawn first, so parallel processes give the sequential result."""
    monkeypatch.setitem(bots.LEVELS, "easy", (4, None))  # no wall-clock budget: the same worlds every run
    lines = {}
    for jobs in (1, 2):
        out = []
        arena.run("hokm2", 4, "easy", "auto", seed=5, out=out.append, jobs=jobs)
        lines[jobs] = out[-1].split(" p50_ms=")[0]
    assert lines[1] == lines[2], lines


def test_hokm_last_hand_inference():
    """C-3 / C-4: a last hand that lets the other side's card stand holds no card that beats it."""
    from games.bots import hokm as hb
    from games.engine.cards import CARD_INDEX as IX

    hearts = 1  # trump
    voids = [0, 0, 0, 0]
    # seat 1 leads KS and it stands; seat 4 (the other side, last) follows low: no AS
    hb._Knowledge._last_hand([(0, IX["KS"]), (1, IX["3S"]), (2, IX["2S"]), (3, IX["4S"])], voids, 4, hearts)
    assert voids[3] & hb.BIT[IX["AS"]]
    assert not voids[3] & hb.BIT[IX["QS"]]
    # seat 1 leads QD, seat 4 discards a club: it is out of diamonds and of trumps
    hb._Knowledge._last_hand([(0, IX["QD"]), (1, IX["5D"]), (2, IX["2D"]), (3, IX["3C"])], voids, 4, hearts)
    assert voids[3] & hb.SUIT_MASK[hearts] == hb.SUIT_MASK[hearts]
    # the last hand's partner wins the trick: nothing is read
    voids = [0, 0, 0, 0]
    hb._Knowledge._last_hand([(1, IX["3S"]), (2, IX["KS"]), (3, IX["2S"]), (0, IX["4S"])], voids, 4, hearts)
    assert voids[0] == 0
    hb._Knowledge._last_hand([(2, IX["3S"]), (3, IX["KS"]), (0, IX["2S"]), (1, IX["4S"])], voids, 4, hearts)
    assert voids == [0, 0, 0, 0]


@pytest.mark.parametrize("n", [4, 2])
def test_hokm_plain_reads_never_exclude_a_card_a_plain_player_holds(n):
    """C-3: what the bot reads from cards played as ``plain_policy`` plays them (leads, dumps,
    cheapest winners, cuts) never rules out a card the seat actually holds, over 400 random rounds."""
    from games.bots import hokm as hb
    from games.engine import hokm_fast as hf

    rng = random.Random(11)
    reads = 0
    for _ in range(400):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [0] * n
        for i in range(13 * n):
            hands[i % n] |= hb.BIT[deck[i]]
        trump, hakem = rng.randrange(4), rng.randrange(n)
        fs = hb._round_fast(n, list(hands), trump, hakem)
        tricks, trick = [], []
        while not fs.over:
            seat = fs.turn
            c = hb.plain_policy(fs)
            trick.append((seat, c))
            hf.play(fs, c)
            if len(trick) == n:
                tricks.append(trick)
                trick = []
            held = [fs.hands[p] for p in range(n)]
            for mine_side in (0, 1):
                voids = [0] * n
                for tr in tricks + ([trick] if trick else []):
                    hb._Knowledge._plain_reads(tr, voids, n, trump, mine_side)
                for p in range(n):
                    if hb.TEAM[n][p] != mine_side:
                        assert not voids[p] & held[p], (p, tricks, trick)
                        reads += bin(voids[p]).count("1")
    assert reads > 10000  # the reads say something


def test_shelem_bids_read_from_the_auction():
    """SH-3: the first bidder's forced 100 shows nothing; a free bid shows a hand near its amount."""
    from games.bots import shelem as sb

    view = {"players": 4, "bids": [None, "pass", 120, 100], "first_bidder": 4}
    assert sb._shown(view) == [0, 0, 120 - sb.SLACK, 0]
    view = {"players": 4, "bids": [105, None, None, 100], "first_bidder": 1}
    assert sb._shown(view) == [105 - sb.SLACK, 0, 0, 100 - sb.SLACK]


def test_bridge_samples_respect_the_auction():
    """B-2: an opponent's 1NT opening (15-17) and a partner's pass of it shape the sampled hands."""
    from games.bots import bridge as bb
    from games.bots.rng import Rng

    calls = [{"seat": 1, "call": "1NT"}, {"seat": 2, "call": "P"}, {"seat": 3, "call": "P"}]
    shown = bb._constraints({"calls": calls}, 4)
    assert shown[1] == (15, 17, {})
    assert shown[3] == (0, 8, {})
    assert shown[2][1] == 37
    calls = [{"seat": 1, "call": "1H"}, {"seat": 2, "call": "2C"}]
    shown = bb._constraints({"calls": calls}, 4)
    assert shown[1][2] == {"H": 4} and shown[1][0] == 11
    assert shown[2][2] == {"C": 5}
    game = engine.get("bridge")
    state, seat = _play_state("bridge", 4)
    view = game.view(state, seat)
    others = [s for s in (1, 2, 3, 4) if s != seat and s != view["dummy"]]
    rng = Rng(3)
    for _ in range(10):
        hands = bb._sample(view, seat, rng, {others[0]: (12, 14, {})})
        assert 12 <= bb.hcp(hands[others[0]]) <= 14


def test_hokm_plain_reads_of_the_opponents():
    """C-3 / C-4 read as plain play: an opponent's low lead holds no plain ace; a follower who let the other
    side's card stand had no winner; the partner's cards and a follower whose partner wins are not read."""
    from games.bots import hokm as hb
    from games.engine.cards import CARD_INDEX as IX

    hearts = 1
    voids = [0, 0, 0, 0]
    mine_side = 0  # seats 1 and 3 (indices 0 and 2)
    # seat 2 (index 1, an opponent) leads 7D; index 2 (our side) wins with KD; index 3 follows 2D
    hb._Knowledge._plain_reads([(1, IX["7D"]), (2, IX["KD"]), (3, IX["2D"])], voids, 4, hearts, mine_side)
    plain_aces = hb.ACES & ~hb.SUIT_MASK[hearts]
    assert voids[1] & plain_aces == plain_aces and not voids[1] & hb.BIT[IX["AH"]]
    assert voids[3] & hb.BIT[IX["AD"]] and not voids[3] & hb.BIT[IX["QD"]]
    assert voids[2] == 0  # our own side is never read
    voids = [0, 0, 0, 0]
    # index 3 leads AS (an ace: nothing read), index 0 ours, index 1 follows low while its partner wins
    hb._Knowledge._plain_reads([(3, IX["AS"]), (0, IX["4S"]), (1, IX["2S"])], voids, 4, hearts, mine_side)
    assert voids == [0, 0, 0, 0]


def _drafted_hokm2_views(deals: int, seed: int):
    """Each seat's view and the opponent's real hand when play starts, both seats having drafted as
    ``auto_action`` does (H2-4: take a trump or a ten or better, else the unseen second card)."""
    game = engine.get("hokm2")
    rules = game.validate_rules({})
    rng = random.Random(seed)
    for _ in range(deals):
        state = game.new_match(rules)
        while state["phase"] != "play":
            seats = game.to_act(state)
            if CHANCE in seats:
                state = _chance(game, state, rng)
                continue
            seat = min(seats)
            state, _ = game.apply(state, seat, game.auto_action(state, seat))
        for seat in (1, 2):
            yield game.view(state, seat), seat, state["hands"][2 - seat], state["trump"]


@pytest.mark.parametrize("drafted", [True, False])
def test_hokm2_the_bot_deals_the_opponent_a_drafted_hand(drafted, monkeypatch):
    """H2-4: a drafter keeps the good cards he is shown, so the opponent's hand is richer in trumps and
    tens or better than the cards the seat has not seen. The bot's sampled opponent holds about as many
    as the real one (within one card on average over 200 deals); dealing him uniformly (the bot before
    ``DRAFTED``) gives him about three fewer."""
    from games.bots import hokm as hb
    from games.bots.rng import Rng

    monkeypatch.setattr(hb, "DRAFTED", drafted)

    def good(card, trump):
        return card[0] in "AKQJT" or card[1] == trump

    real, sampled = [], []
    rng = Rng(3)
    for view, seat, opponent, trump in _drafted_hokm2_views(100, 21):
        real.append(sum(good(c, trump) for c in opponent))
        hands = hb._Knowledge(view, seat).deal(rng)
        dealt = [hb.CARDS[c] for c in range(52) if hands[2 - seat] >> c & 1]
        assert len(dealt) == 13
        sampled.append(sum(good(c, trump) for c in dealt))
    gap = sum(real) / len(real) - sum(sampled) / len(sampled)
    if drafted:
        assert abs(gap) < 1.0, gap
    else:
        assert gap > 2.0, gap


@pytest.mark.parametrize("uniform", [True, False])
def test_h2_4_the_refused_cards_second_card_is_any_unseen_card(uniform, monkeypatch):
    """H2-4: the second card of a pair is whatever the deal put there, so in the draft's worlds it is as
    likely to be a trump or a ten or better as any card the seat has not seen (issue 38,
    ``SECOND_UNIFORM``); drawn from the cards the drafted hands left (the bot before) it is good
    in about 0.38 of the worlds where 0.55 of the unseen cards are."""
    from games.bots import hokm as hb
    from games.bots.rng import Rng

    monkeypatch.setattr(hb, "SECOND_UNIFORM", uniform)
    rng = Rng(7)
    pool = list(range(10, 52))  # ten cards seen: the hand and the card shown
    t = 3
    good_share = sum(hb._good(c, t) for c in pool) / len(pool)
    draws = 4000
    good = 0
    for _ in range(draws):
        later, other, second = hb._draft_world(pool, 6, t, rng)
        assert len(later) == 5 and len(other) == 13 and second not in later + other
        good += hb._good(second, t)
    share = good / draws
    if uniform:
        assert abs(share - good_share) < 0.03, (share, good_share)
    else:
        assert share < good_share - 0.1, (share, good_share)


def test_arena_boards_play_duplicate_boards(monkeypatch):
    """``--boards`` (issue 38): deal d is duplicate board d % 16 + 1, its dealer and vulnerability by number
    (B-5 vulnerability), scored by the engine's board mode, NS minus EW."""
    from games.engine.bridge import board_of

    game = engine.get("bridge")
    seen = []
    real = arena.play_table

    def spy(game_, rules, decks, sides, seed, times, setup=None):
        state = real(game_, rules, decks, sides, seed, times, setup)
        seen.append((rules.get("board"), state.get("board"), arena.outcome(game_, state, 0)))
        return state

    monkeypatch.setattr(arena, "BOARDS", True)
    monkeypatch.setattr(arena, "play_table", spy)
    lines = []
    arena.run("bridge", 3, "easy", "auto", seed=3, out=lines.append)
    assert [n for n, _b, _v in seen] == [1, 1, 2, 2, 3, 3]
    for number, board, value in seen:
        assert board == board_of(number)
        assert value == 0 or abs(value) >= 50  # a duplicate score: 0 passed out, else 50 at least
    assert game.validate_rules({"board": 2})["board"] == 2
    assert board_of(2)["vulnerable"] == [True, False]  # board 2: NS vulnerable
    assert lines[-1].startswith("arena bridge easy vs auto: deals=3 imps_per_board=")


def test_arena_partscore_starts_from_a_part_score(monkeypatch):
    """``--partscore`` (issue 38): the deal starts with a part-score below the line that the bots see (B-5),
    and a contract that completes the game with it earns the game bonus (vulnerable 500 with ``--boards``)."""
    monkeypatch.setattr(arena, "PART_SCORE", "board")
    monkeypatch.setattr(arena, "BOARDS", True)
    setup = arena.deal_setup(1, seed=3)  # board 2: NS vulnerable, East deals
    assert setup["vulnerable"] == [True, False] and setup["dealer"] == 2
    assert setup["part"] == [40, 0]
    game = engine.get("bridge")
    state = game.new_match(game.validate_rules({}))
    arena._prepare(state, setup)
    state, _ = game.apply(
        state, CHANCE, {"type": "deal", "deck": arena.deal_decks(game, random.Random(1))["deal"]}
    )
    view = game.view(state, 1)
    assert sum(e["points"] for e in view["score"]["below"][0]) == 40 and view["score"]["vulnerable"] == [
        True,
        False,
    ]
    made = {
        "contract": {"level": 2, "strain": "H", "doubled": 0, "declarer": 1},
        "tricks": 8,
        "passed_out": False,
    }
    assert arena.part_score_result(made, setup) == 60 + 500  # 2H (60) plus 40 below: a vulnerable game
    made["contract"]["declarer"] = 2  # EW have no part-score: 2H is a part score
    assert arena.part_score_result(made, setup) == -(60 + 50)
    lines = []
    arena.run("bridge", 2, "easy", "auto", seed=3, out=lines.append)
    assert lines[-1].startswith("arena bridge easy vs auto: deals=2 imps_per_board=")
