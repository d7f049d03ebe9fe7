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
import hashlib
import json
import os
import random
import resource
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import orjson  # the client's JSON, the same for the site and the floor (the client shares their machine)

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
BIN = Path(sys.executable).parent
ROUND_PAUSE = 1.0


# --- processes -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def site_env(args) -> dict:
    return {
        **os.environ,
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "SECRET_KEY": "bench-load-secret-key-not-for-a-real-site-0123456789abcdef",
        "SITE_HTTPS": "false",
        "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DEADLINES": "celery",
        "ROUND_PAUSE": str(ROUND_PAUSE),
        # A person sends a few frames a second; the benchmark's seats, with no
        # think time, play as fast as frames come back. The flood guard (8 a
        # second per socket, a burst of 40) is lifted for them: the floor has
        # none, and a refused card would wait for its turn's clock.
        "FRAME_RATE": "10000",
        "FRAME_BURST": "10000",
        "CHANNEL_PREFIX": f"bench{os.getpid()}",
        "CACHE_PREFIX": f"bench{os.getpid()}",
        "CELERY_QUEUE": f"bench{os.getpid()}",
        "LOG_LEVEL": "ERROR",
        "PYTHONUNBUFFERED": "1",
    }


def wait_http(url: str, timeout: float = 60) -> None:
    end = time.time() + timeout
    while time.time() < end:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status < 500:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"nothing answers at {url}")


class Procs:
    def __init__(self, logdir: Path):
        self.procs: list[tuple[str, subprocess.Popen]] = []
        self.logdir = logdir
        logdir.mkdir(parents=True, exist_ok=True)

    def start(self, name: str, cmd: list[str], env: dict) -> subprocess.Popen:
        log = (self.logdir / f"{name}.log").open("w")
        proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=raise_fd_limit,
        )
        self.procs.append((name, proc))
        return proc

    def rss_mb(self, name_prefix: str) -> float:
        total = 0
        for name, proc in self.procs:
            if name.startswith(name_prefix):
                total += _rss_tree(proc.pid)
        return total / 1024

    def stop(self) -> None:
        for _name, proc in self.procs:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for _name, proc in self.procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


DAPHNE_FLAGS = ["--websocket_connect_timeout", "60"]
"""As docs/operations.md runs Daphne: its default drops a socket whose
handshake the application has not accepted within 5 s, and a thousand
tables arriving at once (or a restart's reconnections) queue longer than
that for their sessions and users: the pages retry, and add to the queue."""


def daphne_cmd(port: int) -> list[str]:
    return [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), *DAPHNE_FLAGS, "config.asgi:application"]


def start_worker(procs: Procs, env: dict) -> subprocess.Popen:
    """One Celery worker (the deadline ticker) on the run's own queue."""
    cmd = [
        str(BIN / "celery"),
        "-A",
        "config",
        "worker",
        "-l",
        "warning",
        "-c",
        "1",
        "-Q",
        env["CELERY_QUEUE"],
    ]
    return procs.start("worker", [*cmd, "--without-gossip", "--without-mingle"], env)


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _rss_tree(pid: int) -> int:
    """RSS of a process and its children (a Celery worker's pool), in KiB."""
    total = _rss_kb(pid)
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    return total + sum(_rss_tree(int(c)) for c in children)


