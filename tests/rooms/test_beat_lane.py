"""Issue 13: heartbeats and arrivals never queue in front of a move.

Hundreds of tabs beat every ten seconds: a ping is answered on the loop and
its presence written with the others (rooms/heartbeats.py), on threads of
the heartbeats' own (infra/lanes.py lanes); arrivals have their own lane too."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings as django_settings
from django.db import connection
from django.db.models import F

from games.models import Match
from rooms import heartbeats
from rooms.consumers import TableConsumer

from .conftest import pump_all
from .test_table_guards import started_hokm4, to_act

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

SLOW = 0.3  # seconds each heartbeat holds its thread in this test


async def _dealt_table(connect, *users):
    if connection.vendor != "postgresql":
        pytest.skip("the lanes are PostgreSQL's thread pools")
    room, conns = await started_hokm4(connect, *users)
    deadline = time.monotonic() + 20
    while not (conns[0].state["view"].get("to_act") and to_act(conns).state["view"]["legal"]):
        assert time.monotonic() < deadline, "the deal never came"
        await pump_all(conns, 0.05)
    return room, conns


async def _move_in_time(conns, behind: str) -> None:
    """The player to act plays; his move is answered within 0.8 s."""
    # 30 jobs of 0.3 s on another lane: more than a second of queue on the
    # table's eight threads had they shared them
    assert 30 * SLOW / int(django_settings.TABLE["DB_THREADS"]) > 1.0
    player = to_act(conns)
    started = time.monotonic()
    await player.send(
        {"type": "act", "action": player.state["view"]["legal"][0], "v": player.state["v"], "ref": "m"}
    )
    ack = await player.wait_for(lambda f: f["type"] in {"ack", "error"} and f.get("ref") == "m")
    took = time.monotonic() - started
    assert ack["type"] == "ack", ack
    assert took < 0.8, f"the move waited {took:.2f} s behind the {behind}"


async def test_a_burst_of_heartbeats_never_queues_in_front_of_a_move(
    connect, alice, bob, charlie, dave, monkeypatch
):
    """30 tabs ping at once while writing heartbeats is slow: every pong comes at
    once (a ping waits for no thread), and a move is answered in time."""
    room, conns = await _dealt_table(connect, alice, bob, charlie, dave)
    tabs = [await connect(room, None, f"beat{i}") for i in range(30)]
    real = heartbeats.Keeper._write
    writes = []

    def slow_write(self, touched, rooms):
        time.sleep(SLOW)
        writes.append(len(touched))
        return real(self, touched, rooms)

    monkeypatch.setattr(heartbeats.Keeper, "_write", slow_write)
    started = time.monotonic()
    for tab in tabs:
        await tab.send({"type": "ping"})
    for tab in tabs:
        await tab.wait_for(lambda f: f["type"] == "pong", timeout=5)
    assert time.monotonic() - started < 1.0, "the pongs waited for the heartbeats' writes"
    await _move_in_time(conns, "heartbeats")
    deadline = time.monotonic() + 10
    while sum(writes) < 30 and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert sum(writes) >= 30 and len(writes) < 30  # written together, not one by one


async def test_a_pong_says_the_databases_version_after_a_quiet_spell(
    connect, alice, bob, charlie, dave, settings
):
    """A socket that saw no frame for a heartbeat gets the version from the database
    (read on the loop's own connection): a lost last frame shows as a newer version."""
    room, conns = await _dealt_table(connect, alice, bob, charlie, dave)
    settings.TABLE = {**settings.TABLE, "HEARTBEAT_SECONDS": 0.5}
    conn = conns[0]
    seen = conn.state["v"]
    await sync_to_async(_bump)(conn.state["match"])  # a version this socket never heard of
    await conn.send({"type": "ping"})
    pong = await conn.wait_for(lambda f: f["type"] == "pong")
    assert pong["v"] == seen  # a frame came within the heartbeat: its version
    await asyncio.sleep(0.6)
    await conn.send({"type": "ping"})
    pong = await conn.wait_for(lambda f: f["type"] == "pong")
    assert pong["v"] == seen + 1 and pong["match"] == conn.state["match"]


def _bump(match_id):
    Match.objects.filter(pk=match_id).update(version=F("version") + 1)


async def test_a_storm_of_arrivals_never_queues_in_front_of_a_move(
    connect, alice, bob, charlie, dave, monkeypatch
):
    """Sockets arriving (the greeting: room, state, presence) run on the arrival
    lane: hundreds of tabs opening at once queue behind each other, not in front
    of a player's move (issue 13)."""
    room, conns = await _dealt_table(connect, alice, bob, charlie, dave)
    real = TableConsumer._hello

    def slow_hello(self, *args):
        time.sleep(SLOW)
        return real(self, *args)

    monkeypatch.setattr(TableConsumer, "_hello", slow_hello)
    arriving = [asyncio.ensure_future(connect(room, None, f"arrive{i}")) for i in range(30)]
    await asyncio.sleep(0.3)  # the arrivals are queued
    await _move_in_time(conns, "arrivals")
    tabs = await asyncio.gather(*arriving)  # and every arrival is still greeted
    assert all(tab.room is not None for tab in tabs)
