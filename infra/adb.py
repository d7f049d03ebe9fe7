"""PostgreSQL connections of the event loop itself, for the move path (issue 13).

The table's sockets run on one event loop per Daphne process. Django's ORM is
synchronous, so every database call used to hop to a worker thread and back;
with the threads and the loop sharing one GIL, a saturated process lost a
sixth of its core to the hand-overs (profiled). The plain path
(``games.plain``: a person's card or call inside a round) and the fair
deal's answers run on the loop instead, on a few psycopg asynchronous
connections of the loop's own (``TABLE["MOVE_CONNECTIONS"]``): autocommit,
UTC, jsonb read by orjson; their writes prepared once per connection and run
through libpq (``Statement``, ``run``).

The pool is ours, a few lines: a connection is taken and given back with no
timer, no task and no lock (psycopg_pool's checkout, with its timeouts and
condition, was a quarter of a fair-deal answer's time at saturation,
profiled); a waiter gets the next connection given back, first come first
served; a broken connection is dropped when given back and made anew when
next wanted. A pool belongs to its loop: it is made on first use and closed
with the loop (tests run a loop per test).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import types
import weakref
from datetime import datetime

import orjson
import psycopg
from django.conf import settings
from django.db import connections
from psycopg import generators, pq
from psycopg.types.json import set_json_loads

_pools: dict[asyncio.AbstractEventLoop, LoopPool] = {}


def available() -> bool:
    """Whether the loop's own connections serve the move path here (PostgreSQL only)."""
    return (
        connections["default"].vendor == "postgresql" and int(settings.TABLE.get("MOVE_CONNECTIONS", 0)) > 0
    )


def _conninfo() -> dict:
    """The default database's connection parameters, as Django's own
    connections get them (the test database's name in tests)."""
    params = connections["default"].get_connection_params()
    for name in ("cursor_factory", "context", "server_side_binding", "pool"):
        params.pop(name, None)
    if "prepare_threshold" not in connections["default"].settings_dict["OPTIONS"]:
        # Django turns prepared statements off for the poolers' sake unless
        # OPTIONS says otherwise; the reads here are prepared after their
        # fifth use (psycopg's default) unless OPTIONS names a threshold.
        params.pop("prepare_threshold", None)
    return params


class LoopPool:
    """Up to ``size`` connections of one event loop (see the module's docstring)."""

    def __init__(self, size: int, params: dict):
        self.size = size
        self.params = params
        self.idle: collections.deque = collections.deque()
        self.waiters: collections.deque = collections.deque()
        self.count = 0  # connections open or being opened
        self.closed = False

    async def _open(self) -> psycopg.AsyncConnection:
        conn = await psycopg.AsyncConnection.connect(**self.params, autocommit=True)
        set_json_loads(orjson.loads, conn)
        await conn.execute("SET TIME ZONE 'UTC'")
        return conn

    async def get(self) -> psycopg.AsyncConnection:
        if self.idle:
            return self.idle.pop()
        if self.closed:
            raise psycopg.OperationalError("the loop's connections are closed")
        if self.count < self.size:
            self.count += 1
            try:
                return await self._open()
            except BaseException:
                self.count -= 1
                self._wake_for_room()
                raise
        waiter = asyncio.get_running_loop().create_future()
        self.waiters.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.put(waiter.result())  # handed over as this task was cancelled: pass it on
            raise

    def put(self, conn: psycopg.AsyncConnection) -> None:
        healthy = (
            not self.closed
            and not conn.closed
            and conn.pgconn.status == pq.ConnStatus.OK
            and conn.pgconn.transaction_status == pq.TransactionStatus.IDLE
        )
        if not healthy:
            self.count -= 1
            if not conn.closed:
                conn.pgconn.finish()
            self._wake_for_room()
            return
        while self.waiters:
            waiter = self.waiters.popleft()
            if not waiter.done():
                waiter.set_result(conn)
                return
        self.idle.append(conn)

    def _wake_for_room(self) -> None:
        """A connection went: the first waiter opens a new one itself."""
        while self.waiters:
            waiter = self.waiters.popleft()
            if not waiter.done():
                self.count += 1
                asyncio.ensure_future(self._open_for(waiter))
                return

    async def _open_for(self, waiter: asyncio.Future) -> None:
        try:
            conn = await self._open()
        except Exception as exc:  # noqa: BLE001 - the waiter gets the failure
            self.count -= 1
            if not waiter.done():
                waiter.set_exception(exc)
            return
        if waiter.done():
            self.put(conn)
        else:
            waiter.set_result(conn)

    def close(self) -> None:
        self.closed = True
        while self.idle:
            conn = self.idle.pop()
            if not conn.closed:
                conn.pgconn.finish()
        while self.waiters:
            waiter = self.waiters.popleft()
            if not waiter.done():
                waiter.set_exception(psycopg.OperationalError("the loop's connections are closed"))


