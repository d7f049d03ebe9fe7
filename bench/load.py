"""Load: many live Hokm tables of real accounts, beside the bare Channels floor (issue 13).

    python bench/load.py --tables 200 --think 2-5 --duration 600
    python bench/load.py --tables 20 --think 0 --duration 60          # saturation
    python bench/load.py --tables 200 --think 2-5 --processes 2       # two Daphne processes
    python bench/load.py --url http://127.0.0.1:8000 ...              # a site already running

It starts the site in production mode (PostgreSQL, Redis, Daphne and a
Celery worker with the deadline ticker) on a database of its own, creates
the tables in bulk (accounts, sessions, rooms, seats), connects every seat
with its own WebSocket client over loopback (each page beats every 10 s from
then on), has each table's creator start its match over the socket once its
four pages are loaded (``--start-rate`` tables a second), answers the fair
deal as the page does and plays legal moves after a random think time. For
every move it records the time from sending the action until every seat of
that table has a frame of the new version. In the same run it starts the
floor (``bench/floor``: a consumer that broadcasts what it receives to a
four-socket group, no database) and drives it with the same client, the
same number of tables and the same think times. The last line is exactly:

    load tables=T think=A-Bs: moves/s=M p50_ms=X p99_ms=Y floor_p50_ms=F ratio_p50=R stalls=S errors=E start_s=A [reconnect_s=B]

``start_s``: from the first socket's connection until every table has started
(each seat has had its match's state); ``reconnect_s`` (``--reconnect``):
from a killed Daphne's successor answering until every socket is open again
with its table's state. Before them, the round trips and CPU of one arrival
and of one table's start (the site's own counters, ``/metrics``).

A table is stalled when, once started (each of its seats has had the
table's state), it made no move for the longest think time plus the round
pause plus 5 s, or when it has not started 30 s after the drive began;
errors are error frames, failed connections and dropped sockets.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load_data import drop_database, prepare  # noqa: E402
from bench.load_drive import START_RATE  # noqa: E402
from bench.load_procs import ROOT, raise_fd_limit  # noqa: E402
from bench.load_site import run_both  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--think", default="2-5", help="seconds, uniform: A-B, or 0 for saturation")
    parser.add_argument("--duration", type=float, default=30)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument(
        "--split",
        action="store_true",
        help="with --processes: a table's seats on different processes (else a table's sockets share one)",
    )
    parser.add_argument(
        "--start-rate",
        type=float,
        default=START_RATE,
        help="tables started a second once every seat is connected (0: all at once)",
    )
    parser.add_argument(
        "--start-window",
        type=int,
        default=0,
        help="instead of --start-rate: at most this many tables started and not yet begun at a time",
    )
    parser.add_argument(
        "--reconnect",
        action="store_true",
        help="at the end, kill Daphne (one process) and time every page's reconnection and resync",
    )
    parser.add_argument("--url", default="", help="a running site (production mode) instead of starting one")
    parser.add_argument("--no-floor", action="store_true")
    parser.add_argument(
        "--segments",
        type=int,
        default=0,
        help="turns of driving the floor and the site in alternation (default: one per 10 s of --duration)",
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "BENCH_DATABASE_URL", "postgres://takhteh:takhteh@127.0.0.1:5432/takhteh_bench"
        ),
    )
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12"))
    parser.add_argument("--logs", default=str(ROOT / "artifacts" / "load"))
    parser.add_argument("--drop", action="store_true", help="drop the benchmark's database at the end")
    parser.add_argument("--dump", default="", help="write every measured move of the site to this JSON file")
    parser.add_argument("--prepare", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--bot-tables", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.prepare is not None:
        sys.path.insert(0, str(ROOT))
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        prepare(args.prepare, Path(args.out), bot_tables=args.bot_tables)
        return
    raise_fd_limit()
    # The client's collector as the servers' (infra/memory.py): thousands of
    # parsed frames a second would otherwise run the young collection every
    # few frames, on the CPU the servers measured beside it share.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 10)
    low, _, high = args.think.partition("-")
    think = (float(low), float(high or low))
    label = f"{args.think if '-' in args.think else f'{args.think}-{args.think}'}s"
    try:
        floor, site = asyncio.run(run_both(args, think))
    finally:
        if args.drop and not args.url:
            drop_database(args.database_url)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; processes={args.processes}", flush=True)
    floor_p50 = floor["p50"] if floor else float("nan")
    ratio = site["p50"] / floor_p50 if floor else float("nan")
    if floor:
        print(
            f"ratios to the floor: p50 {ratio:.2f}x, p99 {site['p99'] / floor['p99']:.2f}x, "
            f"moves/s {site['moves_s'] / floor['moves_s']:.2f}x",
            flush=True,
        )
    print(
        f"load tables={args.tables} think={label}: moves/s={site['moves_s']:.1f} p50_ms={site['p50']:.1f} "
        f"p99_ms={site['p99']:.1f} floor_p50_ms={floor_p50:.1f} ratio_p50={ratio:.2f} "
        f"stalls={site['stalls']} errors={site['errors']} start_s={site['start_s']:.1f}"
        + (f" reconnect_s={site['reconnect_s']:.1f}" if "reconnect_s" in site else "")
    )


if __name__ == "__main__":
    main()
