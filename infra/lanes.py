"""Database calls from the table's sockets, off the event loop.

Channels' ``database_sync_to_async`` runs every call of every connection on
one shared thread: with hundreds of tables that thread is the bottleneck
while the event loop idles (issue 13). On PostgreSQL the calls run on a
pool of ``TABLE["DB_THREADS"]`` threads instead, each holding a connection
of the process's pool between two checks (issue 33); the match's row lock
already serialises the actions of one match, so tables run in parallel.
SQLite (the embedded default) allows one writer: there the calls stay on
Channels' single thread.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections, connections

_pools: dict[str, ThreadPoolExecutor] = {}
LANES = {"table": "DB_THREADS", "beat": "BEAT_THREADS", "hello": "HELLO_THREADS", "start": "START_THREADS"}
"""Each lane has its own threads: a burst of heartbeats (hundreds of tabs at
once) queues behind other heartbeats, and a storm of arrivals (a restart,
hundreds of tables opening) behind other arrivals, never in front of a move
(issue 13); and a burst of tables' starts behind other starts, never in
front of the deals their fair-deal answers make ready nor of the moves
(issue 39: at 100 starts a second the first deals waited behind the starts
on the table's threads, and the starts' threads took the GIL from the loop
where the answers are written)."""


_checked = threading.local()
CHECK_EVERY = 5.0
"""Seconds between two checks of a pool thread's connection (its age, and
the health check's round trip): not before every call (issue 13: that was
one more query per action). A call that failed is followed by a check at once,
so a broken connection is dropped and the next call opens a new one."""


class _PooledSyncToAsync(SyncToAsync):
    """SyncToAsync on the pool, closing stale connections (what Channels'
    DatabaseSyncToAsync does around every call, here every few seconds)."""

    def thread_handler(self, loop, *args, **kwargs):
        now = time.monotonic()
        if now - getattr(_checked, "at", 0.0) > CHECK_EVERY:
            close_old_connections()
            _checked.at = now
        try:
            return super().thread_handler(loop, *args, **kwargs)
        except BaseException:
            close_old_connections()
            _checked.at = time.monotonic()
            raise


def _executor(lane: str = "table") -> ThreadPoolExecutor:
    pool = _pools.get(lane)
    if pool is None:
        size = int(settings.TABLE.get(LANES[lane], 2))
        pool = _pools.setdefault(lane, ThreadPoolExecutor(max_workers=size, thread_name_prefix=f"{lane}-db"))
    return pool


def pooled() -> bool:
    return connections["default"].vendor == "postgresql" and int(settings.TABLE["DB_THREADS"]) > 1


def db(fn, lane: str = "table"):
    """``fn`` as an awaitable that runs it off the event loop (see the module's
    docstring), on ``lane``'s threads: ``table`` for actions and everything
    else a connection asks, ``beat`` for heartbeats, ``hello`` for a
    connection's arrival and departure, ``start`` for a table's start."""
    if not pooled():
        return database_sync_to_async(fn)
    return _PooledSyncToAsync(fn, thread_sensitive=False, executor=_executor(lane))