async def pool() -> LoopPool:
    """This loop's pool, made (and bound to the loop's close) on first use."""
    loop = asyncio.get_running_loop()
    found = _pools.get(loop)
    if found is None:
        found = _pools[loop] = LoopPool(int(settings.TABLE["MOVE_CONNECTIONS"]), _conninfo())
        _close_with(loop, found)
    return found


def _close_with(loop: asyncio.AbstractEventLoop, made: LoopPool) -> None:
    original = loop.close

    def close(self, *args, **kwargs):
        if _pools.get(loop) is made:
            del _pools[loop]
            made.close()
        self.close = original
        return original(*args, **kwargs)

    loop.close = types.MethodType(close, loop)


async def close_all() -> None:
    """Close the running loop's pool (tests; a server's shutdown)."""
    made = _pools.pop(asyncio.get_running_loop(), None)
    if made is not None:
        made.close()


@contextlib.asynccontextmanager
async def connection():
    """One of the running loop's connections, given back to its pool after."""
    made = await pool()
    conn = await made.get()
    try:
        yield conn
    finally:
        made.put(conn)


async def fetchone(sql: str, params: list):
    """The first row of ``sql`` on one of the loop's connections, or None."""
    async with connection() as conn:
        cursor = await conn.execute(sql, params)
        return await cursor.fetchone()


async def fetchall(sql: str, params: list) -> list:
    """Every row of ``sql`` on one of the loop's connections."""
    async with connection() as conn:
        cursor = await conn.execute(sql, params)
        return await cursor.fetchall()


class Statement:
    """A write of the move path, prepared once on each of the loop's
    connections and run through libpq directly with its parameters as text
    (``run``): psycopg's cursor adapts the parameters and drives the query in
    Python, twice the CPU of the call itself for the plain move's write
    (measured: 150 against 72 us a call). ``sql`` has ``%s`` placeholders."""

    def __init__(self, name: str, sql: str):
        self.name = name.encode()
        parts = sql.split("%s")
        self.sql = "".join(f"{part}${i}" for i, part in enumerate(parts[:-1], start=1)) + parts[-1]
        self.text = self.sql.encode()


_prepared: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # connection -> names prepared on it


def _param(value) -> bytes | None:
    """A parameter in PostgreSQL's text format."""
    if value is None or type(value) is bytes:
        return value
    if isinstance(value, str):  # a TextChoices member too: its value
        return str.encode(value)
    if isinstance(value, bool):
        return b"t" if value else b"f"
    if isinstance(value, int):
        return b"%d" % value
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError("naive datetime")
        return value.isoformat().encode()
    return orjson.dumps(value)


async def _results(conn) -> pq.PGresult:
    results = await conn.wait(generators.execute(conn.pgconn))
    for result in results:
        if result.status not in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK):
            raise psycopg.errors.error_from_result(result, encoding=conn.info.encoding)
    return results[-1]


async def _execute(statement: Statement, params: list) -> pq.PGresult:
    """Run ``statement`` (autocommit: committed when this returns); its result."""
    async with connection() as conn:
        pgconn = conn.pgconn
        names = _prepared.get(conn)
        if names is None:
            names = _prepared[conn] = set()
        if statement.name not in names:
            pgconn.send_prepare(statement.name, statement.text)
            await _results(conn)
            names.add(statement.name)
        pgconn.send_query_prepared(statement.name, [_param(v) for v in params])
        return await _results(conn)


async def run(statement: Statement, params: list) -> int:
    """Run ``statement`` (autocommit: committed when this returns); its row count."""
    result = await _execute(statement, params)
    return int(result.command_tuples or 0)


async def first(statement: Statement, params: list) -> list | None:
    """Run ``statement`` (autocommit); its first row as PostgreSQL's text
    (bytes, None for null), or None when it returned no row."""
    result = await _execute(statement, params)
    if not result.ntuples:
        return None
    return [result.get_value(0, column) for column in range(result.nfields)]
