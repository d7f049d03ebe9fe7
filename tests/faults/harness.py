"""Shared pieces of the fault tests under load (issue 39): many tables of
four real WebSocket players, the site's processes started by the test, a
TCP proxy in front of PostgreSQL the test can cut, a private Redis, and the
check that no acknowledged move was lost or applied twice."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

from asgiref.sync import sync_to_async

from games.models import Match, Move
from rooms import services as room_service
from tests.faults.test_daphne_kill import Client, Daphne, free_port
from tests.rooms.conftest import make_room, session_key_for

ROOT = Path(__file__).resolve().parents[2]


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


class Worker:
    """A Celery worker (its deadline ticker plays the deals and timeouts) with the given environment."""

    def __init__(self, env: dict, tmp: Path):
        self.queue = f"faults-{uuid.uuid4().hex[:8]}"
        self.log = tmp / f"worker-{self.queue}.log"
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-P",
                "solo",
                "-c",
                "1",
                "-Q",
                self.queue,
                "-n",
                f"{self.queue}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-l",
                "info",
            ],
            cwd=ROOT,
            env={**env, "CELERY_QUEUE": self.queue},
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        end = time.monotonic() + 60
        while "ready." not in self.log.read_text():
            if time.monotonic() > end or self.proc.poll() is not None:
                self.stop()
                raise AssertionError("the Celery worker did not start:\n" + self.log.read_text()[-3000:])
            time.sleep(0.2)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)


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


async def open_tables(make_user, count: int, tag: str) -> list[tuple]:
    """``count`` hokm4 rooms of four signed-in players each, with their session keys."""

    def setup():
        made = []
        for t in range(count):
            players = [make_user(f"{tag}{t}p{i}") for i in range(1, 5)]
            room = make_room(
                players[0], players[1:], rules={"target": 7, "middle_card": False, "turn_seconds": 60}
            )
            made.append((room, players, [(u.username, session_key_for(u), u.pk) for u in players]))
        return made

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


__all__ = [
    "Daphne",
    "Player",
    "PrivateRedis",
    "TcpProxy",
    "Worker",
    "check_log",
    "keep_nudging",
    "open_tables",
    "room_service",
    "site_env",
    "until",
    "versions",
]
