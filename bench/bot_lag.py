"""Bots think off the event loop: a table's players see no lag while bots think (issue 21).

    python bench/bot_lag.py --tables 10 --bot-tables 10 --duration 30

Two runs of bench/load.py's site in production mode (PostgreSQL, Redis,
Daphne, a Celery worker), the same tables of four accounts each, the same
think time: the first alone, the second beside ``--bot-tables`` tables of one
account and three strong bots playing as fast as the bots allow (each bot
decision is a Monte Carlo search of up to its level's budget, run by the
worker, never by Daphne). The moves measured are the accounts' tables' only:
from an action sent until every seat has the new version. The last line is
exactly:

    bot_lag tables=T bot_tables=B: p50_ms=X p99_ms=Y with_bots_p50_ms=X2 with_bots_p99_ms=Y2 ratio_p50=R bot_moves=N errors=E
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load_data import drop_database  # noqa: E402
from bench.load_procs import ROOT, raise_fd_limit  # noqa: E402
from bench.load_site import run_site  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--bot-tables", type=int, default=10)
    parser.add_argument("--think", default="0.5-1.5", help="the accounts' think time, seconds: A-B")
    parser.add_argument("--duration", type=float, default=30)
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "BENCH_DATABASE_URL", "postgres://takhteh:takhteh@127.0.0.1:5432/takhteh_bench"
        ),
    )
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12"))
    parser.add_argument("--logs", default=str(ROOT / "artifacts" / "bot_lag"))
    args = parser.parse_args()
    raise_fd_limit()
    low, _, high = args.think.partition("-")
    think = (float(low), float(high or low))

    def run(bot_tables: int) -> dict:
        run_args = argparse.Namespace(**vars(args))
        run_args.url, run_args.processes, run_args.bot_tables, run_args.split = "", 1, bot_tables, False
        print(f"--- {args.tables} tables of accounts, {bot_tables} tables of bots", flush=True)
        return asyncio.run(run_site(run_args, think))

    try:
        alone = run(0)
        beside = run(args.bot_tables)
    finally:
        drop_database(args.database_url)
    ratio = beside["p50"] / alone["p50"]
    print(
        f"bot_lag tables={args.tables} bot_tables={args.bot_tables}: p50_ms={alone['p50']:.1f} "
        f"p99_ms={alone['p99']:.1f} with_bots_p50_ms={beside['p50']:.1f} with_bots_p99_ms={beside['p99']:.1f} "
        f"ratio_p50={ratio:.2f} bot_moves={beside['bot_versions']} "
        f"errors={alone['errors'] + beside['errors'] + beside['bot_errors']}"
    )


if __name__ == "__main__":
    main()
