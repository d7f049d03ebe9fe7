"""Django's PostgreSQL backend with its connection pool (issue 33), plus one
guard: a thread that ends while it holds a pooled connection gives it back.

Django lends a pooled connection to a thread until ``connection.close()``
(the end of a request, ``close_old_connections``). A thread that ends
without it (a worker thread of a test, a ``ThreadPoolExecutor`` shut down,
a timer) would keep its slot in the pool for good: after ``DB_POOL_SIZE``
such threads every request would wait for its timeout. Each thread that
takes a connection keeps a small guard in a thread-local; CPython drops a
thread's locals when the thread ends, and the guard's ``__del__`` then
returns the connection (the pool rolls back whatever it was in the middle
of, or drops it if broken).
"""

from __future__ import annotations

import threading

from django.db.backends.postgresql import base

_guards = threading.local()


class _Guard:
    __slots__ = ("wrapper",)

    def __init__(self, wrapper):
        self.wrapper = wrapper

    def __del__(self):
        wrapper = self.wrapper
        conn = getattr(wrapper, "connection", None)
        pool = wrapper._connection_pools.get(wrapper.alias)
        if conn is None or pool is None or getattr(conn, "_pool", None) is not pool:
            return
        wrapper.connection = None
        try:
            pool.putconn(conn)
        except Exception:  # noqa: BLE001 - a pool closed meanwhile: nothing to give back to
            pass


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params):
        connection = super().get_new_connection(conn_params)
        if self.pool is not None:
            guards = getattr(_guards, "by_alias", None)
            if guards is None:
                guards = _guards.by_alias = {}
            guards[self.alias] = _Guard(self)
        return connection
