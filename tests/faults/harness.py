"""Shared pieces of the fault tests under load (issue 39): many tables of
four real WebSocket players, the site's processes started by the test, a
TCP proxy in front of PostgreSQL the test can cut, a private Redis, and the
check that no acknowledged move was lost or applied twice."""

from __future__ import annotations

import asyncio
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from games.models import Match, Move
from rooms import services as room_service
from tests.celery_worker import CeleryWorker
from tests.security.policy import choose

ROOT = Path(__file__).resolve().parents[2]

DAPHNE_FLAGS = ["--websocket_connect_timeout", "60"]
"""As docs/operations.md runs it: Daphne drops a socket whose handshake the
application has not accepted within 5 s by default, and with hundreds of
sockets arriving at once (a restart) the session and user reads queue
longer than that: the page would retry, and add to the queue."""


def raise_fd_limit() -> None:
    """Thousands of sockets in one process (the test's clients, Daphne)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def direct_database_url() -> str:
    """The test database, as the site's processes reach it without a proxy."""
    db = connection.settings_dict
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Daphne:
    """The site's Daphne process, started (and started again) on one port."""

    def __init__(self, tmp: Path, env: dict):
        self.port = free_port()
        self.tmp = tmp
        self.env = env
        self.starts = 0
        self.proc = None

    def start(self) -> float:
        self.starts += 1
        self.log = self.tmp / f"daphne-{self.starts}.log"
        began = time.monotonic()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                *DAPHNE_FLAGS,
                "config.asgi:application",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=raise_fd_limit,
        )
        end = time.monotonic() + 30
        while time.monotonic() < end:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1) as r:
                    if r.status == 200:
                        return time.monotonic() - began
            except OSError:
                time.sleep(0.1)
        raise AssertionError("Daphne did not start:\n" + self.log.read_text()[-3000:])

    def kill(self):
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


PAGE_BACKOFF = (0.4, 1.0, 2.0, 4.0, 8.0, 12.0)
"""The table page's waits before its next attempt (static/js/table/socket.js's
BACKOFF_MS), each stretched by up to 30% at random, from the first again
once a socket was open."""


class Client:
    """A browser tab that reconnects whenever its socket drops: at once
    (``backoff`` None), or after the page's waits (``PAGE_BACKOFF``). Like a
    browser it waits long for a handshake (60 s) rather than giving up and
    adding another one to the server's queue."""

    backoff: tuple[float, ...] | None = None

    def __init__(self, name: str, key: str, user_id: int | None, url: str, origin: str):
        self.name, self.key, self.user_id = name, key, user_id
        self.url, self.origin = url, origin
        self.state: dict | None = None
        self.connects = 0
        self.acting = False
        self.stopped = False
        self.ws = None
        self.sent: dict[str, tuple[int, dict]] = {}  # ref -> (version seen, action)
        self.acks: dict[str, int] = {}  # ref -> version acknowledged
        self.errors: list[dict] = []
        self.acted: set[int] = set()

    @property
    def v(self) -> int | None:
        return self.state["v"] if self.state else None

    async def run(self):
        attempt = 0
        while not self.stopped:
            try:
                async with connect(
                    self.url,
                    origin=self.origin,
                    additional_headers={"Cookie": f"sessionid={self.key}"},
                    open_timeout=60,
                    max_size=2**22,
                ) as ws:
                    self.ws = ws
                    self.connects += 1
                    attempt = 0
                    async for text in ws:
                        await self.handle(json.loads(text))
            except (OSError, ConnectionClosed, InvalidHandshake, InvalidStatus, TimeoutError):
                pass
            self.ws = None
            if self.stopped:
                break
            if self.backoff is None:
                await asyncio.sleep(0.05)
            else:
                base = self.backoff[min(attempt, len(self.backoff) - 1)]
                attempt += 1
                await asyncio.sleep(base * (1 + random.random() * 0.3))

    async def handle(self, frame: dict):
        kind = frame.get("type")
        if kind == "state":
            if self.state is None or frame["match"] != self.state["match"] or frame["v"] >= self.state["v"]:
                self.state = frame
            await self.maybe_act()
        elif kind == "ack":
            self.acks[str(frame["ref"])] = frame["v"]
        elif kind == "error":
            self.errors.append(frame)

    async def maybe_act(self):
        st, ws = self.state, self.ws
        if not self.acting or ws is None or st["status"] != "active":
            return
        view = st["view"]
        if view.get("viewer") not in view.get("to_act", []) or st["v"] in self.acted:
            return
        action = choose(view)
        if action is None:
            return
        self.acted.add(st["v"])
        ref = f"{self.name}-{len(self.sent) + 1}"
        self.sent[ref] = (st["v"], action)
        try:
            await ws.send(json.dumps({"type": "act", "action": action, "v": st["v"], "ref": ref}))
        except ConnectionClosed:
            pass  # sent into a dying socket: neither acknowledged nor, perhaps, applied

    async def sync(self):
        """Ask for the whole table again (what a page does when it knows it is behind)."""
        if self.ws is not None:
            try:
                await self.ws.send(json.dumps({"type": "sync"}))
            except ConnectionClosed:
                pass

    async def nudge(self):
        """Act again from the state in hand (after play resumes)."""
        if self.state is not None:
            await self.maybe_act()