class CpuMeter:
    """CPU time (user + system) of the processes that serve the moves, over
    the drive: the run's own server processes (with their children), the
    PostgreSQL backends of ``database`` (none for the floor), the Redis
    server and this client. Divided by the moves it is the cost of a move
    per process, a figure that holds better than moves per second on a
    shared, noisy machine (the other work slows everything, not the count of
    CPU seconds a move needs)."""

    TICK = os.sysconf("SC_CLK_TCK")

    def __init__(self, procs: Procs, database: str | None):
        self.procs = procs
        self.database = database
        self.start: dict[str, float] | None = None
        self.total: dict[str, float] = {}

    @classmethod
    def _cpu(cls, pid: int) -> float:
        try:
            parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(parts[11]) + int(parts[12])) / cls.TICK

    @classmethod
    def _tree(cls, pid: int) -> float:
        try:
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            children = []
        return cls._cpu(pid) + sum(cls._tree(int(c)) for c in children)

    def sample(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for name, proc in self.procs.procs:
            key = name.rstrip("0123456789") or name
            out[key] = out.get(key, 0.0) + self._tree(proc.pid)
        out["postgres"] = out["redis"] = 0.0
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if self.database and cmd.startswith("postgres:") and f" {self.database} " in cmd:
                out["postgres"] += self._cpu(int(pid))
            elif cmd.startswith("redis-server"):
                out["redis"] += self._cpu(int(pid))
        out["client"] = self._cpu(os.getpid())
        return out

    def begin(self) -> None:
        self.start = self.sample()

    def end(self) -> None:
        """Add the CPU time since ``begin`` to this meter's total (a side is
        driven in several segments, the other side's between them)."""
        now = self.sample()
        for key, value in now.items():
            self.total[key] = self.total.get(key, 0.0) + value - self.start.get(key, value)
        self.start = None

    def report(self, name: str, moves: int) -> dict[str, float]:
        """CPU milliseconds per move of each kind of process over the segments measured, printed on one line."""
        if self.start is not None:
            self.end()
        per = {k: v * 1000 / max(1, moves) for k, v in self.total.items()}
        per["total"] = sum(per.values())
        print(
            f"{name:6} cpu ms per move: " + " ".join(f"{k}={v:.2f}" for k, v in per.items()),
            flush=True,
        )
        return per


class Counters:
    """The site's own counters (``/metrics``, ops/metrics.py) and CPU seconds of
    its processes, read at the phases' edges: what one arrival (a socket's
    handshake, session, user and greeting) and one table's start cost, in
    database and Redis round trips and CPU, however slow the shared machine is
    that hour. Empty without metrics (``METRICS=off``) or with ``--url``."""

    NAMES = {
        'takhteh_db_round_trips_total{path="orm"}': "db_orm",
        'takhteh_db_round_trips_total{path="loop"}': "db_loop",
        "takhteh_redis_round_trips_total": "redis",
        "takhteh_fair_substitutes_total": "substitutes",
    }

    def __init__(self, procs: Procs, ports: list[int]):
        self.procs, self.ports = procs, ports

    def read(self) -> dict[str, float]:
        if not self.ports:
            return {}
        out: dict[str, float] = {}
        for port in self.ports:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
                    text = r.read().decode()
            except OSError:
                text = ""
            for line in text.splitlines():
                key, _, value = line.rpartition(" ")
                if key in self.NAMES:
                    out[self.NAMES[key]] = out.get(self.NAMES[key], 0.0) + float(value)
        cpu = CpuMeter(self.procs, None)
        out["daphne_cpu"] = sum(cpu._tree(p.pid) for name, p in self.procs.procs if name.startswith("daphne"))
        out["worker_cpu"] = sum(cpu._tree(p.pid) for name, p in self.procs.procs if name == "worker")
        return out

    @staticmethod
    def per(label: str, before: dict, after: dict, count: int) -> str:
        """One line: the difference of each counter divided by ``count``."""
        if not before or not after or not count:
            return f"{label}: no counters (a site not started here)"
        d = {k: (after[k] - before.get(k, 0.0)) / count for k in after}
        cpu = f"cpu ms daphne {d['daphne_cpu'] * 1000:.1f} worker {d['worker_cpu'] * 1000:.1f}"
        if "db_orm" not in d:
            return f"{label}: {cpu} (round trips not counted: metrics off)"
        return (
            f"{label}: db round trips {d['db_orm'] + d.get('db_loop', 0.0):.1f} (orm {d['db_orm']:.1f}, loop "
            f"{d.get('db_loop', 0.0):.1f}), redis {d.get('redis', 0.0):.1f}, {cpu}, "
            f"fair substitutes {d.get('substitutes', 0.0) * count:.0f}"
        )


# --- the site's tables -----------------------------------------------------------------------


def prepare(tables: int, out: Path, bot_tables: int = 0, bot_level: str = "strong") -> None:
    """(in a subprocess with the site's settings) bulk-create accounts,
    sessions and rooms, every seat taken and ready (the creators start the
    matches over their sockets), write the tables to ``out``.
    ``bot_tables`` more tables seat one account and three bots of ``bot_level``
    (bench/bot_lag.py); they come last, with one session each."""
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
    from rooms.models import Room, Seat

    User = get_user_model()
    run = get_random_string(5, "abcdefghijkmnpqrstuvwxyz")
    password = make_password("bench-password")
    users = User.objects.bulk_create(
        [
            User(username=f"{run}{i}", username_key=f"{run}{i}", password=password)
            for i in range(tables * 4 + bot_tables)
        ]
    )
    Profile.objects.bulk_create([Profile(user=u) for u in users], ignore_conflicts=True)
    store = SessionStore()
    expire = timezone.now() + timedelta(days=1)
    keys, sessions = [], []
    for user in users:
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
    rooms = Room.objects.bulk_create(
        [Room(game="hokm4", rules=rules, creator=users[4 * t], is_private=True) for t in range(tables)]
    )
    Seat.objects.bulk_create(
        [
            Seat(room=room, number=n, user=users[4 * t + n - 1], ready=True)
            for t, room in enumerate(rooms)
            for n in range(1, 5)
        ]
    )
    hosts = users[4 * tables :]
    bot_rooms = Room.objects.bulk_create(
        [Room(game="hokm4", rules=rules, creator=host, is_private=True) for host in hosts]
    )
    Seat.objects.bulk_create(
        [
            Seat(room=room, number=1, user=host, ready=True)
            for room, host in zip(bot_rooms, hosts, strict=True)
        ]
        + [
            Seat(room=room, number=n, is_bot=True, ready=True, bot_level=bot_level)
            for room in bot_rooms
            for n in range(2, 5)
        ]
    )
    layout = [{"code": r.code, "sessions": keys[4 * t : 4 * t + 4]} for t, r in enumerate(rooms)]
    layout += [
        {"code": r.code, "sessions": [keys[4 * tables + b]], "bots": True} for b, r in enumerate(bot_rooms)
    ]
    out.write_text(json.dumps(layout))


def reset_database(url: str) -> None:
    from urllib.parse import urlparse

    import psycopg

    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --- the client --------------------------------------------------------------------------------


class Stats:
    def __init__(self):
        self.latencies: list[float] = []
        self.sent_at: list[float] = []  # perf_counter when each measured action was sent
        self.moves = 0
        self.errors: dict[str, int] = {}
        self.stalled: set[int] = set()
        self.error_at: list[float] = []  # perf_counter of each error
        # With ``--dump PATH``: every measured move as [sent (epoch s), latency (s), table,
        # version, the event types of the frame that completed it] (when and where slow moves happen).
        self.log: list | None = None

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1
        self.error_at.append(time.perf_counter())


class Table:
    connect_seats = (0, 1, 2, 3)
    fresh: set | None = None  # the seats that had a state frame since Site.reconnect began

    def __init__(self, index: int, stats: Stats, think: tuple[float, float], rng: random.Random):
        self.index = index
        self.stats = stats
        self.think = think
        self.rng = rng
        self.sockets: list = [None] * 4
        self.seen = [-1] * 4
        self.match = None
        self.pending: dict[int, float] = {}  # version an action was sent at -> when
        self.acting_for: tuple | None = None
        self.rematched: set = set()
        self.progress = time.monotonic()
        self.started_at: float | None = None  # when every connected seat first had the table
        self.running = False  # driven in segments (Side.drive): paused between them
        self.paused_at: float | None = None
        self.driven = False
        self.fair_values: dict = {}  # ((match, round), seat index) -> the value committed to
        self.fair_revealed: set = set()  # ((match, round), seat index) whose value was sent
        self.latest: list = [None] * 4  # per seat: the last state frame
        self.greeted: set = set()  # seats that have had their greeting (the room frame)
        self.all_greeted: asyncio.Event | None = None  # set once every seat has had it

    def greeted_event(self) -> asyncio.Event:
        if self.all_greeted is None:
            self.all_greeted = asyncio.Event()
        return self.all_greeted

    async def think_then(self, coro_fn):
        low, high = self.think
        if high > 0:
            await asyncio.sleep(self.rng.uniform(low, high))
        await coro_fn()

    def state_of(self, text: str, seat: int | None = None) -> dict | None:
        """The state frame in ``text``, or None (an error frame is counted)."""
        frame = orjson.loads(text)
        kind = frame.get("type")
        if kind == "state" and self.fresh is not None and seat is not None:
            self.fresh.add(seat)  # reconnected and resynced (Site.reconnect)
        if kind == "room" and seat is not None:
            self.greeted.add(seat)
            if len(self.greeted) == len(self.connect_seats):
                self.greeted_event().set()
        elif kind == "error":
            self.stats.error(frame.get("code", "?"))
        elif kind == "fair_state":
            self.fair(frame)
        return frame if kind == "state" else None

    def fair(self, frame: dict) -> None:
        """F-1/F-2, as a browser does: each seat of this table sends its
        fingerprint, then its value, once each per round (so a deal waits for
        the last value, not for the substitutes' deadline). The table's
        ``fair_state`` frames may arrive out of order; a seat's value, once
        made, is kept for the round, as the page keeps it (static/js/table/fair.js)."""
        key = (frame.get("match"), frame.get("round"))
        for i in self.connect_seats:
            if self.sockets[i] is None:
                continue
            value = self.fair_values.get((key, i))
            if frame.get("phase") == "commit" and frame["commitments"][i] is None and value is None:
                value = self.fair_values[(key, i)] = secrets.token_hex(32)
                commitment = hashlib.sha256(bytes.fromhex(value)).hexdigest()
                asyncio.ensure_future(
                    self.send(i, {"type": "fair_commit", "round": key[1], "commitment": commitment})
                )
            elif frame.get("phase") == "reveal" and value is not None and (key, i) not in self.fair_revealed:
                self.fair_revealed.add((key, i))
                asyncio.ensure_future(self.send(i, {"type": "fair_reveal", "round": key[1], "value": value}))

    def rematch_if_finished(self, seat: int, frame: dict) -> bool:
        """A finished match: this seat agrees to play again (once)."""
        if frame["status"] != "finished" or (self.match, seat) in self.rematched:
            return False
        self.rematched.add((self.match, seat))
        asyncio.ensure_future(self.send(seat, {"type": "rematch", "agree": True}))
        return True

    def frame(self, seat: int, text: str) -> None:
        frame = self.state_of(text, seat)
        if frame is None:
            return
        if frame["match"] != self.match:
            self.match, self.seen, self.pending, self.acting_for = frame["match"], [-1] * 4, {}, None
        if frame["v"] < self.seen[seat]:
            return  # older than what this seat has (a page ignores it too)
        self.seen[seat] = frame["v"]
        self.latest[seat] = frame
        begins = self.started_at is None and min(self.seen) >= 0
        if begins:
            self.started_at = self.progress = time.monotonic()
        everyone = min(self.seen)
        for v in [v for v in self.pending if v < everyone]:
            # every seat of the table has a version after the one the action was sent at
            sent = self.pending.pop(v)
            self.stats.latencies.append(time.perf_counter() - sent)
            self.stats.sent_at.append(sent)
            self.stats.moves += 1
            self.progress = time.monotonic()
            if self.stats.log is not None:
                late = self.stats.latencies[-1]
                self.stats.log.append(
                    [
                        time.time() - late,
                        late,
                        self.index,
                        v,
                        [e.get("type") for e in frame.get("events") or []],
                    ]
                )
        if not self.running:
            return
        if self.rematch_if_finished(seat, frame):
            return
        if self.started_at is None:
            return  # a table plays once its four seats are there (a seat not yet connected sees no move)
        if begins:  # the last seat arrived: whoever was already to act acts now
            for other in range(4):
                if other != seat and self.latest[other] is not None:
                    self.act_on(other, self.latest[other])
        self.act_on(seat, frame)

    def last_seen(self) -> list:
        """Per seat: its last state frame's (v, status, legal actions, deadlines), for a stall's report."""
        return [
            (f["v"], f["status"], len(f["view"].get("legal") or []), f["deadlines"]) if f else None
            for f in self.latest
        ]

    def act_on(self, seat: int, frame: dict) -> None:
        """``seat`` plays a random legal action of ``frame`` after the think time,
        if it is this seat's newest frame and nobody acted on this version yet."""
        legal = frame["view"].get("legal") or []
        key = (frame["match"], frame["v"])
        if frame["status"] == "active" and legal and frame["v"] == self.seen[seat] and self.acting_for != key:
            self.acting_for = key
            action = self.rng.choice(legal)

            async def act(v=frame["v"]):
                if not self.running:
                    if self.acting_for == key:
                        self.acting_for = None  # acted on when the table is driven again (kick)
                    return
                if self.seen[seat] != v:
                    return  # the table moved on meanwhile (a clock's move)
                self.pending[v] = time.perf_counter()
                await self.send(seat, {"type": "act", "action": action, "v": v})

            asyncio.ensure_future(self.think_then(act))

    def pause(self, now: float) -> None:
        self.running = False
        self.paused_at = now

    def resume(self, now: float) -> None:
        """Driven again: the time paused is no stall, and whoever is to act acts."""
        if self.paused_at is not None:
            self.progress += now - self.paused_at
            self.paused_at = None
        elif not self.driven:
            self.progress = now  # its first turn: the stall clock starts now
        self.driven = True
        self.running = True
        self.kick()

    def kick(self) -> None:
        if self.started_at is None:
            return
        for seat, frame in enumerate(self.latest):
            if frame is not None and not self.rematch_if_finished(seat, frame):
                self.act_on(seat, frame)

    async def send(self, seat: int, frame: dict) -> None:
        ws = self.sockets[seat]
        if ws is not None:
            try:
                await ws.send(orjson.dumps(frame).decode())
            except Exception:  # noqa: BLE001 - counted as an error of the table
                self.stats.error("send_failed")


class BotTable(Table):
    """A table of one account and three bots (bench/bot_lag.py): only seat 1
    connects; it plays at once and counts every version the table makes."""

    connect_seats = (0,)

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.versions = 0
        self.last_v = None

    def frame(self, seat: int, text: str) -> None:
        frame = self.state_of(text, seat)
        if frame is None:
            return
        if frame["match"] != self.match:
            self.match, self.last_v, self.acting_for = frame["match"], None, None
        self.latest[seat] = frame
        if self.last_v is not None and frame["v"] > self.last_v:
            self.versions += frame["v"] - self.last_v
            self.progress = time.monotonic()
        self.last_v = max(self.last_v or 0, frame["v"])
        if self.started_at is None:
            self.started_at = self.progress = time.monotonic()
        if not self.running:
            return
        if self.rematch_if_finished(seat, frame):
            return
        self.act_on(seat, frame)

    def act_on(self, seat: int, frame: dict) -> None:
        legal = frame["view"].get("legal") or []
        key = (frame["match"], frame["v"])
        if frame["status"] == "active" and legal and self.acting_for != key:
            self.acting_for = key
            asyncio.ensure_future(
                self.send(seat, {"type": "act", "action": self.rng.choice(legal), "v": frame["v"]})
            )


class FloorTable(Table):
    """The same client against the floor: one message per move, rotating among the seats."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.seq = 0
        self.turn = 0
        self.started_at = time.monotonic()  # no greeting: it starts with its first message

    def frame(self, seat: int, text: str) -> None:
        frame = orjson.loads(text)
        self.seen[seat] = max(self.seen[seat], frame["seq"])
        if self.seq in self.pending and min(self.seen) >= self.seq:
            sent = self.pending.pop(self.seq)
            self.stats.latencies.append(time.perf_counter() - sent)
            self.stats.sent_at.append(sent)
            self.stats.moves += 1
            self.progress = time.monotonic()
            self.start_next()

    def kick(self) -> None:
        if not self.pending:  # no move of this table in flight
            self.start_next()

    def start_next(self) -> None:
        if not self.running:
            return
        self.seq += 1
        self.turn = (self.turn + 1) % 4
        seq, turn = self.seq, self.turn

        async def act():
            if not self.running:
                return  # paused during the think time: kicked again with the next segment
            self.pending[seq] = time.perf_counter()
            await self.send(turn, {"seq": seq, "from": turn, "pad": "x" * 64})

        asyncio.ensure_future(self.think_then(act))


async def connect_all(tables, urls_for, headers_for, stats, concurrency=64, on_table=None) -> float:
    """Every seat's socket, ``concurrency`` handshakes at a time; ``on_table(table)``
    once each table's seats are all connected."""
    import websockets

    gate = asyncio.Semaphore(concurrency)
    started = time.perf_counter()
    ready = []
    waiting = {id(t): len(t.connect_seats) for t in tables}

    async def one(table, seat):
        async with gate:
            try:
                ws = await websockets.connect(
                    urls_for(table, seat),
                    additional_headers=headers_for(table, seat),
                    max_size=2**22,
                    open_timeout=120,
                    ping_interval=None,
                    close_timeout=1,
                )
            except Exception as exc:  # noqa: BLE001
                stats.error(f"connect:{type(exc).__name__}")
                return
        table.sockets[seat] = ws
        ready.append(asyncio.ensure_future(reader(table, seat, ws, stats)))
        waiting[id(table)] -= 1
        if waiting[id(table)] == 0 and on_table is not None:
            on_table(table)

    await asyncio.gather(*(one(t, s) for t in tables for s in t.connect_seats))
    return time.perf_counter() - started


async def reader(table, seat, ws, stats):
    try:
        async for text in ws:
            table.frame(seat, text)
    except Exception:  # noqa: BLE001
        if table.running:
            stats.error("socket_dropped")


START_RATE = 15.0
"""Tables whose creators press start in one second at most (``--start-rate``):
a burst (a real site's matches begin over minutes). Each start opens a fair
deal whose four fingerprints and four values must come within
FAIR_WAIT_SECONDS (4 s, F-4); 20 to 50 starts a second on one process of this
2-core machine, beside the others' greetings, had many come late (substitutes);
10 a second had none, and 200 tables took 34 s to connect and start."""

START_LIMIT = 30.0
"""Seconds of driving within which every table must have started (each of
its seats has had the table's state): else it counts as stalled."""


class Beats:
    """Pages' heartbeats: a ping every ``every`` seconds from the moment a table's
    sockets are open, each at a phase of its own (pages are opened at different
    moments: the pings are spread over the period, not sent in a burst at the same
    instant). Started only once the drive began, a socket that connected a minute
    earlier looked gone (R-7: no heartbeat for twice the period), and its first
    ping changed its room's presence: every room at once. While another side is
    driven they pause (``on``), as the tables do."""

    def __init__(self, every: float):
        self.every = every
        self.on = True
        self.tasks: list[asyncio.Future] = []

    def start(self, table) -> None:
        self.tasks += [asyncio.ensure_future(self._beat(table, seat)) for seat in table.connect_seats]

    async def _beat(self, table, seat: int) -> None:
        # the golden ratio spreads them evenly
        await asyncio.sleep((table.index * 4 + seat) * 0.618034 % 1.0 * self.every)
        while True:
            if self.on:
                await table.send(seat, {"type": "ping"})
            await asyncio.sleep(self.every)

    def stop(self) -> None:
        for task in self.tasks:
            task.cancel()


class Side:
    """One server under the client: its tables, their stats and the CPU its
    processes spent, over the segments it was driven. The floor and the site
    are driven in turns, a segment each (``drive``): the machine's speed
    drifts by a fifth within minutes here, and two long runs one after the
    other measured the drift as much as the servers."""

    def __init__(self, name, tables, stats, meter, stall_after, beats: Beats | None = None):
        self.name = name
        self.tables = tables
        self.stats = stats
        self.meter = meter
        self.stall_after = stall_after
        self.beats = beats
        self.driven = 0.0  # seconds

    async def drive(self, seconds: float) -> None:
        """Run the tables for ``seconds``, then pause them. A table's stall
        clock counts only the time it was driven, from its start (every seat
        has had its first state: the greeting of 800 sockets arriving at once
        is the start-up, reported on its own); a table that has not started
        ``START_LIMIT`` seconds of driving in is stalled."""
        began = time.monotonic()
        self.meter.begin()
        for t in self.tables:
            t.resume(began)
        if self.beats is not None:
            self.beats.on = True
        end = began + seconds
        while (now := time.monotonic()) < end:
            await asyncio.sleep(min(1.0, end - now))
            now = time.monotonic()
            for t in self.tables:
                if t.index in t.stats.stalled:
                    continue
                if t.started_at is None:
                    late = self.driven + now - began > START_LIMIT
                else:
                    late = now - t.progress > self.stall_after
                if late:
                    t.stats.stalled.add(t.index)
                    print(
                        f"stalled: {self.name} table {t.index} seen={t.seen} last={t.last_seen()}", flush=True
                    )
        if self.beats is not None:
            self.beats.on = False
        paused = time.monotonic()
        for t in self.tables:
            t.pause(paused)
        self.meter.end()
        self.driven += paused - began


async def drive_in_turns(sides: list[Side], duration: float, segments: int) -> None:
    """Each side ``duration`` seconds in all, in ``segments`` turns."""
    for _ in range(segments):
        for side in sides:
            await side.drive(duration / segments)


async def close_all(tables):
    await asyncio.gather(
        *(ws.close() for t in tables for ws in t.sockets if ws is not None), return_exceptions=True
    )


def percentile(values, q) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))
    return values[k]


