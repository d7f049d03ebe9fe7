"""The event loop's own PostgreSQL connections (infra/adb.py, issue 13): the
move path's writes run through libpq with text parameters, prepared once per
connection; a failing statement raises psycopg's error, a connection that
went away is replaced and its statement prepared again."""

from __future__ import annotations

import asyncio
import enum
from datetime import UTC, datetime

import psycopg
import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from infra import adb

pytestmark = pytest.mark.django_db(transaction=True)


class Colour(enum.StrEnum):
    RED = "red"


def test_parameters_in_postgresqls_text_format():
    when = datetime(2026, 12, 2, 10, 30, 5, 120000, tzinfo=UTC)
    assert [adb._param(v) for v in (None, b"x", "مریم", Colour.RED, True, False, 0, -7, 2**40, when)] == [
        None,
        b"x",
        "مریم".encode(),
        b"red",
        b"t",
        b"f",
        b"0",
        b"-7",
        b"1099511627776",
        b"2026-12-02T10:30:05.120000+00:00",
    ]
    assert adb._param({"a": [1, "b"]}) == b'{"a":[1,"b"]}'
    with pytest.raises(ValueError):
        adb._param(datetime(2026, 1, 1))  # a time without its zone is never guessed


def test_placeholders_become_numbered_ones():
    statement = adb.Statement("t", "UPDATE x SET a = %s::jsonb WHERE id = %s AND v = %s")
    assert statement.sql == "UPDATE x SET a = $1::jsonb WHERE id = $2 AND v = $3"


@pytest.fixture
def table(settings):
    settings.TABLE = {**settings.TABLE, "MOVE_CONNECTIONS": 1}
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE adb_probe (id integer PRIMARY KEY, doc jsonb, at timestamptz, name text)"
        )
    yield "adb_probe"
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE adb_probe")


async def test_a_statement_runs_prepared_and_counts_its_rows(table):
    insert = adb.Statement(
        "probe_insert", f"INSERT INTO {table} (id, doc, at, name) VALUES (%s, %s::jsonb, %s, %s)"
    )
    when = datetime(2026, 12, 2, 10, 30, tzinfo=UTC)
    for n in range(1, 7):  # the sixth on a statement prepared by the first
        assert await adb.run(insert, [n, b'{"seat": 2, "cards": ["AS"]}', when, "مریم"]) == 1
    update = adb.Statement("probe_update", f"UPDATE {table} SET name = %s WHERE id > %s")
    assert await adb.run(update, ["x", 3]) == 3
    rows = await sync_to_async(_rows)(table)
    assert rows[0] == (1, {"seat": 2, "cards": ["AS"]}, when, "مریم") and len(rows) == 6
    with pytest.raises(psycopg.errors.UniqueViolation):
        await adb.run(insert, [1, b"{}", when, "again"])
    assert await adb.run(update, ["y", 5]) == 1  # the connection is still good after a refusal


async def test_a_connection_that_went_away_is_replaced_and_prepares_again(table):
    insert = adb.Statement("probe_insert2", f"INSERT INTO {table} (id, name) VALUES (%s, %s)")
    assert await adb.run(insert, [1, "a"]) == 1
    made = await adb.pool()
    conn = await made.get()
    pid = conn.info.backend_pid
    made.put(conn)
    await sync_to_async(_terminate)(pid)
    for n in range(2, 5):
        try:
            assert await adb.run(insert, [n, "b"]) == 1
        except psycopg.OperationalError:
            continue  # the one call on the dead connection fails; the pool replaces it
    conn = await made.get()
    assert conn.info.backend_pid != pid
    made.put(conn)
    assert made.count == 1
    assert len(await sync_to_async(_rows)(table)) >= 3


def _rows(table):
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, doc, at, name FROM {table} ORDER BY id")
        return [
            (i, doc if doc is None or isinstance(doc, dict) else __import__("json").loads(doc), at, name)
            for i, doc, at, name in cursor.fetchall()
        ]


def _terminate(pid):
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])


async def test_waiters_are_served_in_turn_and_a_cancelled_one_loses_nothing(settings):
    settings.TABLE = {**settings.TABLE, "MOVE_CONNECTIONS": 1}
    made = await adb.pool()
    first = await made.get()
    order = []

    async def wait(name):
        conn = await made.get()
        order.append(name)
        made.put(conn)

    gone = asyncio.ensure_future(wait("cancelled"))
    second = asyncio.ensure_future(wait("second"))
    third = asyncio.ensure_future(wait("third"))
    await asyncio.sleep(0.01)
    gone.cancel()
    made.put(first)
    await asyncio.gather(second, third)
    assert order == ["second", "third"]
    assert made.count == 1 and len(made.idle) == 1 and not made.waiters


async def test_a_broken_connection_is_dropped_and_a_waiter_gets_a_new_one(settings):
    settings.TABLE = {**settings.TABLE, "MOVE_CONNECTIONS": 1}
    made = await adb.pool()
    conn = await made.get()
    pid = conn.info.backend_pid
    await sync_to_async(_terminate)(pid)
    with pytest.raises(psycopg.OperationalError):
        await conn.execute("SELECT 1")
    waiter = asyncio.ensure_future(made.get())
    await asyncio.sleep(0.01)
    made.put(conn)  # broken: dropped, and the waiter's connection is opened for it
    fresh = await asyncio.wait_for(waiter, 5)
    assert fresh.info.backend_pid != pid and made.count == 1
    assert (await (await fresh.execute("SELECT 1")).fetchone()) == (1,)
    made.put(fresh)
