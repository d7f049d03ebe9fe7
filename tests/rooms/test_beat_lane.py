"""Issue 13: heartbeats run on threads of their own (rooms/db.py lanes).

Hundreds of tabs beat every ten seconds; a burst of them must queue behind
other heartbeats, never in front of a player's move on the table's pool."""

from __future__ import annotations

import asyncio
import time

import pytest
from django.conf import settings as django_settings
from django.db import connection

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
    room, conns = await _dealt_table(connect, alice, bob, charlie, dave)
    tabs = [await connect(room, None, f"beat{i}") for i in range(30)]
    real = TableConsumer._beat

    def slow_beat(self):
        time.sleep(SLOW)
        return real(self)

    monkeypatch.setattr(TableConsumer, "_beat", slow_beat)
    for tab in tabs:
        await tab.send({"type": "ping"})
    await _move_in_time(conns, "heartbeats")
    for tab in tabs:  # and every heartbeat is still answered
        await tab.wait_for(lambda f: f["type"] == "pong", timeout=30)


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
