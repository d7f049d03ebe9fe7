"""Issue 14: Daphne is killed during a live match with 50 clients, who all reconnect at once.

The test starts the production services itself: a Daphne process and a
Celery worker (its deadline ticker deals the rounds after their pause), on
the test database and Redis, with a channel-layer prefix of their own.
Fifty real WebSocket clients (the four players of a hokm4 match, 23 signed-in
spectators, 23 anonymous visitors) are connected; the players play from their
own views. Mid-match, with moves in flight, Daphne is killed (SIGKILL) and
started again on the same port; every client retries at once.

Nothing lost means: every client is at the database's version within 10 s
of the restart; the match then plays to its end; every acknowledged move is
in the move log, at the version its ``ack`` named, with the action sent,
once; no move in the log came from nowhere, and none was applied twice (a
client that lost its ack and acted again from the new state made a new,
different move, or was refused).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from games.models import Match, Move
from rooms import services as room_service
from tests.games.test_deadlines import Worker
from tests.rooms.conftest import make_room, session_key_for
from tests.security.policy import choose

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = 50

pytestmark = [pytest.mark.faults, pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Daphne:
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
                "config.asgi:application",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
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


class Client:
    """A browser tab that reconnects at once whenever its socket drops."""

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
        while not self.stopped:
            try:
                async with connect(
                    self.url,
                    origin=self.origin,
                    additional_headers={"Cookie": f"sessionid={self.key}"},
                    open_timeout=10,
                    max_size=2**22,
                ) as ws:
                    self.ws = ws
                    self.connects += 1
                    async for text in ws:
                        await self.handle(json.loads(text))
            except (OSError, ConnectionClosed, InvalidHandshake, InvalidStatus, TimeoutError):
                pass
            self.ws = None
            if not self.stopped:
                await asyncio.sleep(0.05)

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


def db_version(match_id: int) -> int:
    return Match.objects.filter(pk=match_id).values_list("version", flat=True).first()


async def until(predicate, timeout: float) -> float | None:
    """Seconds until ``predicate()`` (checked every 20 ms), or None after ``timeout``."""
    began = time.monotonic()
    while time.monotonic() - began < timeout:
        if await predicate():
            return time.monotonic() - began
        await asyncio.sleep(0.02)
    return None


@pytest.mark.timeout(240)
async def test_a_killed_daphne_with_50_clients_loses_no_acknowledged_move(
    settings, tmp_path, make_user, monkeypatch, capsys
):
    if not settings.REDIS_URL:
        pytest.skip("needs Redis (REDIS_URL)")
    tag = uuid.uuid4().hex[:8]
    queue = f"faults-{tag}"
    monkeypatch.setenv("CHANNEL_PREFIX", f"faults{tag}")  # the worker's and Daphne's own layer
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "CACHE_PREFIX": f"faults-{tag}",
        "CELERY_QUEUE": queue,
        "DEADLINES": "celery",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DEBUG": "false",
        "TURN_SCALE": "1",
        "ROUND_PAUSE": "0.2",
        "FAIR_WAIT_SECONDS": "0",
        "BOT_LEVEL": "easy",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }

    def setup():
        players = [make_user(f"k{i}") for i in range(1, 5)]
        room = make_room(
            players[0], players[1:], rules={"target": 3, "middle_card": False, "turn_seconds": 60}
        )
        watchers = [make_user(f"w{i}") for i in range(CLIENTS // 2 - 2)]
        keys = [(u.username, session_key_for(u), u.pk) for u in players + watchers]
        keys += [(f"anon{i}", session_key_for(None), None) for i in range(CLIENTS - len(keys))]
        return room, players, keys

    room, players, keys = await sync_to_async(setup)()
    assert len(keys) == CLIENTS
    worker = await sync_to_async(Worker)(queue, False, tmp_path)
    server = Daphne(tmp_path, env)
    clients: list[Client] = []
    tasks = []
    try:
        await sync_to_async(server.start)()
        url = f"ws://127.0.0.1:{server.port}/ws/table/{room.code}/"
        origin = f"http://127.0.0.1:{server.port}"
        clients = [Client(name, key, uid, url, origin) for name, key, uid in keys]
        seats = clients[:4]
        tasks = [asyncio.ensure_future(c.run()) for c in clients]
        assert await until(lambda: _true(all(c.connects for c in clients)), 30) is not None, "clients connect"
        match = await sync_to_async(room_service.start)(room, players[0])
        # The match was started (and its first deal may be played) by this test's
        # process, whose frames go out under its own channel prefix, not the one
        # Daphne listens to: every tab asks for the table once, as a page does.
        for c in seats:
            c.acting = True
        assert await until(lambda: _db_at_least(match.pk, 2), 30) is not None, "the first deal"
        for c in clients:
            await c.sync()
        for c in seats:
            await c.nudge()
        assert await until(lambda: _db_at_least(match.pk, 30), 60) is not None, "the match is played"

        # --- the fault: SIGKILL with moves in flight; every client retries at once
        await sync_to_async(server.kill)()
        killed_at = await sync_to_async(db_version)(match.pk)
        for c in seats:
            c.acting = False
        killed = time.monotonic()
        restart = await sync_to_async(server.start)()
        up = time.monotonic()
        reconnected = await until(lambda: _true(all(c.connects >= 2 for c in clients)), 10)
        assert reconnected is not None, [c.name for c in clients if c.connects < 2]

        async def everyone_current():
            version = await sync_to_async(db_version)(match.pk)
            return all(c.v == version for c in clients)

        await until(everyone_current, 10)
        caught_up = time.monotonic() - up
        assert caught_up <= 10 and await everyone_current(), (
            await sync_to_async(db_version)(match.pk),
            sorted({c.v for c in clients}, key=lambda x: x or 0),
        )

        # --- play on to the end
        for c in seats:
            c.acting = True
            await c.nudge()

        async def finished():
            return await sync_to_async(
                Match.objects.filter(pk=match.pk, status=Match.Status.FINISHED).exists
            )()

        assert await until(finished, 120) is not None, (
            [c.state["view"]["phase"] for c in seats],
            worker.log.read_text()[-2000:],
        )
        final = await sync_to_async(db_version)(match.pk)
        assert await until(lambda: _true(all(c.v == final for c in clients)), 10) is not None
    finally:
        for c in clients:
            c.stopped = True
            if c.ws is not None:
                await c.ws.close()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await sync_to_async(server.stop)()
        await sync_to_async(worker.stop)()

    moves = await sync_to_async(lambda: list(Move.objects.filter(match_id=match.pk).order_by("seq")))()
    assert [m.seq for m in moves] == list(range(1, final + 1))  # one chain, nothing applied twice
    by_seq = {m.seq: m for m in moves}
    sent = {ref: (c, v, action) for c in seats for ref, (v, action) in c.sent.items()}
    acked = 0
    for c in seats:
        for ref, v in c.acks.items():
            move = by_seq.get(v)
            assert move is not None, f"acknowledged move {ref} (v{v}) is not in the log"
            assert move.user_id == c.user_id and move.action == c.sent[ref][1], (ref, move.action)
            acked += 1
    # every player's move in the log is one the client sent, at the version it saw, once
    claimed: set[str] = set()
    for move in moves:
        if move.actor != Move.Actor.PLAYER:
            continue
        refs = [
            ref
            for ref, (c, v, action) in sent.items()
            if c.user_id == move.user_id and v == move.seq - 1 and action == move.action
        ]
        assert len(refs) == 1, (move.seq, move.action, refs)
        assert refs[0] not in claimed
        claimed.add(refs[0])
    unacked = [ref for c in seats for ref in c.sent if ref not in c.acks]
    applied = [ref for ref in unacked if ref in claimed]
    with capsys.disabled():
        print(
            f"\n[daphne kill] {CLIENTS} clients; killed at v{killed_at}; Daphne up again {restart:.1f} s "
            f"after the kill ({up - killed:.1f} s), every client reconnected {reconnected:.1f} s and at the "
            f"database's version {caught_up:.1f} s after that; match finished at v{final}; {acked} "
            f"acknowledged moves, each in the log once; {len(unacked)} sent without an ack "
            f"({len(applied)} of them applied, the rest refused or never arrived)"
        )


async def _true(value) -> bool:
    return bool(value)


async def _db_at_least(match_id: int, version: int) -> bool:
    return (await sync_to_async(db_version)(match_id)) >= version
