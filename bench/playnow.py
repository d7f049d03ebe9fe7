"""Play now under arrivals (M-1): people press "Play now" and wait to play.

    DATABASE_URL=postgres://user:pass@host/anything python bench/playnow.py
    python bench/playnow.py --people 400 --over 60 --wait 20 --presets hokm4,hokm2

In-process: the site's own services (``playnow.services.press``, the bot
fill's per-table timers and the sweep) on a database of its own (created
beside DATABASE_URL's, dropped at the end), with each press on a pool of
worker threads as a server's requests would be, and each person's wait
measured from his press until his table's match started (people only, or
with bots after ``--wait`` seconds). Arrivals are a Poisson process:
``--people`` over ``--over`` seconds. Moves are not played (no server loop
runs the matches' clocks): the benchmark measures the seating, not the game.

The last line is exactly:

    playnow people=N seated=S median_wait_s=W p95_wait_s=X tables=T bots_seats=B errors=E
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MIX = {"hokm4": 0.45, "hokm2": 0.15, "shelem4": 0.15, "shelem2": 0.1, "bridge": 0.15}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--people", type=int, default=400)
    parser.add_argument("--over", type=float, default=60.0, help="seconds over which they arrive")
    parser.add_argument("--wait", type=float, default=20.0, help="PLAY_NOW_BOT_WAIT")
    parser.add_argument("--presets", default=",".join(MIX), help="comma-separated presets (a mix by default)")
    parser.add_argument("--workers", type=int, default=8, help="request threads")
    parser.add_argument("--seed", type=int, default=36)
    args = parser.parse_args()

    base = os.environ.get("DATABASE_URL")
    if not base:
        raise SystemExit("DATABASE_URL is needed (PostgreSQL: the row locks are the point)")
    name = f"bench_playnow_{os.getpid()}"
    url = base.rsplit("/", 1)[0] + "/" + name
    _create(url, name)
    os.environ.update(
        DATABASE_URL=url,
        DJANGO_SETTINGS_MODULE="config.settings",
        SECRET_KEY=os.environ.get("SECRET_KEY", "bench-playnow-secret-key-not-for-a-real-site-0123456789"),
        SITE_HTTPS="false",
        DEBUG="false",
        DEADLINES="inprocess",
        PLAY_NOW_BOT_WAIT=str(args.wait),
        PLAY_NOW_TIMERS="true",
        FAIR_WAIT_SECONDS="0",
        LOG_LEVEL="ERROR",
    )
    os.environ.pop("REDIS_URL", None)
    try:
        line = run(args)
    finally:
        _drop(url, name)
    print(line)


def _create(url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def _drop(url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run(args) -> str:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    from playnow import services, sweeper
    from playnow.models import Table
    from rooms.models import Room, Seat

    rng = random.Random(args.seed)
    keys = [k for k in args.presets.split(",") if k]
    weights = [MIX.get(k, 1.0) for k in keys]
    User = get_user_model()
    password = make_password("bench-password")
    users = User.objects.bulk_create(
        [User(username=f"pn{i}", username_key=f"pn{i}", password=password) for i in range(args.people)]
    )
    arrivals, t = [], 0.0
    rate = args.people / args.over
    for _ in range(args.people):
        t += rng.expovariate(rate)
        arrivals.append(t)
    scale = min(1.0, args.over / arrivals[-1])  # exactly ``people`` within ``over`` seconds
    arrivals = [a * scale for a in arrivals]
    chosen = [rng.choices(keys, weights)[0] for _ in users]

    pressed: dict[int, float] = {}
    seated_at: dict[int, float] = {}
    errors: list[str] = []
    lock = threading.Lock()
    done = threading.Event()

    def press(user, key):
        try:
            with lock:
                pressed[user.pk] = time.monotonic()
            services.press(user, key)
        except Exception as exc:  # noqa: BLE001 - counted
            errors.append(f"{type(exc).__name__}: {exc}")
            with lock:
                pressed.pop(user.pk, None)
        finally:
            connection.close()

    def monitor():
        # The waiting pages, all at once: who of those waiting now sits at a started match.
        while not done.is_set():
            with lock:
                waiting = [pk for pk in pressed if pk not in seated_at]
            if waiting:
                started = set(
                    Seat.objects.filter(user_id__in=waiting, room__status=Room.Status.PLAYING).values_list(
                        "user_id", flat=True
                    )
                )
                now = time.monotonic()
                with lock:
                    for pk in started:
                        seated_at.setdefault(pk, now)
            time.sleep(0.2)
        connection.close()

    watcher = threading.Thread(target=monitor, daemon=True)
    watcher.start()
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=args.workers) as pool:
        for user, key, at in zip(users, chosen, arrivals, strict=True):
            delay = start + at - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            pool.submit(press, user, key)
    deadline = time.monotonic() + args.wait + 30
    while time.monotonic() < deadline:
        with lock:
            if len(seated_at) >= len(pressed):
                break
        time.sleep(0.2)
    done.set()
    watcher.join()
    sweeper.stop()
    waits = sorted(seated_at[pk] - pressed[pk] for pk in seated_at)
    seats = Seat.objects.filter(room__playnow__isnull=False)
    doubled = (
        seats.filter(user__isnull=False).values("user_id").count()
        - seats.filter(user__isnull=False).values("user_id").distinct().count()
    )
    tables = Table.objects.count()
    bots = seats.filter(is_bot=True).count()
    for message in sorted(set(errors))[:5]:
        print("error:", message, file=sys.stderr)
    p95 = waits[max(0, int(round(0.95 * len(waits))) - 1)] if waits else float("nan")
    median = statistics.median(waits) if waits else float("nan")
    connection.close()
    return (
        f"playnow people={args.people} seated={len(seated_at)} median_wait_s={median:.1f} "
        f"p95_wait_s={p95:.1f} tables={tables} bots_seats={bots} errors={len(errors) + doubled}"
    )


if __name__ == "__main__":
    main()