class TcpProxy:
    """Forwards 127.0.0.1:<port> to a server; ``cut()`` drops every connection
    and refuses new ones (the server is restarting) until ``resume()``."""

    def __init__(self, target_host: str, target_port: int):
        self.target = (target_host, target_port)
        self.port = free_port()
        self.open = threading.Event()
        self.open.set()
        self.lock = threading.Lock()
        self.pairs: set[socket.socket] = set()
        self.listener = socket.create_server(("127.0.0.1", self.port), backlog=256)
        self.listener.settimeout(0.2)
        self.stopped = False
        self.accepted = 0
        self.thread = threading.Thread(target=self._serve, daemon=True, name="pg-proxy")
        self.thread.start()

    def _serve(self):
        while not self.stopped:
            try:
                client, _ = self.listener.accept()
            except (TimeoutError, OSError):
                continue
            if not self.open.is_set():
                client.close()  # as a server that is down: connection refused or reset
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            self.accepted += 1
            with self.lock:
                self.pairs |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket):
        try:
            src.settimeout(None)
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
                with self.lock:
                    self.pairs.discard(s)

    def cut(self) -> int:
        """Every connection dropped at once; new ones refused. Returns how many were dropped."""
        self.open.clear()
        with self.lock:
            pairs = list(self.pairs)
        for s in pairs:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        return len(pairs) // 2

    def resume(self):
        self.open.set()

    def close(self):
        self.stopped = True
        self.cut()
        self.listener.close()


class PrivateRedis:
    """A redis-server of the test's own on a free port (the shared one is never touched)."""

    def __init__(self, tmp: Path):
        self.port = free_port()
        self.tmp = tmp
        self.proc = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        self.starts += 1
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.tmp),
                "--maxclients",
                "4000",
            ],
            stdout=(self.tmp / f"redis-{self.starts}.log").open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    stop = kill


class Worker(CeleryWorker):
    """A Celery worker (its deadline ticker plays the deals and timeouts) with the given
    environment, on a queue of its own; started (``ready.``) when made, stopped warm."""

    def __init__(self, env: dict, tmp: Path):
        queue = f"faults-{uuid.uuid4().hex[:8]}"
        super().__init__(env, queue, tmp / f"worker-{queue}.log")
        self.wait_ready(60)