def summary(name: str, stats: Stats, elapsed: float) -> dict:
    ms = [v * 1000 for v in stats.latencies]
    out = {
        "moves": stats.moves,
        "moves_s": stats.moves / elapsed if elapsed else 0,
        "p50": percentile(ms, 50),
        "p90": percentile(ms, 90),
        "p99": percentile(ms, 99),
        "max": max(ms) if ms else float("nan"),
        "stalls": len(stats.stalled),
        "errors": sum(stats.errors.values()),
    }
    print(
        f"{name:6} moves={out['moves']} moves/s={out['moves_s']:.1f} p50={out['p50']:.1f} p90={out['p90']:.1f} "
        f"p99={out['p99']:.1f} max={out['max']:.1f} ms stalls={out['stalls']} errors={stats.errors or 0}",
        flush=True,
    )
    if stats.sent_at and elapsed > 2 * STEADY_AFTER:
        # The same moves without the start-up (every socket's greeting, every table's first deal).
        first = min(stats.sent_at)
        steady = [
            v * 1000 for v, t in zip(stats.latencies, stats.sent_at, strict=True) if t - first >= STEADY_AFTER
        ]
        late_errors = sum(1 for t in stats.error_at if t - first >= STEADY_AFTER)
        out.update(
            steady_p50=percentile(steady, 50),
            steady_p99=percentile(steady, STEADY_Q),
            steady_errors=late_errors,
        )
        print(
            f"{name:6} after the first {STEADY_AFTER:.0f} s: moves={len(steady)} p50={out['steady_p50']:.1f} "
            f"p90={percentile(steady, 90):.1f} p99={out['steady_p99']:.1f} ms errors={late_errors}",
            flush=True,
        )
    return out


