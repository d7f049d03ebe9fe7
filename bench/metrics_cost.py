"""What the metrics hooks of one move cost, per call (issue 39).

    python bench/metrics_cost.py

Times each hook a move meets (``ops.metrics``: the act frame's latency and
result, a database statement's counter, a Redis command's counter) in a
tight loop, with the hooks on and with ``METRICS=off``'s early return, and
prints the cost of one move with ``--db`` statements and ``--redis``
commands. bench/load.py gives the whole move's CPU to compare with.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def per_call(fn, n: int) -> float:
    began = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - began) / n * 1e6


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=200_000)
    parser.add_argument("--db", type=int, default=4, help="database statements per move")
    parser.add_argument("--redis", type=int, default=3, help="Redis commands or pipelines per move")
    args = parser.parse_args()
    from ops import metrics

    class Consumer:
        _game = "hokm4"
        match_id = 1

    consumer = Consumer()
    counted = metrics._counting(lambda: None, metrics._loop)
    bare = lambda: None  # noqa: E731
    began = metrics.now()
    acted = per_call(lambda: metrics.acted(consumer, began), args.n)
    now = per_call(metrics.now, args.n)
    db = per_call(counted, args.n) - per_call(bare, args.n)
    metrics.ENABLED = False
    acted_off = per_call(lambda: metrics.acted(consumer, began), args.n)
    move = 2 * now + acted + args.db * db + args.redis * db
    print(
        f"metrics cost: acted={acted:.2f}us (off {acted_off:.2f}us) now={now:.2f}us counter={db:.2f}us; "
        f"one move with {args.db} statements and {args.redis} Redis commands: {move:.1f}us"
    )


if __name__ == "__main__":
    main()
