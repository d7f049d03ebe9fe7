"""Issue 13: the load benchmark's quick version, so the harness never rots.

Two Daphne processes in production mode share PostgreSQL and Redis, and the
seats of every table are split across them (seat n on process n mod 2): a
move must reach all four seats through the channel layer. The bare floor
runs in the same invocation. The last line must keep its exact form.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(
    r"^load tables=(\d+) think=([0-9.]+)-([0-9.]+)s: moves/s=([0-9.]+) p50_ms=([0-9.]+) p99_ms=([0-9.]+) "
    r"floor_p50_ms=([0-9.]+) ratio_p50=([0-9.]+) stalls=(\d+) errors=(\d+) start_s=([0-9.]+|nan)"
    r"( reconnect_s=([0-9.]+|nan))?$"
)


def bench_database_url(settings, kind: str) -> str:
    """A database of the benchmark's own, on the test database's server."""
    db = settings.DATABASES["default"]
    name = f"takhteh_{kind}_{os.getpid()}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"


@pytest.mark.timeout(300)
def test_two_processes_play_split_tables_and_the_last_line_keeps_its_form(settings, tmp_path):
    if not settings.REDIS_URL or not settings.DATABASE_URL:
        pytest.skip("needs PostgreSQL and Redis")
    url = bench_database_url(settings, "loadtest")
    run = subprocess.run(
        [
            sys.executable,
            "bench/load.py",
            "--tables",
            "3",
            "--think",
            "0.1-0.3",
            "--duration",
            "8",
            "--processes",
            "2",
            "--split",
            "--database-url",
            url,
            "--redis-url",
            settings.REDIS_URL,
            "--logs",
            str(tmp_path),
            "--drop",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=280,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    last = run.stdout.strip().splitlines()[-1]
    found = LINE.match(last)
    assert found, last
    tables, moves_s, stalls, errors = int(found[1]), float(found[4]), int(found[9]), int(found[10])
    assert tables == 3 and moves_s > 1 and stalls == 0 and errors == 0, run.stdout[-2000:]


BOT_LAG = re.compile(
    r"^bot_lag tables=(\d+) bot_tables=(\d+): p50_ms=([0-9.]+) p99_ms=([0-9.]+) with_bots_p50_ms=([0-9.]+) "
    r"with_bots_p99_ms=([0-9.]+) ratio_p50=([0-9.]+) bot_moves=(\d+) errors=(\d+)$"
)


@pytest.mark.timeout(300)
def test_issue_21_the_bot_lag_bench_runs_bots_beside_people_and_keeps_its_line(settings, tmp_path):
    """bench/bot_lag.py: the same tables alone, then beside tables of strong bots
    (their searches run on the Celery worker); the bots' tables must really play."""
    if not settings.REDIS_URL or not settings.DATABASE_URL:
        pytest.skip("needs PostgreSQL and Redis")
    url = bench_database_url(settings, "botlag")
    run = subprocess.run(
        [
            sys.executable,
            "bench/bot_lag.py",
            "--tables",
            "2",
            "--bot-tables",
            "2",
            "--think",
            "0.1-0.3",
            "--duration",
            "5",
            "--database-url",
            url,
            "--redis-url",
            settings.REDIS_URL,
            "--logs",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=280,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    found = BOT_LAG.match(run.stdout.strip().splitlines()[-1])
    assert found, run.stdout[-2000:]
    assert int(found[8]) > 3 and int(found[9]) == 0, run.stdout[-2000:]