STEADY_AFTER = 30.0
STEADY_Q = 99


# --- the runs ------------------------------------------------------------------------------


class Floor:
    """The bare Channels app under the client (bench/floor)."""

    def __init__(self, args, think):
        self.args, self.think = args, think
        self.procs = Procs(Path(args.logs))

    async def open(self) -> Side:
        args = self.args
        port = free_port()
        env = {**os.environ, "REDIS_URL": args.redis_url, "DJANGO_SETTINGS_MODULE": "bench.floor.settings"}
        self.procs.start(
            "floor",
            [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "bench.floor.asgi:application"],
            env,
        )
        wait_http(f"http://127.0.0.1:{port}/")
        stats = Stats()
        rng = random.Random(1)
        self.tables = [FloorTable(i, stats, self.think, rng) for i in range(args.tables)]
        await connect_all(
            self.tables, lambda t, s: f"ws://127.0.0.1:{port}/ws/floor/t{t.index}/", lambda t, s: {}, stats
        )
        self.side = Side("floor", self.tables, stats, CpuMeter(self.procs, None), self.think[1] + 5)
        return self.side

    def summary(self) -> dict:
        side = self.side
        out = summary("floor", side.stats, side.driven)
        out["cpu_ms"] = side.meter.report("floor", side.stats.moves)
        out["rss_mb"] = self.procs.rss_mb("floor")
        return out

    async def close(self) -> None:
        try:
            await close_all(getattr(self, "tables", []))
        finally:
            self.procs.stop()