class Player(Client):
    """A page that plays: acts on its turn, and acts again from the state in
    hand when an action got no answer (an error, a dropped socket) after a
    while, as a person would click again; the server's version check makes
    a second click at the same version a refusal, never a second move."""

    retry_after = 1.5

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.acted_at: dict[int, float] = {}
        self.acting = True
        self.resyncs = 0

    async def maybe_act(self):
        st = self.state
        if (
            st is not None
            and st["v"] in self.acted
            and time.monotonic() - self.acted_at.get(st["v"], 0) > self.retry_after
        ):
            self.acted.discard(st["v"])
        before = len(self.sent)
        await super().maybe_act()
        if len(self.sent) > before:
            self.acted_at[st["v"]] = time.monotonic()

    async def handle(self, frame: dict):
        await super().handle(frame)
        kind = frame.get("type")
        if kind == "error" and frame.get("code") == "stale_version":
            await self.sync()
        elif kind == "pong" and frame.get("v") is not None and self.v is not None and frame["v"] > self.v:
            self.resyncs += 1  # the page's heartbeat found it behind (a frame lost): it asks again
            await self.sync()

    async def ping(self):
        if self.ws is not None:
            try:
                await self.ws.send('{"type": "ping"}')
            except Exception:  # noqa: BLE001 - a dying socket: the next one pings
                pass


RULES = {"target": 7, "middle_card": False, "turn_seconds": 60}


async def open_tables(make_user, count: int, tag: str) -> list[tuple]:
    """``count`` hokm4 rooms of four signed-in players each, every seat ready,
    with their session keys, made in bulk (a few statements for any count;
    250 tables through the room services one seat at a time took a minute)."""

    def setup():
        from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
        from django.contrib.auth.hashers import make_password
        from django.contrib.sessions.backends.db import SessionStore
        from django.contrib.sessions.models import Session
        from django.utils import timezone
        from django.utils.crypto import get_random_string

        from accounts.models import Profile
        from accounts.validators import username_key
        from rooms.models import Room, Seat

        User = get_user_model()
        password = make_password("correct-horse-battery")
        users = User.objects.bulk_create(
            [
                User(username=f"{tag}{t}p{i}", username_key=username_key(f"{tag}{t}p{i}"), password=password)
                for t in range(count)
                for i in range(1, 5)
            ]
        )
        Profile.objects.bulk_create([Profile(user=u) for u in users], ignore_conflicts=True)
        store = SessionStore()
        expire = timezone.now() + timezone.timedelta(days=1)
        keys = []
        rows = []
        for user in users:
            key = get_random_string(32)
            data = {
                SESSION_KEY: str(user.pk),
                BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                HASH_SESSION_KEY: user.get_session_auth_hash(),
            }
            rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=expire))
            keys.append(key)
        Session.objects.bulk_create(rows)
        rooms = Room.objects.bulk_create(
            [
                Room(game="hokm4", rules=dict(RULES), creator=users[4 * t], is_private=True)
                for t in range(count)
            ]
        )
        Seat.objects.bulk_create(
            [
                Seat(room=room, number=n, user=users[4 * t + n - 1], ready=True)
                for t, room in enumerate(rooms)
                for n in range(1, 5)
            ]
        )
        return [
            (
                room,
                users[4 * t : 4 * t + 4],
                [(u.username, keys[4 * t + i], u.pk) for i, u in enumerate(users[4 * t : 4 * t + 4])],
            )
            for t, room in enumerate(rooms)
        ]

    return await sync_to_async(setup)()


def site_env(database_url: str, redis_url: str, tag: str) -> dict:
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "CHANNEL_PREFIX": f"faults{tag}",
        "CACHE_PREFIX": f"faults-{tag}",
        "DEADLINES": "celery",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DEBUG": "false",
        "TURN_SCALE": "1",
        "ROUND_PAUSE": "0.2",
        "FAIR_WAIT_SECONDS": "0",
        "BOT_LEVEL": "easy",
        "LOG_LEVEL": "WARNING",
        "DB_CONN_MAX_AGE": "0",
        "PYTHONUNBUFFERED": "1",
    }


def versions(match_ids: list[int]) -> dict[int, tuple[int, str]]:
    return {
        pk: (v, s)
        for pk, v, s in Match.objects.filter(pk__in=match_ids).values_list("pk", "version", "status")
    }


async def until(predicate, timeout: float, every: float = 0.05) -> float | None:
    began = time.monotonic()
    while time.monotonic() - began < timeout:
        if await predicate():
            return time.monotonic() - began
        await asyncio.sleep(every)
    return None


