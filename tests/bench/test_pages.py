"""Issue 33: the pages benchmark's quick version, so the harness never rots.

The site in production mode (one Daphne, a worker) and the bare view beside
it, driven by the same client; the pages must answer without one error and
the last line must keep its exact form.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from .test_load import bench_database_url

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(
    r"^pages conc=(\d+) tables=(\d+): requests/s=([0-9.]+) p95_ms=([0-9.]+) floor_p95_ms=([0-9.]+) "
    r"ratio_p95=([0-9.]+) errors=(\d+)$"
)


@pytest.mark.timeout(300)
def test_pages_answer_without_errors_and_the_last_line_keeps_its_form(settings, tmp_path):
    if not settings.REDIS_URL or not settings.DATABASE_URL:
        pytest.skip("needs PostgreSQL and Redis")
    run = subprocess.run(
        [
            sys.executable,
            "bench/pages.py",
            "--concurrency",
            "16",
            "--duration",
            "4",
            "--database-url",
            bench_database_url(settings, "pagestest"),
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
    out = run.stdout.strip().splitlines()
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    match = LINE.match(out[-1])
    assert match, out[-5:]
    conc, tables, rps, p95, floor_p95, ratio, errors = match.groups()
    assert (int(conc), int(tables)) == (16, 0)
    assert int(errors) == 0, "\n".join(out[-20:])
    assert float(rps) > 0 and float(floor_p95) > 0
    assert any(re.fullmatch(r"ratio_rps=[0-9.]+", line) for line in out[:-1]), out[-5:]
    for page in ("home", "lobby", "leaderboard", "profile", "room", "lesson"):
        assert any(line.startswith(f"site  {page}") for line in out), page
