"""Database calls from the table's sockets, off the event loop.

Channels' ``database_sync_to_async`` runs every call of every connection on
one shared thread: with hundreds of tables that thread is the bottleneck
while the event loop idles (issue 13). On PostgreSQL the calls run on a
pool of ``TABLE["DB_THREADS"]`` threads instead, each keeping its own
connection (``CONN_MAX_AGE`` with health checks); the match's row lock
already serialises the actions of one match, so tables run in parallel.
SQLite (the embedded default) allows one writer: there the calls stay on
Channels' single thread.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections, connections

_pool: ThreadPoolExecutor | None = None


class _PooledSyncToAsync(SyncToAsync):
    """SyncToAsync on the pool, closing stale connections around the call
    (what Channels' DatabaseSyncToAsync does on its thread)."""

    def thread_handler(self, loop, *args, **kwargs):
        close_old_connections()
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            close_old_connections()


def _executor() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(
            max_workers=int(settings.TABLE["DB_THREADS"]), thread_name_prefix="table-db"
        )
    return _pool


def pooled() -> bool:
    return connections["default"].vendor == "postgresql" and int(settings.TABLE["DB_THREADS"]) > 1


def db(fn):
    """``fn`` as an awaitable that runs it off the event loop (see the module's docstring)."""
    if not pooled():
        return database_sync_to_async(fn)
    return _PooledSyncToAsync(fn, thread_sensitive=False, executor=_executor())