async def keep_nudging(clients: list[Player], stop: asyncio.Event, heartbeat: float = 2.0):
    """Each page looks at its state twice a second (its own timer) and beats
    every ``heartbeat`` seconds (the site's pages: 10 s; shorter here so that
    a test need not wait for it)."""
    beat = time.monotonic()
    while not stop.is_set():
        for c in clients:
            await c.nudge()
        if time.monotonic() - beat > heartbeat:
            beat = time.monotonic()
            for c in clients:
                await c.ping()
        try:
            await asyncio.wait_for(stop.wait(), 0.5)
        except TimeoutError:
            pass


def check_log(match_id: int, seats: list[Player]) -> dict:
    """Every acknowledged move is in the log once, at its version, as sent;
    every player's move in the log is one sent, once; one chain of versions."""
    moves = list(Move.objects.filter(match_id=match_id).order_by("seq"))
    final = Match.objects.get(pk=match_id).version
    assert [m.seq for m in moves] == list(range(1, final + 1)), f"match {match_id}: a gap or a double"
    by_seq = {m.seq: m for m in moves}
    acked = 0
    for c in seats:
        for ref, v in c.acks.items():
            move = by_seq.get(v)
            assert move is not None, f"acknowledged move {ref} (v{v}) is not in the log"
            assert move.user_id == c.user_id and move.action == c.sent[ref][1], (ref, move.action)
            acked += 1
    sent = {ref: (c, v, action) for c in seats for ref, (v, action) in c.sent.items()}
    claimed: set[str] = set()
    for move in moves:
        if move.actor != Move.Actor.PLAYER:
            continue
        refs = [
            r
            for r, (c, v, a) in sent.items()
            if c.user_id == move.user_id and v == move.seq - 1 and a == move.action
        ]
        assert refs, (match_id, move.seq, move.action)
        fresh = [r for r in refs if r not in claimed]
        assert fresh, (match_id, move.seq, "applied twice")
        claimed.add(fresh[0])
    return {
        "acked": acked,
        "moves": final,
        "unacked": sum(1 for c in seats for r in c.sent if r not in c.acks),
    }


WAVE = 100


