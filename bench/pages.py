"""Pages under load, beside a bare Django view served the same way (issue 33).

    python bench/pages.py                                  # 64 clients, 60 s a side
    python bench/pages.py --concurrency 64 --duration 60 --tables 200
    python bench/pages.py --url http://127.0.0.1:8000      # a site already running (see below)

It starts the site in production mode (PostgreSQL, Redis, one Daphne process
and a Celery worker, as ``bench/load.py`` does) on a database of its own,
fills it with players, finished matches, their ledger and waiting rooms, and
drives it with C concurrent clients for D seconds over the home page, the
lobby, the leaderboard, a player's profile, a room page and a school lesson;
half the clients are signed in, half anonymous (each keeps its cookies and
one keep-alive connection, as a browser does). In the same run, the same
client drives the floor for D seconds: ``/bench-floor/``, the site's base
layout rendered by a view that makes no query, served by the same process
through the same middleware (``bench/pages_site``: the site's settings plus
that one URL), requested without a session. The two sides run in turns of
ten seconds so both meet the same machine.

``--tables T`` plays ``bench/load.py``'s T live tables (with its own floor)
on the same site while the pages are loaded; its last line is printed too.
``--pages-processes N`` serves the pages, and the floor with them, from N
Daphne processes of their own beside the tables' one (``scripts/serve.py
--pages N``, the README's proxy); client i asks process i mod N.

It prints per page p50/p95/p99 and errors, the ratio of requests a second
to the floor's (``ratio_rps=R``), and as its last line exactly:

    pages conc=C tables=T: requests/s=R p95_ms=P floor_p95_ms=F ratio_p95=Q errors=E

An error is an answer of 500 or more, any answer other than the page's
expected status, or a failed or dropped connection. With ``--url`` the site
must have been started with ``DJANGO_SETTINGS_MODULE=bench.pages_site.settings``
(for the floor) and the database must be the one ``--database-url`` names.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import (  # noqa: E402
    BIN,
    PY,
    Procs,
    drop_database,
    free_port,
    percentile,
    raise_fd_limit,
    reset_database,
    site_env,
    start_worker,
    wait_http,
)

SEGMENT_SECONDS = 10.0
FLOOR = "/bench-floor/"


# --- the data --------------------------------------------------------------------------------


def prepare(out: Path, players: int = 300, matches: int = 600, rooms: int = 40) -> None:
    """(in a subprocess with the site's settings) players with sessions, finished
    people-only matches with their ledger (the leaderboard's rows), and waiting
    public rooms (the lobby's rows); writes what the client needs to ``out``."""
    import django

    django.setup()
    from datetime import timedelta

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    from accounts.models import Profile
    from games.models import Match
    from leaderboard.models import LedgerEntry
    from rooms.models import Room, Seat

    User = get_user_model()
    rng = random.Random(7)
    run = get_random_string(4, "abcdefghijkmnpqrstuvwxyz")
    password = make_password("bench-password")
    users = User.objects.bulk_create(
        [User(username=f"{run}{i}", username_key=f"{run}{i}", password=password) for i in range(players)]
    )
    Profile.objects.bulk_create([Profile(user=u) for u in users], ignore_conflicts=True)
    store = SessionStore()
    expire = timezone.now() + timedelta(days=1)
    keys, sessions = [], []
    for user in users[:100]:
        key = get_random_string(32)
        data = {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: settings.AUTHENTICATION_BACKENDS[0],
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
        sessions.append(Session(session_key=key, session_data=store.encode(data), expire_date=expire))
        keys.append(key)
    Session.objects.bulk_create(sessions)
    rules = {"middle_card": False, "turn_seconds": 60}
    played = Room.objects.bulk_create(
        [Room(game="hokm4", rules=rules, creator=users[0], is_private=True) for _ in range(matches)]
    )
    now = timezone.now()
    done = [_finished(Match, room, rules, rng.sample(users, 4), now) for room in played]
    done = Match.objects.bulk_create(done)
    entries = []
    for match in done:
        win = rng.randint(0, 1)
        for p in match.players:
            won = p["seat"] % 2 == win
            entries.append(
                LedgerEntry(
                    user_id=p["user_id"],
                    match=match,
                    game="hokm4",
                    family="hokm",
                    seat=p["seat"],
                    points=7 if won else rng.randint(0, 6),
                    result=LedgerEntry.Result.WIN if won else LedgerEntry.Result.LOSS,
                )
            )
    LedgerEntry.objects.bulk_create(entries)
    waiting = Room.objects.bulk_create(
        [
            Room(
                game=rng.choice(["hokm4", "shelem4", "bridge"]), rules={}, creator=users[i], is_private=False
            )
            for i in range(rooms)
        ]
    )
    Seat.objects.bulk_create(
        [Seat(room=room, number=1, user=users[i], ready=False) for i, room in enumerate(waiting)]
        + [Seat(room=room, number=n) for room in waiting for n in range(2, 5)]
    )
    out.write_text(
        json.dumps({"sessions": keys, "player": users[1].username, "room": waiting[0].code, "lesson": 1})
    )


def _finished(Match, room, rules, four, now):
    return Match(
        room=room,
        game="hokm4",
        rules=rules,
        status=Match.Status.FINISHED,
        players=[
            {"seat": n, "user_id": u.pk, "username": u.username, "bot": False} for n, u in enumerate(four)
        ],
        finished_at=now,
    )


def pages_of(data: dict) -> list[tuple[str, str]]:
    """(name, path) of the pages every client cycles through."""
    return [
        ("home", "/"),
        ("lobby", "/rooms/"),
        ("leaderboard", "/leaderboard/"),
        ("profile", f"/leaderboard/players/{data['player']}/"),
        ("room", f"/rooms/{data['room']}/"),
        ("lesson", f"/school/{data['lesson']}/"),
    ]


# --- the client ------------------------------------------------------------------------------


class Samples:
    def __init__(self):
        self.times: dict[str, list[float]] = {}
        self.errors: dict[str, int] = {}
        self.kinds: dict[str, int] = {}
        self.driven = 0.0

    def add(self, page: str, ms: float) -> None:
        self.times.setdefault(page, []).append(ms)

    def error(self, page: str, kind: str) -> None:
        self.errors[page] = self.errors.get(page, 0) + 1
        self.kinds[kind] = self.kinds.get(kind, 0) + 1

    def all_times(self) -> list[float]:
        return [t for times in self.times.values() for t in times]

    def count(self) -> int:
        return sum(len(t) for t in self.times.values())


class Client:
    """One browser: one keep-alive connection and its own cookies."""

    def __init__(self, host: str, port: int, session: str | None):
        self.host, self.port = host, port
        self.cookies: dict[str, str] = {"sessionid": session} if session else {}
        self.reader = self.writer = None

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None

    async def get(self, path: str) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            "Accept: text/html\r\nAccept-Language: fa\r\n"
            + (f"Cookie: {cookie}\r\n" if cookie else "")
            + "\r\n"
        )
        self.writer.write(request.encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        length, chunked, close = None, False, False
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value.lower():
                chunked = True
            elif name == "connection" and value.lower() == "close":
                close = True
            elif name == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        if chunked:
            body = b""
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                body += chunk[:-2]
        elif length is not None:
            body = await self.reader.readexactly(length)
        else:
            body = await self.reader.read()
            close = True
        if close:
            await self.close()
        return status, body


async def drive(clients, pages, samples: Samples, seconds: float) -> None:
    """Every client requests its pages in turn, one at a time, for ``seconds``."""
    end = time.monotonic() + seconds

    async def one(i: int, client: Client) -> None:
        order = list(pages)
        random.Random(i).shuffle(order)
        k = 0
        while time.monotonic() < end:
            name, path, expected = order[k % len(order)]
            k += 1
            began = time.perf_counter()
            try:
                status, _ = await asyncio.wait_for(client.get(path), 30)
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
                samples.error(name, type(exc).__name__)
                await client.close()
                continue
            ms = (time.perf_counter() - began) * 1000
            if status != expected:
                samples.error(name, f"status {status}")
            else:
                samples.add(name, ms)

    began = time.monotonic()
    await asyncio.gather(*(one(i, c) for i, c in enumerate(clients)))
    samples.driven += time.monotonic() - began


def report(label: str, samples: Samples) -> dict:
    times = samples.all_times()
    out = {
        "requests_s": samples.count() / max(samples.driven, 1e-9),
        "p50": percentile(times, 50),
        "p95": percentile(times, 95),
        "p99": percentile(times, 99),
        "errors": sum(samples.errors.values()),
    }
    for page in sorted(set(samples.times) | set(samples.errors)):
        t = samples.times.get(page, [])
        print(
            f"{label} {page:<12} n={len(t):>6} p50_ms={percentile(t, 50):7.1f} p95_ms={percentile(t, 95):7.1f} "
            f"p99_ms={percentile(t, 99):7.1f} errors={samples.errors.get(page, 0)}",
            flush=True,
        )
    if samples.kinds:
        print(f"{label} errors by kind: {samples.kinds}", flush=True)
    print(
        f"{label} all: requests/s={out['requests_s']:.1f} p50_ms={out['p50']:.1f} p95_ms={out['p95']:.1f} "
        f"p99_ms={out['p99']:.1f} errors={out['errors']}",
        flush=True,
    )
    return out


# --- the run ---------------------------------------------------------------------------------


def start_site(args, procs: Procs) -> tuple[str, list[str], dict]:
    """The tables' process and the pages' processes (the same one unless ``--pages-processes``)."""
    env = {**site_env(args), "DJANGO_SETTINGS_MODULE": "bench.pages_site.settings"}
    if args.url:
        return args.url.rstrip("/"), [args.url.rstrip("/")], env
    reset_database(args.database_url)
    subprocess.run([PY, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    start_worker(procs, env)
    urls = []
    for i in range(1 + args.pages_processes):
        port = free_port()
        name = "daphne" if i == 0 else f"daphne-pages{i}"
        procs.start(
            name, [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"], env
        )
        urls.append(f"http://127.0.0.1:{port}")
    for url in urls:
        wait_http(f"{url}/healthz")
    return urls[0], urls[1:] or urls, env


def start_tables(args, url: str, logs: Path) -> subprocess.Popen | None:
    if not args.tables:
        return None
    duration = 2 * args.duration + 20
    cmd = [
        PY,
        str(ROOT / "bench" / "load.py"),
        "--url",
        url,
        "--tables",
        str(args.tables),
        "--think",
        args.think,
        "--duration",
        str(duration),
        "--database-url",
        args.database_url,
        "--redis-url",
        args.redis_url,
        "--logs",
        str(logs / "load"),
    ]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_driving(load: subprocess.Popen, lines: list[str], timeout: float = 300) -> None:
    """Until bench/load.py says its tables are started and driven."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        line = load.stdout.readline()
        if not line:
            raise SystemExit("bench/load.py ended before its tables were driven:\n" + "".join(lines[-20:]))
        lines.append(line)
        print(f"  [load] {line.rstrip()}", flush=True)
        if line.startswith("driving"):
            return
    raise SystemExit("bench/load.py's tables never started")


async def run(args, urls: list[str], data: dict) -> tuple[dict, dict]:
    """Client i asks the pages' process i mod their number (the floor's clients alike)."""
    where = [(urlsplit(u).hostname, urlsplit(u).port or 80) for u in urls]
    pages = [(name, path, 200) for name, path in pages_of(data)]
    sessions = data["sessions"]
    site_clients = [
        Client(*where[i % len(where)], sessions[i % len(sessions)] if i % 2 == 0 else None)
        for i in range(args.concurrency)
    ]
    floor_clients = [Client(*where[i % len(where)], None) for i in range(args.concurrency)]
    # Warm both (templates compiled, connections open, anonymous sessions made).
    await drive(site_clients, pages, Samples(), 3)
    await drive(floor_clients, [("floor", FLOOR, 200)], Samples(), 2)
    site, floor = Samples(), Samples()
    segments = max(1, round(args.duration / SEGMENT_SECONDS))
    for _ in range(segments):
        await drive(floor_clients, [("floor", FLOOR, 200)], floor, args.duration / segments)
        await drive(site_clients, pages, site, args.duration / segments)
    for c in site_clients + floor_clients:
        await c.close()
    return report("floor", floor), report("site ", site)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--duration", type=float, default=60, help="seconds of driving per side")
    parser.add_argument("--tables", type=int, default=0, help="bench/load.py's live tables meanwhile")
    parser.add_argument("--think", default="2-5", help="the tables' think time (bench/load.py)")
    parser.add_argument(
        "--pages-processes",
        type=int,
        default=0,
        help="Daphne processes of their own for the pages and the floor (0: the tables' process)",
    )
    parser.add_argument("--url", default="")
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "BENCH_DATABASE_URL", "postgres://takhteh:takhteh@127.0.0.1:5432/takhteh_bench_pages"
        ),
    )
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13"))
    parser.add_argument("--logs", default=str(ROOT / "artifacts" / "pages"))
    parser.add_argument("--drop", action="store_true", help="drop the benchmark's database at the end")
    parser.add_argument("--prepare", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.prepare:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.pages_site.settings")
        prepare(Path(args.prepare))
        return
    raise_fd_limit()
    logs = Path(args.logs)
    logs.mkdir(parents=True, exist_ok=True)
    procs = Procs(logs)
    load = None
    load_lines: list[str] = []
    try:
        url, page_urls, env = start_site(args, procs)
        layout = logs / "pages.json"
        subprocess.run([PY, __file__, "--prepare", str(layout)], cwd=ROOT, env=env, check=True)
        data = json.loads(layout.read_text())
        load = start_tables(args, url, logs)
        if load is not None:
            wait_driving(load, load_lines)
        floor, site = asyncio.run(run(args, page_urls, data))
        if load is not None:
            for line in load.stdout:
                load_lines.append(line)
                print(f"  [load] {line.rstrip()}", flush=True)
            load.wait()
    finally:
        if load is not None and load.poll() is None:
            load.terminate()
        procs.stop()
        if args.drop and not args.url:
            drop_database(args.database_url)
    last_load = next((line for line in reversed(load_lines) if line.startswith("load tables=")), "")
    if last_load:
        print(last_load.rstrip(), flush=True)
    print(f"ratio_rps={site['requests_s'] / floor['requests_s']:.2f}", flush=True)
    print(
        f"ratios to the floor: p95 {site['p95'] / floor['p95']:.2f}x, "
        f"requests/s {site['requests_s'] / floor['requests_s']:.2f}x; load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    print(
        f"pages conc={args.concurrency} tables={args.tables}: requests/s={site['requests_s']:.1f} "
        f"p95_ms={site['p95']:.1f} floor_p95_ms={floor['p95']:.1f} ratio_p95={site['p95'] / floor['p95']:.2f} "
        f"errors={site['errors'] + floor['errors']}"
    )


if __name__ == "__main__":
    main()
