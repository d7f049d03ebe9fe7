"""Duplicate arena: two bot settings play the same deals with the sides swapped.

    python bench/arena.py GAME --deals N [--a strong] [--b auto] [--seed 1] [--jobs 2] [--values FILE]

A setting is a bot level (``easy``, ``normal``, ``strong``), ``auto`` (the
engine's ``auto_action``, the timeout move), or one of the yardsticks of
issue 38: ``careful`` (``games.bots.careful``, a rule-based Hokm player from
its own view: second hand low, third hand high, counting trumps; other games
play ``auto`` there), ``mc`` (the strong level with the Hokm card search
of before issue 38: sampled worlds played out by rules, no double dummy; in bridge the strong bot's card
play and score-blind bidding of before issue 38) and
``dd`` (the strong level's double-dummy search by name; ``strong`` plays it too
in hokm4). ``--worlds N`` sets the bots' worlds per decision and
``--no-clock`` lifts their time budget: paired comparisons of two versions of
a bot that do not depend on the machine's load. Every deal is played twice: at
the first table setting A holds the seats of side 0 and B those of side 1, at
the second the other way round, with the same cards (and, in Hokm, the same
hakem), so that the luck of the cards cancels. One deal is one round.

The result is A's: the round-win rate (Hokm), the mean points per deal of A
minus B's points in the same seats (Shelem), or the IMPs per board (Bridge,
duplicate scoring, nobody vulnerable; with ``--boards`` each deal is a
duplicate board with the dealer and vulnerability of its number, and with
``--partscore random|board`` it starts from a part-score below the line), with a 95% confidence interval over
deals, and the median and 95th percentile time of a bot decision (``auto``
and ``careful`` decisions are not timed). The last line is the summary, e.g.

    arena hokm4 strong vs auto: deals=400 rate=0.634 ci95=0.601-0.667 p50_ms=41 p95_ms=180
"""

from __future__ import annotations

import argparse
import ast
import importlib
import math
import multiprocessing
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from games import bots, engine  # noqa: E402
from games.bots import careful  # noqa: E402
from games.engine import CHANCE  # noqa: E402
from games.engine.bridge import board_of as bridge_board_of  # noqa: E402
from games.engine.bridge import score_contract  # noqa: E402

SETTINGS = ("auto", "careful", "mc", "dd", *bots.LEVELS)
METRIC = {"hokm4": "rate", "hokm2": "rate", "shelem4": "points_per_deal", "shelem2": "points_per_deal"}
IMP_TABLE = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500, 1750, 2000)
IMP_TABLE += (2250, 2500, 3000, 3500, 4000)


def imps(diff: int) -> int:
    """The IMP scale of duplicate bridge for a score difference."""
    sign = 1 if diff >= 0 else -1
    d = abs(diff)
    k = 0
    while k < len(IMP_TABLE) and d >= IMP_TABLE[k]:
        k += 1
    return sign * k


def duplicate_score(last_result) -> int:
    """North-South's duplicate score of a bridge deal (not vulnerable: part score 50, game 300)."""
    if not last_result or last_result.get("passed_out"):
        return 0
    c = last_result["contract"]
    s = score_contract(c["level"], c["strain"], c["doubled"], False, last_result["tricks"])
    if s.made:
        total = s.declarer_below + s.declarer_above + (300 if s.declarer_below >= 100 else 50)
    else:
        total = -s.defenders_above
    ns = c["declarer"] in (1, 3)
    return total if ns else -total


WORLDS: int | None = None
"""``--worlds``: the bots' worlds per card played instead of their level's (paired measurements; the
trump, the draft and the bids keep the level's)."""
CLOCK = True
BOARDS = False
"""``--boards`` (bridge): deal ``d`` is played as duplicate board ``d % 16 + 1`` (the engine's board mode):
dealer and vulnerability by board number, the board's duplicate score (game 500 vulnerable)."""
PART_SCORE: str | None = None
"""``--partscore random|board`` (bridge): every deal starts with a part-score below the line (rubber bridge,
B-5), the sheet's as the bots see it; with ``--boards`` also the dealer and vulnerability of the board
(as games won on the sheet). Scored as one board that counts the part-score: a made contract whose points
below and the part-score reach 100 earn the game bonus (300 / 500 vulnerable), otherwise 50."""
PART_POINTS = (20, 40, 60, 70, 90)
NO_BUDGET = math.inf
"""``--no-clock``: no time budget (with ``--worlds``, results that do not depend on the machine's load)."""