class FaultSite:
    """What every fault test sets up the same way (``fault_site``): ``tables``
    hokm4 tables of four real WebSocket players on the site's own Daphne and
    Celery worker (its deadline ticker deals), every match started and
    playing; and the same teardown and the same count of the move logs.

    ``database_url`` and ``redis_url`` are what the site's processes use (a
    proxy's, a private server's); the test process itself stays on the test
    database and the shared Redis."""

    def __init__(self, tmp: Path, make_user):
        self.tmp = tmp
        self.make_user = make_user
        self.tag = uuid.uuid4().hex[:8]
        self.worker: Worker | None = None
        self.server: Daphne | None = None
        self.clients: list[Player] = []
        self.seats_of: dict[int, list[Player]] = {}
        self.matches: dict[int, int] = {}  # room id -> match id
        self.codes: list[str] = []
        self.tasks: list[asyncio.Future] = []
        self.stop = asyncio.Event()
        self.timings: dict[str, float] = {}

    @property
    def ids(self) -> list[int]:
        return list(self.matches.values())

    async def open(
        self,
        tables: int,
        *,
        database_url: str | None = None,
        redis_url: str | None = None,
        play_to: int = 15,
        heartbeat: float = 2.0,
        backoff: tuple[float, ...] | None = None,
    ) -> FaultSite:
        raise_fd_limit()
        if not (redis_url or settings.REDIS_URL):
            pytest.skip("needs Redis (REDIS_URL)")
        began = time.monotonic()
        self.env = site_env(database_url or direct_database_url(), redis_url or settings.REDIS_URL, self.tag)
        made = await open_tables(self.make_user, tables, f"f{self.tag[:5]}")
        self.codes = [room.code for room, _p, _k in made]
        self.worker = await sync_to_async(Worker)(self.env, self.tmp)
        self.server = Daphne(self.tmp, self.env)
        await sync_to_async(self.server.start)()
        origin = f"http://127.0.0.1:{self.server.port}"
        for room, _players, keys in made:
            url = f"ws://127.0.0.1:{self.server.port}/ws/table/{room.code}/"
            self.seats_of[room.pk] = [Player(name, key, uid, url, origin) for name, key, uid in keys]
            self.clients += self.seats_of[room.pk]
        # The pages arrive in waves of WAVE sockets (the set-up, not what a test measures).
        for first in range(0, len(self.clients), WAVE):
            wave = self.clients[first : first + WAVE]
            for c in wave:
                c.backoff = backoff
                self.tasks.append(asyncio.ensure_future(c.run()))
            connected = await until(lambda wave=wave: _true(all(c.connects for c in wave)), 90)
            missing = sum(1 for c in wave if not c.connects)
            assert connected is not None, f"{missing} of {len(wave)} clients did not connect"
        for room, players, _keys in made:
            self.matches[room.pk] = (await sync_to_async(room_service.start)(room, players[0])).pk
        # Started by this process (another channel prefix): every page asks for its table once.
        ids = self.ids
        assert await until(lambda: _all_at_least(ids, 2), 60 + tables * 0.3) is not None, "the first deals"
        for c in self.clients:
            await c.sync()
        self.tasks.append(asyncio.ensure_future(keep_nudging(self.clients, self.stop, heartbeat)))
        if play_to:
            played = await until(lambda: _all_at_least(ids, play_to), 120 + tables * 0.5)
            if played is None:
                now = await self.versions()
                short = sorted(v for v, s in now.values() if v < play_to and s == "active")
                raise AssertionError(f"{len(short)} tables below v{play_to}: {short[:20]}")
        self.timings["setup"] = time.monotonic() - began
        return self

    async def versions(self, ids: list[int] | None = None) -> dict[int, tuple[int, str]]:
        return await sync_to_async(versions)(self.ids if ids is None else ids)

    def alive(self) -> bool:
        return self.server is not None and self.server.proc.poll() is None and self.worker.alive()

    def pause(self) -> None:
        """No more acting or heartbeats: only what the server sends by itself."""
        self.stop.set()
        for c in self.clients:
            c.acting = False

    def resume(self, heartbeat: float = 2.0) -> None:
        """Acting and heartbeats again after ``pause``."""
        self.stop = asyncio.Event()
        for c in self.clients:
            c.acting = True
        self.tasks.append(asyncio.ensure_future(keep_nudging(self.clients, self.stop, heartbeat)))

    async def close(self) -> None:
        self.stop.set()
        for c in self.clients:
            c.stopped = True
            c.acting = False
            if c.ws is not None:
                await c.ws.close()
        for t in self.tasks:
            t.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        if self.server is not None:
            await sync_to_async(self.server.stop)()
        if self.worker is not None:
            await sync_to_async(self.worker.stop)()

    async def check_logs(self) -> dict:
        """``check_log`` of every match, summed: acknowledged moves, moves, sent without an ack."""
        totals = {"acked": 0, "moves": 0, "unacked": 0}
        for room_pk, match_id in self.matches.items():
            found = await sync_to_async(check_log)(match_id, self.seats_of[room_pk])
            for k in totals:
                totals[k] += found[k]
        return totals


@pytest.fixture
async def fault_site(tmp_path, make_user):
    """A ``FaultSite`` (call ``await fault_site.open(tables, ...)``), closed after the test."""
    site = FaultSite(tmp_path, make_user)
    try:
        yield site
    finally:
        await site.close()


async def _true(value) -> bool:
    return bool(value)


async def _all_at_least(ids, version) -> bool:
    now = await sync_to_async(versions)(ids)
    return all(v >= version or s != "active" for v, s in now.values())


__all__ = [
    "Client",
    "Daphne",
    "FaultSite",
    "Player",
    "PrivateRedis",
    "TcpProxy",
    "Worker",
    "check_log",
    "fault_site",
    "keep_nudging",
    "open_tables",
    "room_service",
    "site_env",
    "until",
    "versions",
]
