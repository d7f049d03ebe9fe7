"""PostgreSQL connections of the event loop itself, for the move path (issue 13).

The table's sockets run on one event loop per Daphne process. Django's ORM is
synchronous, so every database call used to hop to a worker thread and back;
with the threads and the loop sharing one GIL, a saturated process lost a
sixth of its core to the hand-overs (profiled). The plain path
(``games.plain``: a person's card or call inside a round, two statements)
runs on the loop instead, on a small pool of psycopg's asynchronous
connections per loop (``TABLE["MOVE_CONNECTIONS"]``, psycopg_pool):
autocommit, UTC, jsonb read by orjson, statements prepared by the server
after their fifth use (psycopg's default).

A pool belongs to its loop: it is opened on first use and closed with the
loop (tests run a loop per test).
"""

from __future__ import annotations

import asyncio
import types
import weakref
from datetime import datetime

import orjson
import psycopg
from django.conf import settings
from django.db import connections
from psycopg import generators, pq
from psycopg.types.json import set_json_loads
from psycopg_pool import AsyncConnectionPool

_pools: dict[asyncio.AbstractEventLoop, AsyncConnectionPool] = {}


def available() -> bool:
    """Whether the loop's own connections serve the move path here (PostgreSQL only)."""
    return (
        connections["default"].vendor == "postgresql" and int(settings.TABLE.get("MOVE_CONNECTIONS", 0)) > 0
    )


def _conninfo() -> dict:
    """The default database's connection parameters, as Django's own
    connections get them (the test database's name in tests)."""
    params = connections["default"].get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("server_side_binding", None)
    params.pop("pool", None)
    if "prepare_threshold" not in connections["default"].settings_dict["OPTIONS"]:
        # Django turns prepared statements off for the poolers' sake unless
        # OPTIONS says otherwise; these few statements, run for every move,
        # are prepared after their fifth use (psycopg's default) unless
        # OPTIONS names a threshold (None: never).
        params.pop("prepare_threshold", None)
    return params


async def _configure(conn) -> None:
    set_json_loads(orjson.loads, conn)
    await conn.set_autocommit(True)
    await conn.execute("SET TIME ZONE 'UTC'")


async def pool() -> AsyncConnectionPool:
    """This loop's pool, opened (and bound to the loop's close) on first use."""
    loop = asyncio.get_running_loop()
    found = _pools.get(loop)
    if found is not None:
        return found
    size = int(settings.TABLE["MOVE_CONNECTIONS"])
    made = AsyncConnectionPool(
        kwargs=_conninfo(),
        min_size=size,
        max_size=size,
        open=False,
        configure=_configure,
        name="moves",
        timeout=10.0,
        reconnect_timeout=30.0,
    )
    if loop in _pools:  # another task made it while this one was building its own
        return _pools[loop]
    _pools[loop] = made
    _close_with(loop, made)
    await made.open(wait=False)
    return made


def _close_with(loop: asyncio.AbstractEventLoop, made: AsyncConnectionPool) -> None:
    original = loop.close

    def close(self, *args, **kwargs):
        if _pools.get(loop) is made:
            del _pools[loop]
            if not loop.is_running():
                try:
                    loop.run_until_complete(made.close(timeout=1.0))
                except BaseException:  # noqa: BLE001 - its tasks were cancelled with the loop's
                    pass
                for conn in list(getattr(made, "_pool", ())):  # whatever the close left open
                    conn.pgconn.finish()
        self.close = original
        return original(*args, **kwargs)

    loop.close = types.MethodType(close, loop)


async def close_all() -> None:
    """Close the running loop's pool (tests; a server's shutdown)."""
    made = _pools.pop(asyncio.get_running_loop(), None)
    if made is not None:
        await made.close(timeout=1.0)


async def fetchone(sql: str, params: list):
    """The first row of ``sql`` on one of the loop's connections, or None."""
    made = await pool()
    async with made.connection() as conn:
        cursor = await conn.execute(sql, params)
        return await cursor.fetchone()


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


async def run(statement: Statement, params: list) -> int:
    """Run ``statement`` (autocommit: committed when this returns); its row count."""
    made = await pool()
    async with made.connection() as conn:
        pgconn = conn.pgconn
        names = _prepared.get(conn)
        if names is None:
            names = _prepared[conn] = set()
        if statement.name not in names:
            pgconn.send_prepare(statement.name, statement.text)
            await _results(conn)
            names.add(statement.name)
        pgconn.send_query_prepared(statement.name, [_param(v) for v in params])
        result = await _results(conn)
        return int(result.command_tuples or 0)