class Site:
    """The site in production mode (or one already running, ``--url``) under the client."""

    def __init__(self, args, think):
        self.args, self.think = args, think
        self.procs = Procs(Path(args.logs))

    async def open(self) -> Side:
        args, procs = self.args, self.procs
        env = site_env(args)
        ports = []
        if args.url:
            ports = [int(args.url.rsplit(":", 1)[1].strip("/"))]
        else:
            t0 = time.perf_counter()
            # Off the client's loop (here and below): the floor's sockets, already open, must
            # answer their server's pings meanwhile (Daphne closes a socket after 50 s without).
            await asyncio.to_thread(reset_database, args.database_url)
            await asyncio.to_thread(
                subprocess.run,
                [PY, "manage.py", "migrate", "--noinput", "-v", "0"],
                cwd=ROOT,
                env=env,
                check=True,
            )
            print(f"database migrated in {time.perf_counter() - t0:.1f} s", flush=True)
            start_worker(procs, env)
            for i in range(args.processes):
                port = free_port()
                ports.append(port)
                procs.start(f"daphne{i}", daphne_cmd(port), env)
            for port in ports:
                await asyncio.to_thread(wait_http, f"http://127.0.0.1:{port}/healthz")
            pids = {name: proc.pid for name, proc in procs.procs}
            print(f"processes: {pids}", flush=True)
        t0 = time.perf_counter()
        layout = Path(args.logs) / "tables.json"
        bot_tables = getattr(args, "bot_tables", 0)
        await asyncio.to_thread(
            subprocess.run,
            [
                PY,
                __file__,
                "--prepare",
                str(args.tables),
                "--bot-tables",
                str(bot_tables),
                "--out",
                str(layout),
            ],
            cwd=ROOT,
            env=env,
            check=True,
        )
        self.setup_s = time.perf_counter() - t0
        rooms = json.loads(layout.read_text())
        self.rss_idle = procs.rss_mb("daphne")
        stats = Stats()
        stats.log = [] if getattr(args, "dump", "") else None  # bench/bot_lag.py has no --dump
        self.bot_stats = Stats()  # the bots' tables: their errors and stalls, never in the moves measured
        rng = random.Random(2)
        self.tables = [
            BotTable(i, self.bot_stats, (0, 0), rng) if room.get("bots") else Table(i, stats, self.think, rng)
            for i, room in enumerate(rooms)
        ]

        def port_of(t, seat):
            # A proxy with room affinity (the README's nginx: the table's address hashed)
            # sends every socket of a table to one process; --split, the worst case, seat
            # n to process n mod the number of processes.
            return ports[(seat if args.split else t.index) % len(ports)]

        def url(t, seat):
            return f"ws://127.0.0.1:{port_of(t, seat)}/ws/table/{rooms[t.index]['code']}/"

        def headers(t, seat):
            port = port_of(t, seat)
            return {
                "Cookie": f"sessionid={rooms[t.index]['sessions'][seat]}",
                "Origin": f"http://127.0.0.1:{port}",
            }

        self.url_of, self.headers_of, self.ports = url, headers, ports
        counters = Counters(procs, [] if args.url else ports)
        self.beats = Beats(10.0)
        sockets = sum(len(t.connect_seats) for t in self.tables)
        before = await asyncio.to_thread(counters.read)
        self.connect_began = time.monotonic()
        self.connect_s = await connect_all(self.tables, url, headers, stats, on_table=self.beats.start)
        await _all_greeted(self.tables, 60)
        self.greeted_s = time.monotonic() - self.connect_began
        connected = await asyncio.to_thread(counters.read)
        await self.start_tables(getattr(args, "start_rate", START_RATE), getattr(args, "start_window", 0))
        await _all_started(self.tables, 60)
        started = await asyncio.to_thread(counters.read)
        print(
            f"site: {len(self.tables)} tables created in {self.setup_s:.1f} s, "
            f"{sockets} sockets connected in {self.connect_s:.1f} s, every page greeted "
            f"{self.greeted_s:.1f} s after the first socket began to connect",
            flush=True,
        )
        print(Counters.per("per arrival (socket)", before, connected, sockets), flush=True)
        print(Counters.per("per table start", connected, started, len(self.tables)), flush=True)
        self.rss_conn = procs.rss_mb("daphne")
        meter = CpuMeter(procs, args.database_url.rsplit("/", 1)[1])
        self.side = Side("site", self.tables, stats, meter, self.think[1] + ROUND_PAUSE + 5, self.beats)
        return self.side

    async def start_tables(self, rate: float, window: int = 0) -> None:
        """Each table's creator starts its match, as the page's button does, once
        every seat's page has loaded (had its greeting), in the tables' order, at
        most ``rate`` tables a second, once every socket is open (started while the
        others connected, their fair deals' answers came late: the arrivals' work
        held the GIL the event loop needed for the answers). People
        start when their table is full, not a thousand at one instant; a match
        started before its seats were there dealt its first round's fair deal to
        nobody (F-4: substitutes)."""
        began = time.monotonic()
        starting: list = []
        for i, t in enumerate(self.tables):
            try:
                await asyncio.wait_for(t.greeted_event().wait(), 60)
            except TimeoutError:
                continue  # a page never loaded (a failed socket, counted): its table stalls
            if window > 0:  # at most ``window`` tables started and not yet begun (their states arrived)
                while len(starting := [s for s in starting if s.started_at is None]) >= window:
                    await asyncio.sleep(0.005)
                starting.append(t)
            await t.send(0, {"type": "start"})
            if rate > 0 and window <= 0:
                await asyncio.sleep(max(0.0, began + (i + 1) / rate - time.monotonic()))

    async def reconnect(self) -> dict:
        """Daphne (one process) SIGKILLed and started again on its port; every
        page connects again at once, as the table's page does. Seconds from the
        new process answering /healthz until every socket is open again and has
        had its table's state (its greeting: the database's version)."""
        procs = self.procs
        index = next(i for i, (name, _p) in enumerate(procs.procs) if name == "daphne0")
        _name, proc = procs.procs.pop(index)
        self.beats.stop()
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        killed = time.perf_counter()
        for t in self.tables:
            t.sockets = [None] * 4
            t.fresh = set()
        port = self.ports[0]
        procs.start("daphne0", daphne_cmd(port), site_env(self.args))
        await asyncio.to_thread(wait_http, f"http://127.0.0.1:{port}/healthz")
        up = time.perf_counter()
        meter = CpuMeter(procs, self.args.database_url.rsplit("/", 1)[1])
        counters = Counters(procs, [port])
        cpu_before = await asyncio.to_thread(meter.sample)
        before = await asyncio.to_thread(counters.read)
        stats = Stats()
        self.beats = Beats(10.0)
        connect = asyncio.ensure_future(
            connect_all(
                self.tables, self.url_of, self.headers_of, stats, concurrency=256, on_table=self.beats.start
            )
        )
        while (
            any(len(t.fresh) < len(t.connect_seats) for t in self.tables) and time.perf_counter() - up < 300
        ):
            await asyncio.sleep(0.02)
        resynced = time.perf_counter() - up
        cpu_after = await asyncio.to_thread(meter.sample)
        after = await asyncio.to_thread(counters.read)
        connected = await connect
        behind = sum(len(t.connect_seats) - len(t.fresh) for t in self.tables)
        for t in self.tables:
            t.fresh = None
        out = {
            "restart_s": up - killed,
            "reconnect_s": resynced if not behind else float("nan"),
            "reconnect_errors": sum(stats.errors.values()),
        }
        print(
            f"reconnect: Daphne killed and answering again in {out['restart_s']:.1f} s; "
            f"{sum(len(t.connect_seats) for t in self.tables)} sockets open again in {connected:.1f} s and "
            f"every one with its table's state {resynced:.1f} s after the new process answered; "
            f"{behind} without; errors={stats.errors or 0}",
            flush=True,
        )
        sockets = sum(len(t.connect_seats) for t in self.tables)
        print(Counters.per("per reconnection (socket)", before, after, sockets), flush=True)
        print(
            "reconnect cpu s: "
            + " ".join(f"{k}={cpu_after.get(k, 0.0) - v:.1f}" for k, v in cpu_before.items())
            + f" (in {resynced:.1f} s of wall time)",
            flush=True,
        )
        return out

    def summary(self) -> dict:
        args, side, tables, procs = self.args, self.side, self.tables, self.procs
        stats = side.stats
        out = summary("site", stats, side.driven)
        out["cpu_ms"] = side.meter.report("site", stats.moves)
        if stats.log is not None:
            Path(args.dump).write_text(json.dumps(stats.log))
        begun = [t.started_at for t in tables if t.started_at is not None]
        out["start_s"] = max(begun) - self.connect_began if len(begun) == len(tables) else float("nan")
        print(
            f"site: {len(begun)} of {len(tables)} tables started (every seat had the table's state); "
            f"the last {out['start_s']:.1f} s after the first socket began to connect",
            flush=True,
        )
        bots = [t for t in tables if isinstance(t, BotTable)]
        out["bot_versions"] = sum(t.versions for t in bots)
        out["bot_errors"] = sum(self.bot_stats.errors.values())
        if bots:
            print(
                f"bots: {len(bots)} tables made {out['bot_versions']} versions, "
                f"errors={self.bot_stats.errors or 0}",
                flush=True,
            )
        out.update(
            setup_s=self.setup_s,
            connect_s=self.connect_s,
            rss_daphne_mb=self.rss_conn,
            rss_worker_mb=procs.rss_mb("worker"),
            rss_per_1000_sockets_mb=(self.rss_conn - self.rss_idle) / max(1, 4 * len(tables)) * 1000,
        )
        print(
            f"rss: daphne {self.rss_conn:.0f} MiB ({out['rss_per_1000_sockets_mb']:.0f} MiB per 1,000 sockets), "
            f"worker {out['rss_worker_mb']:.0f} MiB",
            flush=True,
        )
        return out

    async def close(self) -> None:
        try:
            if getattr(self, "beats", None) is not None:
                self.beats.stop()
            await close_all(getattr(self, "tables", []))
        finally:
            self.procs.stop()


