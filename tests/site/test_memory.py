"""The server process's garbage collector (infra/memory.py, issue 13).

Importing the ASGI application (what Daphne does before it serves) freezes
start-up's objects and sets the thresholds; ``GC_TUNING=off`` leaves
CPython's defaults; anything else malformed is refused at start.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from infra import memory

ROOT = Path(__file__).resolve().parents[2]
PROBE = "import gc, json, config.asgi; print(json.dumps([list(gc.get_threshold()), gc.get_freeze_count()]))"


def _import_asgi(tuning: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "GC_TUNING"}
    env.pop("DATABASE_URL", None)  # the embedded default: no service needed to import it
    env.pop("REDIS_URL", None)
    env["DATA_DIR"] = env.get("TMPDIR", "/tmp")
    if tuning is not None:
        env["GC_TUNING"] = tuning
    return subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_server_freezes_start_up_and_collects_less_often():
    done = _import_asgi(None)
    assert done.returncode == 0, done.stderr
    threshold, frozen = json.loads(done.stdout.strip().splitlines()[-1])
    assert threshold == [50000, 20, 10]
    assert frozen > 20_000  # Django, the apps, the URLconf: tens of thousands of objects


def test_off_leaves_cpythons_collector_alone():
    done = _import_asgi("off")
    assert done.returncode == 0, done.stderr
    threshold, frozen = json.loads(done.stdout.strip().splitlines()[-1])
    assert threshold == [700, 10, 10] and frozen == 0


def test_other_thresholds_are_taken_and_malformed_ones_refused():
    done = _import_asgi("20000,10,5")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1])[0] == [20000, 10, 5]
    assert memory.thresholds("off") is None and memory.thresholds("") is None
    for bad in ("1,2", "a,b,c", "0,10,10", "5,-1,3"):
        with pytest.raises(ValueError):
            memory.thresholds(bad)
    refused = _import_asgi("700,10")
    assert refused.returncode != 0 and "GC_TUNING" in refused.stderr
