"""Engine benchmark: complete random rounds per second, one core.

    python bench/engine.py [--seconds 3] [--games hokm4,hokm2,...]

For each game it reports
- rounds/s through the public API (new state per `apply`, legal actions
  computed at every step, exactly as the server and a simple bot use it);
- rounds/s through the game's fast path (the bitmask representation the bots
  search with), where the game has one;
- median and 99th percentile of one `legal_actions` + `apply` step.

A "round" is one deal played out to the round's end (for Bridge: one deal,
auction and play). Randomness comes from a seeded `random.Random` here,
outside the engine.
"""

from __future__ import annotations

import argparse
import importlib
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from games import engine  # noqa: E402
from games.engine import CHANCE  # noqa: E402

TARGETS = {"hokm4": (1500, 15000), "shelem4": (1500, 15000), "shelem2": (1500, 15000)}


def play_round(game, state, rng, step_times=None):
    """Play from a chance step to the end of the round; returns the new state."""
    started = False
    while True:
        seats = game.to_act(state)
        if not seats:
            return state
        if CHANCE in seats:
            if started:
                return state  # the next deal: this round is over
            kind, cards = game.pending_chance(state)
            deck = list(cards)
            rng.shuffle(deck)
            state, _ = game.apply(state, CHANCE, {"type": kind, "deck": deck})
            if kind == "deal":
                started = True
            continue
        seat = min(seats)
        t0 = time.perf_counter_ns() if step_times is not None else 0
        actions = game.legal_actions(state, seat)
        action = rng.choice(actions)
        state, _ = game.apply(state, seat, action)
        if step_times is not None:
            step_times.append(time.perf_counter_ns() - t0)


def bench_public(name, seconds, rng):
    game = engine.get(name)
    rules = game.validate_rules({})
    state = game.new_match(rules)
    rounds = 0
    steps = []
    t_end = time.perf_counter() + seconds
    t0 = time.perf_counter()
    while time.perf_counter() < t_end:
        state = play_round(game, state, rng, steps if len(steps) < 200_000 else None)
        rounds += 1
        if not game.to_act(state):
            state = game.new_match(rules)
    elapsed = time.perf_counter() - t0
    steps.sort()
    median = statistics.median(steps) / 1000 if steps else float("nan")
    p99 = steps[int(len(steps) * 0.99)] / 1000 if steps else float("nan")
    return rounds / elapsed, median, p99


def bench_fast(name, seconds, rng):
    module_name = {
        "hokm4": "hokm_fast",
        "hokm2": "hokm_fast",
        "shelem4": "shelem_fast",
        "shelem2": "shelem_fast",
        "bridge": "bridge_fast",
    }[name]
    try:
        fast = importlib.import_module(f"games.engine.{module_name}")
    except ImportError:
        return None
    run = getattr(fast, "random_rounds", None)
    if run is None:
        return None
    rounds = 0
    t0 = time.perf_counter()
    t_end = t0 + seconds
    while time.perf_counter() < t_end:
        run(name, 200, rng)
        rounds += 200
    return rounds / (time.perf_counter() - t0)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--games", default=",".join(engine.GAMES))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(
        f"{'game':8} {'public rounds/s':>16} {'fast rounds/s':>14} {'step p50 us':>12} {'step p99 us':>12}  targets"
    )
    ok = True
    for name in args.games.split(","):
        try:
            engine.get(name)
        except (ImportError, AttributeError):
            print(f"{name:8} (not built yet)")
            continue
        rng = random.Random(args.seed)
        public, p50, p99 = bench_public(name, args.seconds, rng)
        fast = bench_fast(name, args.seconds, rng)
        target = TARGETS.get(name)
        verdict = ""
        if target:
            met = public >= target[0] and (fast or 0) >= target[1]
            ok &= met
            verdict = f"public>={target[0]}, fast>={target[1]}: {'met' if met else 'MISSED'}"
        fast_text = f"{fast:14.0f}" if fast else f"{'-':>14}"
        print(f"{name:8} {public:16.0f} {fast_text} {p50:12.1f} {p99:12.1f}  {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
