"""Issue 33: every process's PostgreSQL connections come from one bounded pool.

Under ASGI every page runs on a thread of its own; connections kept per
thread grew with the visitors until PostgreSQL refused more ("too many
clients"). Now a request borrows a connection from the process's pool and
gives it back at its end; when every connection is lent, it waits
(``DB_POOL_TIMEOUT``) instead of failing.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from django.conf import settings
from django.db import connection, connections

ROOT = Path(__file__).resolve().parents[2]
production = pytest.mark.skipif(not settings.DATABASE_URL, reason="the pool is production's (PostgreSQL)")


@production
def test_the_database_is_pooled_and_keeps_no_connection_per_thread():
    db = settings.DATABASES["default"]
    assert db["CONN_MAX_AGE"] == 0  # a connection goes back to the pool at the end of each request
    pool = db["OPTIONS"]["pool"]
    assert pool["max_size"] == int(os.environ.get("DB_POOL_SIZE", 16))
    assert pool["timeout"] > 0  # an exhausted pool makes a request wait, not fail at once
    assert db["CONN_HEALTH_CHECKS"]  # a connection is checked when lent: a broken one is replaced


@production
@pytest.mark.django_db(transaction=True)
def test_a_thread_that_ends_holding_a_connection_gives_it_back():
    """Threads that use the ORM and end without closing (executors shut down,
    timers) must not keep their slots: twice the pool's size of them in a row
    would otherwise leave every later request waiting for its timeout."""
    connection.ensure_connection()
    pool = connection.pool
    size = settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"]
    done = []

    def use_and_end():
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            done.append(cursor.fetchone()[0])

    for _ in range(2 * size + 2):
        thread = threading.Thread(target=use_and_end)
        thread.start()
        thread.join(timeout=15)
        assert not thread.is_alive(), f"a thread waited for a connection: the pool leaks ({pool.get_stats()})"
    assert done == [1] * (2 * size + 2)
    stats = pool.get_stats()
    # Only the test's own connection is lent now.
    assert stats["pool_size"] - stats.get("pool_available", 0) <= 1, stats


# --- 64 requests at once against a pool of 4, on a real Daphne --------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _fresh_database(admin_url: str, name: str, drop_only: bool = False) -> str:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(urlsplit(admin_url)._replace(path=f"/{name}"))


def _backends(admin_url: str, name: str) -> int:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        return conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND backend_type = 'client backend'",
            [name],
        ).fetchone()[0]


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


@production
@pytest.mark.timeout(240)
def test_64_concurrent_requests_against_a_pool_of_4_all_succeed(tmp_path):
    admin_url = settings.DATABASE_URL
    name = f"takhteh_pool_{os.getpid()}"
    db_url = _fresh_database(admin_url, name)
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "DB_POOL_SIZE": "4",
        "DB_POOL_MIN": "1",
        "DB_POOL_TIMEOUT": "60",
        "MOVE_CONNECTIONS": "0",
        "DEADLINES": "inprocess",
        "ALLOWED_HOSTS": "127.0.0.1",
        "CACHE_PREFIX": f"pool-{os.getpid()}",
        "CHANNEL_PREFIX": f"pool-{os.getpid()}",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "from accounts.models import User; User.objects.create_user('pooled', password='x-Card-2026!')",
        ],
        cwd=ROOT,
        env=env,
        check=True,
    )
    port = _free_port()
    log = (tmp_path / "daphne.log").open("wb")
    proc = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("daphne")),
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "config.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                if _get(f"{base}/healthz") == 200:
                    break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("daphne never answered:\n" + (tmp_path / "daphne.log").read_text()[-2000:])
        # Pages that query the database on every request (the lobby's rooms, a
        # player's page, a room page that writes the visitor's session).
        paths = ["/rooms/", "/leaderboard/players/pooled/", "/rooms/nosuchroom/", "/"] * 16
        peak = []
        stop = threading.Event()

        def watch():
            while not stop.is_set():
                peak.append(_backends(admin_url, name))
                time.sleep(0.05)

        watcher = threading.Thread(target=watch)
        watcher.start()
        with ThreadPoolExecutor(max_workers=64) as pool:
            statuses = list(pool.map(lambda p: _get(base + p), paths))
        stop.set()
        watcher.join()
        expected = [404 if "nosuchroom" in p else 200 for p in paths]
        assert statuses == expected, statuses
        assert "too many clients" not in (tmp_path / "daphne.log").read_text()
        assert max(peak) <= 4, peak  # the pool's bound, whatever the number of visitors
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        _fresh_database(admin_url, name, drop_only=True)
