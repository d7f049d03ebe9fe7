"""Heartbeats (R-4, R-7), written to the presence store together (issue 13).

Every open table socket pings every HEARTBEAT_SECONDS: four hundred pings a
second at a thousand tables. Each ping used to take a thread of its own
(one round trip to Redis for the presence, one more for the room's check,
and the room's snapshot from the database every half heartbeat), and the
threads' hand-overs of the GIL slowed the moves on the loop. Now a ping is
answered on the loop (its version from the frames this socket has seen, or
one read on the loop's own connection when it saw none lately) and its
presence is kept here, in memory; every ``interval()`` one thread hop
writes all of them in one pipeline and checks the rooms they came from.

A room's check (any live tab's heartbeat notices a dead tab's expiry, R-7;
at most one check per room every half heartbeat in each process): the
presence entries of every room due are read from the store together, in one
round trip, and each reduced to a fingerprint (who is connected or
connecting, at which seat); only when it differs from the one this process
last showed (``presence.shown``: its last check, or a room frame an arrival's
greeting sent) is the room read from the database and its snapshot sent, if its
signature changed (``broadcast.presence_changed``, whose signature in the
cache keeps two processes from sending the same change twice). At a
thousand tables the checks were four round trips to Redis per room, the
first to the cache for a lock across processes: 200 rooms a second, most of
the heartbeats' thread, whose GIL the event loop then waited for.

A connection that goes is forgotten here before its entry is dropped, and a
write of the heartbeats in flight never brings it back (``gone``, under the
writer's lock).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
import time

from infra import presence
from infra.lanes import db

from . import broadcast
from .table import reads

log = logging.getLogger(__name__)

GONE_KEPT = 120.0
"""Seconds a closed connection is remembered, so that no heartbeat of it written late brings it back."""

ROOMS_KEPT = 4096
"""Rooms whose checks are remembered before those quiet for ``GONE_KEPT`` seconds are forgotten."""


def interval() -> float:
    """How often the heartbeats are written: a tenth of the heartbeat, at most a second."""
    return min(1.0, presence.heartbeat_seconds() / 10)


class Keeper:
    def __init__(self):
        self.touched: dict[tuple[str, str], tuple[str, int | None, float]] = {}
        self.rooms: dict[str, int] = {}  # room code -> id, of the heartbeats not yet written
        self.next_check: dict[str, float] = {}  # room code -> when it may be checked again (monotonic)
        self.gone: dict[str, float] = {}  # connection -> when it closed
        self.lock = threading.Lock()
        self.task: asyncio.Task | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    # --- on the loop ---------------------------------------------------------------------

    def beat(self, code: str, room_id: int, conn: str, who: str, seat: int | None) -> None:
        self.touched[(code, conn)] = (who, seat, time.time())
        self.rooms[code] = room_id
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.loop is not loop:
            self.loop = loop
            # A context of its own: its log lines belong to no socket (ops/context.py).
            self.task = loop.create_task(self._run(), context=contextvars.Context())

    def forget(self, code: str, conn: str) -> None:
        """The connection closed: its heartbeats not yet written are dropped."""
        self.touched.pop((code, conn), None)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(interval())
            if not self.touched:
                return  # quiet: the next heartbeat starts it again
            touched, self.touched = self.touched, {}
            rooms, self.rooms = self.rooms, {}
            try:
                box = await db(self._write, lane="beat")(touched, rooms)
            except Exception:  # noqa: BLE001 - a lost round of heartbeats; the next one comes
                log.exception("writing %s heartbeats failed", len(touched))
                continue
            if box:
                await broadcast.send_all(box)

    # --- on a thread -------------------------------------------------------------------------

    def _write(self, touched: dict, rooms: dict) -> list:
        """Write the heartbeats, check their rooms; returns what to broadcast (sent from the loop)."""
        with broadcast.collecting() as box:
            with self.lock:
                now = time.time()
                for conn, at in list(self.gone.items()):
                    if now - at > GONE_KEPT:
                        del self.gone[conn]
                presence.store().touch_many(
                    [
                        (code, conn, who, seat, at)
                        for (code, conn), (who, seat, at) in touched.items()
                        if conn not in self.gone
                    ]
                )
            self._check(rooms)
        return box

    def _check(self, rooms: dict[str, int]) -> None:
        """The rooms of ``rooms`` (code -> id) not checked for half a heartbeat."""
        now = time.monotonic()
        if len(self.next_check) > ROOMS_KEPT:  # rooms long quiet are forgotten
            for code in [c for c, at in self.next_check.items() if at < now - GONE_KEPT]:
                del self.next_check[code]
        due = [code for code in rooms if self.next_check.get(code, 0.0) <= now]
        if not due:
            return
        later = now + presence.heartbeat_seconds() / 2
        for code in due:
            self.next_check[code] = later
        for code, fingerprint in presence.fingerprints(due).items():
            if presence.last_shown(code) == fingerprint:
                continue  # as this process last showed it: its arrivals' greetings, its last check
            presence.shown(code, fingerprint)
            found = reads.room_now(rooms[code])
            if found is not None:
                broadcast.presence_changed(found[0], snapshot=found[1])

    def dropped(self, code: str, conn: str) -> None:
        """(on a thread) The connection's entry goes, and no heartbeat written later brings it back."""
        with self.lock:
            self.gone[conn] = time.time()
            presence.store().drop(code, conn)


keeper = Keeper()