async def _all_greeted(tables, timeout: float) -> None:
    try:
        await asyncio.wait_for(asyncio.gather(*(t.greeted_event().wait() for t in tables)), timeout)
    except TimeoutError:
        print(f"not every page greeted within {timeout:.0f} s", flush=True)


async def _all_started(tables, timeout: float) -> None:
    end = time.monotonic() + timeout
    while any(t.started_at is None for t in tables) and time.monotonic() < end:
        await asyncio.sleep(0.02)


async def run_site(args, think) -> dict:
    """The site alone, driven ``args.duration`` seconds at once (bench/bot_lag.py)."""
    site = Site(args, think)
    try:
        side = await site.open()
        await side.drive(args.duration)
        return site.summary()
    finally:
        await site.close()


async def run_both(args, think) -> tuple[dict | None, dict]:
    """The floor (unless ``--no-floor``) and the site, both started and
    connected, then driven in turns (``Side``): ``--segments`` each."""
    floor = None if args.no_floor else Floor(args, think)
    site = Site(args, think)
    try:
        sides = []
        if floor is not None:
            sides.append(await floor.open())
        sides.append(await site.open())
        segments = args.segments or max(1, round(args.duration / SEGMENT_SECONDS))
        print(
            f"driving {len(sides)} side(s) in {segments} turns of {args.duration / segments:.1f} s each",
            flush=True,
        )
        await drive_in_turns(sides, args.duration, segments)
        floor_out = floor.summary() if floor is not None else None
        site_out = site.summary()
        if args.reconnect and not args.url and args.processes == 1:
            site_out.update(await site.reconnect())
        return floor_out, site_out
    finally:
        if floor is not None:
            await floor.close()
        await site.close()


SEGMENT_SECONDS = 10.0
"""The length of a turn when ``--segments`` is not given."""


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
