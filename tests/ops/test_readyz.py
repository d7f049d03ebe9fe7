"""/readyz (issue 39): the database, Redis and, with production deadlines, a
ticker that ran within 10 s; 503 naming the failing part. /healthz stays as
it was (tests/site/test_healthz.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from ops import health

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def production_deadlines(settings):
    if not settings.REDIS_URL:
        pytest.skip("needs Redis (REDIS_URL)")
    settings.DEADLINES = "celery"
    settings.PRODUCTION = True
    yield
    from django.core.cache import cache

    cache.delete(health.HEARTBEAT_KEY)


@pytest.mark.django_db
def test_ready_when_database_redis_and_a_fresh_ticker_answer(client, production_deadlines):
    health.beat(now=time.time() + 5)  # past the once-a-second gate of an earlier beat
    response = client.get("/readyz")
    assert response.status_code == 200, response.json()
    assert response.json()["checks"] == {"database": "ok", "redis": "ok", "ticker": "ok"}


@pytest.mark.django_db
def test_503_names_the_ticker_when_none_ran_in_10_seconds(client, production_deadlines):
    from django.core.cache import cache

    cache.set(health.HEARTBEAT_KEY, time.time() - 11)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["down"] == ["ticker"]
    assert "11 s ago" in response.json()["checks"]["ticker"]
    cache.delete(health.HEARTBEAT_KEY)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["ticker"] == "down: no ticker has run"


@pytest.mark.django_db
def test_the_ticker_is_not_asked_for_without_production_deadlines(client, settings):
    settings.DEADLINES = "inprocess"
    response = client.get("/readyz")
    assert response.status_code == 200
    assert set(response.json()["checks"]) == {"database", "redis"}


@pytest.mark.django_db
def test_the_tickers_loop_writes_the_heartbeat(production_deadlines):
    from django.core.cache import cache

    from games import ticker

    cache.delete(health.HEARTBEAT_KEY)
    health._last_beat = 0.0
    t = ticker.Ticker(interval=0.05).start()
    try:
        end = time.monotonic() + 10
        while health.ticker_age() is None and time.monotonic() < end:
            t.stopped.wait(0.02)
    finally:
        t.stop()
    assert health.ticker_age() is not None and health.ticker_age() < 5


@pytest.mark.django_db
def test_503_names_redis_when_it_is_unreachable(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["down"] == ["redis"]
    assert body["checks"]["database"] == "ok"


@pytest.mark.django_db
def test_a_process_started_with_redis_stopped_answers_503_naming_redis(settings):
    """The whole site in a process of its own whose Redis is gone (a port
    nothing listens on: the shared Redis is never stopped)."""
    if not settings.REDIS_URL:
        pytest.skip("needs Redis (REDIS_URL)")
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        "REDIS_URL": "redis://127.0.0.1:1/0",
        "DEADLINES": "celery",
        "ALLOWED_HOSTS": "testserver",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    code = (
        "import django, json; django.setup(); from django.test import Client; "
        "r = Client().get('/readyz'); print(json.dumps({'status': r.status_code, 'body': r.json()}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr[-3000:]
    answer = json.loads(out.stdout.strip().splitlines()[-1])
    assert answer["status"] == 503
    assert answer["body"]["down"] == ["redis"]
    assert answer["body"]["checks"]["database"] == "ok"
    assert answer["body"]["checks"]["ticker"] == "unknown: redis is down"
