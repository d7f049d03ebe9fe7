"""Shared pieces of the fault tests under load (issue 39): the site under faults (``FaultSite``) with its
processes (``harness_procs``) and its tables of four real WebSocket players (``harness_players``)."""

from __future__ import annotations

import asyncio
import time
import uuid
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings

from rooms import services as room_service
from tests.faults.harness_players import (
    Client,
    Player,
    check_log,
    keep_nudging,
    open_tables,
    shut_down,
    until,
    versions,
)
from tests.faults.harness_procs import (
    Daphne,
    PrivateRedis,
    TcpProxy,
    Worker,
    direct_database_url,
    raise_fd_limit,
    site_env,
)

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
        await shut_down(self.clients, self.tasks, self.server, self.worker)

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
