"""The arena's pairing on two real Celery workers at once (E-3, issue 37).

Two ``celery worker`` processes of the project's app (Redis broker, one
queue of the test's own) take the events' task (``events.tasks.tick``)
from the same queue while players join the same running arena in waves:
both seat the free players concurrently. Under the arena's row lock and
the players' (``arena.seat_free``) every free player is seated at most once
and no table or match is made twice. The workers are killed at teardown.
"""

from __future__ import annotations

import os
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from events import arena
from events.models import Arena, ArenaPlayer, ArenaTable
from games.models import Match
from tests.celery_worker import CeleryWorker

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.celery


def wait_until(predicate, timeout: float, message: str):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {message}")


@pytest.fixture
def two_workers(tmp_path):
    if not settings.REDIS_URL:
        pytest.skip("needs Redis (the broker)")
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}"
        f":{db['PORT'] or 5432}/{db['NAME']}",
        "REDIS_URL": settings.REDIS_URL,
        "DEADLINES": "celery",
        "ARENA_BOT_WAIT": "3600",  # people only: the players left over wait
        "LOG_LEVEL": "INFO",
        "DB_CONN_MAX_AGE": "0",
        "PYTHONUNBUFFERED": "1",
    }
    queue = f"events-{uuid.uuid4().hex[:8]}"
    workers = [CeleryWorker(env, queue, tmp_path / f"worker{i}.log", name=f"worker{i}") for i in (1, 2)]
    try:
        for w in workers:
            w.wait_ready(120)
        yield queue, workers
    finally:
        for w in workers:
            w.kill()


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(300)
def test_e3_two_celery_workers_pair_the_same_arena_at_once_seating_nobody_twice(two_workers, make_user):
    from config.celery import app

    queue, workers = two_workers
    a = Arena.objects.create(
        name="Two workers",
        game="hokm4",
        rules={"target": 3},
        starts_at=timezone.now() - timedelta(minutes=1),
        minutes=60,
        status=Arena.Status.RUNNING,
    )
    users = [make_user(f"w{i}") for i in range(22)]
    sent = 0
    for wave in range(0, len(users), 5):  # joins in waves, each followed by a burst of ticks
        for user in users[wave : wave + 5]:
            arena.join(a, user)
        for _ in range(6):
            app.send_task("events.tasks.tick", queue=queue)
            sent += 1
    # 22 people, tables of four, no bots: five tables, two left over.
    wait_until(lambda: ArenaPlayer.objects.filter(arena=a, busy=True).count() >= 20, 120, "twenty seated")
    wait_until(
        lambda: sum(w.text().count("events.tasks.tick[") for w in workers) >= 2 * sent,
        120,
        "every tick received and done",
    )
    tables = list(ArenaTable.objects.filter(arena=a))
    seated = [u for t in tables for u in t.seats]
    assert None not in seated  # no bot: ARENA_BOT_WAIT is an hour
    assert len(seated) == len(set(seated)) == 20, [t.seats for t in tables]  # nobody twice
    assert len(tables) == 5
    matches = list(Match.objects.filter(pk__in=[t.match_id for t in tables]))
    assert len(matches) == 5 and len({m.room_id for m in matches}) == 5  # no match made twice
    assert Match.objects.filter(room_id__in=[t.room_id for t in tables]).count() == 5
    for m in matches:
        assert sorted(p["user_id"] for p in m.players) == sorted(
            next(t.seats for t in tables if t.match_id == m.pk)
        )
    left = ArenaPlayer.objects.filter(arena=a, busy=False)
    assert left.count() == 2 and not set(left.values_list("user_id", flat=True)) & set(seated)
    print("ticks per worker:", [w.text().count("succeeded") for w in workers])
    # Both workers did pair: each ran ticks (the queue's tasks shared between the two processes).
    for w in workers:
        assert w.text().count("succeeded") > 0, w.text()[-2000:]
        assert w.proc.poll() is None