def deal_setup(d, seed):
    """``--partscore``: deal ``d``'s board (dealer, vulnerability by its number under ``--boards``) and
    part-scores [NS, EW] below the line, the same at both tables."""
    number = d % 16 + 1
    if PART_SCORE == "board":  # one side in turn, the amount by board number
        part = [0, 0]
        part[number % 2] = PART_POINTS[(number // 2) % len(PART_POINTS)]
    else:
        rng = random.Random(seed * 104729 + d)
        part = [rng.choice((0, *PART_POINTS)) for _side in range(2)]
    board = (
        bridge_board_of(number) if BOARDS else {"number": number, "dealer": 1, "vulnerable": [False, False]}
    )
    return {"dealer": board["dealer"], "vulnerable": list(board["vulnerable"]), "part": part}


def _prepare(state, setup):
    """The rubber sheet before the deal: the part-scores below the line and, for vulnerability, one game won."""
    sheet = state["sheet"]
    sheet["games"] = [int(v) for v in setup["vulnerable"]]
    sheet["below"] = [[{"deal": 0, "kind": "contract", "points": p}] if p else [] for p in setup["part"]]
    state["dealer"] = setup["dealer"]


def part_score_result(last_result, setup) -> int:
    """North-South's score of a deal played from a part-score (see ``PART_SCORE``)."""
    if not last_result or last_result.get("passed_out"):
        return 0
    c = last_result["contract"]
    team = 0 if c["declarer"] in (1, 3) else 1
    vul = setup["vulnerable"][team]
    s = score_contract(c["level"], c["strain"], c["doubled"], vul, last_result["tricks"])
    if s.made:
        game_made = s.declarer_below + setup["part"][team] >= 100
        total = s.declarer_below + s.declarer_above + ((500 if vul else 300) if game_made else 50)
    else:
        total = -s.defenders_above
    return total if team == 0 else -total


def play_table(game, rules, decks, setting_of_side, seed, times, setup=None):
    """One round from the given chance decks; returns the final state."""
    state = game.new_match(rules)
    if setup:
        _prepare(state, setup)
    started = False
    steps = 0
    while True:
        seats = game.to_act(state)
        if not seats or game.round_over(state):
            return state
        if CHANCE in seats:
            kind, _cards = game.pending_chance(state)
            if kind == "deal" and started:
                return state
            state, _ = game.apply(state, CHANCE, {"type": kind, "deck": list(decks[kind])})
            started = started or kind == "deal"
            continue
        seat = min(seats)
        setting = setting_of_side[game.team_of(seat)]
        if setting == "auto" or setting == "careful" and not game.name.startswith("hokm"):
            action = game.auto_action(state, seat)
        elif setting == "careful":
            action = careful.choose(game.view(state, seat), seat)
        else:
            view = game.view(state, seat)
            # "mc" and "dd": the strong level's two Hokm card searches by name (the server plays "mc")
            level, method = ("strong", setting) if setting in ("mc", "dd") else (setting, None)
            t0 = time.perf_counter()
            action = bots.choose(
                game.name,
                view,
                seat,
                level=level,
                seed=seed * 1000 + steps,
                method=method,
                worlds=WORLDS if view.get("phase") == "play" else None,
                budget_ms=None if CLOCK else NO_BUDGET,
            )
            times.append((time.perf_counter() - t0) * 1000)
        state, _ = game.apply(state, seat, action)
        steps += 1


def deal_decks(game, rng):
    decks = {}
    for kind in ("draw", "deal"):
        probe = game.new_match(game.validate_rules({}))
        chance = game.pending_chance(probe)
        cards = list(chance[1]) if chance else []
        rng.shuffle(cards)
        decks[kind] = cards
    return decks


def outcome(game, state, a_side):
    """A's result at one table: 1/0 round won (Hokm), A's score minus B's (Shelem), NS score (Bridge)."""
    res = state["last_result"]
    if game.name.startswith("hokm"):
        return 1.0 if res["winner"] == a_side else 0.0
    if game.name.startswith("shelem"):
        score = res["score"]
        return float(score[a_side] - score[1 - a_side])
    if state.get("board"):  # board mode: the engine's duplicate score, NS (team 0) minus EW
        return float(state["score"][0] - state["score"][1])
    return float(duplicate_score(res))


def play_deal(job):
    """Both tables of one deal (a worker process's unit): A's value and the decision times."""
    name, a, b, seed, d, decks = job
    game = engine.get(name)
    setup = deal_setup(d, seed) if PART_SCORE and name == "bridge" else None
    board_mode = BOARDS and name == "bridge" and not setup
    rules = game.validate_rules({"board": d % 16 + 1} if board_mode else {})
    times: list[float] = []
    first = play_table(game, rules, decks, (a, b), seed + 7919 * d, times, setup)
    second = play_table(game, rules, decks, (b, a), seed + 7919 * d, times, setup)
    if setup:
        x, y = (float(part_score_result(t["last_result"], setup)) for t in (first, second))
    else:
        x, y = outcome(game, first, 0), outcome(game, second, 1)
    if name == "bridge":
        return float(imps(int(x - y))), times  # A sat North-South at the first table
    return (x + y) / 2, times


def run(name, deals, a, b, seed=1, out=print, jobs=1, values_path=None):
    game = engine.get(name)
    rng = random.Random(seed)
    # the decks are drawn in order first: the same deals whatever the number of jobs
    work = [(name, a, b, seed, d, deal_decks(game, rng)) for d in range(deals)]
    values = []
    times: list[float] = []
    sink = None
    pool = multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else None
    try:
        results = pool.imap(play_deal, work) if pool else map(play_deal, work)
        # one value per deal, in deal order, written as it comes: two runs on the same seed compare
        # paired, over the deals both have played
        sink = open(values_path, "w") if values_path else None  # noqa: SIM115
        for d, (value, spent) in enumerate(results):
            values.append(value)
            if sink:
                sink.write(f"{value!r}\n")
                sink.flush()
            times.extend(spent)
            if (d + 1) % max(1, deals // 10) == 0:
                out(f"  {d + 1}/{deals} deals: mean {statistics.fmean(values):.3f}")
    finally:
        if sink:
            sink.close()
        if pool:
            pool.close()
            pool.join()
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    half = 1.96 * sd / math.sqrt(len(values))
    times.sort()
    p50 = statistics.median(times) if times else 0.0
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))] if times else 0.0
    metric = METRIC.get(name, "imps_per_board")
    digits = 3 if metric == "rate" else 2
    line = (
        f"arena {name} {a} vs {b}: deals={deals} {metric}={mean:.{digits}f} "
        f"ci95={mean - half:.{digits}f}-{mean + half:.{digits}f} p50_ms={p50:.0f} p95_ms={p95:.0f}"
    )
    out(line)
    return line


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game", choices=engine.GAMES)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--a", default="strong", choices=SETTINGS)
    parser.add_argument("--b", default="auto", choices=SETTINGS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="deals played in parallel processes (one per core at most: budgets are wall clock)",
    )
    parser.add_argument("--worlds", type=int, default=None, help="the bots' sampled worlds per card played")
    parser.add_argument(
        "--no-clock",
        action="store_true",
        help="no time budget: with --worlds, results that do not depend on the machine's load",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="MODULE.NAME=VALUE",
        help="an experiment: set a constant of games.bots.MODULE for this run, e.g. hokm_dd.MARGIN=0.1",
    )
    parser.add_argument(
        "--boards",
        action="store_true",
        help="bridge: play deal d as duplicate board d %% 16 + 1 (dealer and vulnerability by board number)",
    )
    parser.add_argument(
        "--partscore",
        choices=("random", "board"),
        default=None,
        help="bridge: every deal starts from a part-score below the line (random, or by board number)",
    )
    parser.add_argument(
        "--values",
        default=None,
        metavar="FILE",
        help="write A's value of every deal to FILE, one a line (paired comparisons of two runs)",
    )
    args = parser.parse_args(argv)
    for item in args.set:
        name, _, value = item.partition("=")
        module, _, attr = name.rpartition(".")
        target = importlib.import_module(f"games.bots.{module}")
        if not hasattr(target, attr):
            parser.error(f"games.bots.{module} has no {attr}")
        setattr(target, attr, ast.literal_eval(value))
    global WORLDS, CLOCK, BOARDS, PART_SCORE
    WORLDS, CLOCK, BOARDS, PART_SCORE = args.worlds, not args.no_clock, args.boards, args.partscore
    run(args.game, args.deals, args.a, args.b, args.seed, jobs=args.jobs, values_path=args.values)
    return 0


if __name__ == "__main__":
    sys.exit(main())
