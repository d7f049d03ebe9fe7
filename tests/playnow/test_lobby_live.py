"""M-5: the lobby is change-driven. A room or match change marks it (a version
in the shared cache); each process with lobby viewers builds and pushes the
snapshot again only then, at most once a tick (1 s) per viewer; a move at a
table and a lobby nobody looks at cost nothing."""

from __future__ import annotations

import json
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from config.asgi import application
from playnow import consumers, live, lobby, services
from rooms import services as room_service
from tests.rooms.conftest import session_key_for

from .test_pages import _play_some

pytestmark = pytest.mark.django_db(transaction=True)


async def viewer():
    key = await sync_to_async(session_key_for)(None)
    comm = WebsocketCommunicator(
        application,
        "/ws/lobby/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", f"sessionid={key}".encode())],
    )
    connected, _ = await comm.connect()
    assert connected
    first = json.loads(await comm.receive_from(timeout=5))
    assert first["type"] == "lobby"
    return comm


async def until(comm, test, timeout: float):
    """The viewer's updates, with their arrival times, until one passes ``test``."""
    got = []
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no lobby update passed the test in {timeout} s ({len(got)} came)"
        snap = json.loads(await comm.receive_from(timeout=left))
        got.append((time.monotonic(), snap))
        if test(snap):
            return got


def test_m5_moves_at_tables_and_no_viewer_cost_the_lobby_nothing(alice, bob, monkeypatch):
    built = []
    monkeypatch.setattr(lobby, "snapshot", lambda *a, **k: built.append(1) or {})
    table = services.press(alice, "hokm2")
    before = live.version()
    services.press(bob, "hokm2")  # the table fills and starts: a lobby change
    assert live.version() > before
    before = live.version()
    assert _play_some(table.room_id, 8) >= 8
    assert live.version() == before  # no move marked the lobby
    assert built == []  # and nobody looking: no snapshot was built
    assert consumers.hub.count() == 0 and (consumers.hub.task is None or consumers.hub.task.done())


async def test_m5_a_viewer_gets_a_new_table_within_two_seconds_and_nothing_for_moves(settings, alice, bob):
    reverse("rooms:lobby")  # the URLconf's one-time import (a served site has it loaded) out of the timing
    settings.LOBBY_TICK_SECONDS = 1.0
    comm = await viewer()
    table = await sync_to_async(services.press)(alice, "hokm2")
    pressed = time.monotonic()  # committed
    got = await until(comm, lambda s: [t["code"] for t in s["waiting"]] == [table.room.code], 5)
    assert got[-1][0] - pressed <= 2.0
    await sync_to_async(services.press)(bob, "hokm2")
    await until(comm, lambda s: [t["code"] for t in s["watch"]] == [table.room.code], 5)
    builds, version = consumers.hub.builds, await sync_to_async(live.version)()
    assert await sync_to_async(_play_some)(table.room_id, 8) >= 8
    assert await comm.receive_nothing(timeout=2.5)  # two ticks and more: nothing sent
    assert consumers.hub.builds == builds  # nothing built: the moves marked nothing
    assert await sync_to_async(live.version)() == version
    await comm.disconnect()


async def test_m5_a_burst_of_changes_gives_each_viewer_at_most_one_update_a_second(settings, make_user):
    settings.LOBBY_TICK_SECONDS = 1.0
    people = await sync_to_async(lambda: [make_user(f"b{i:02d}") for i in range(80)])()
    one, two = await viewer(), await viewer()
    builds = consumers.hub.builds

    def burst() -> int:
        began, made = time.monotonic(), 0
        while made < len(people) and (time.monotonic() - began < 2.5 or made < 20):
            room_service.create_room(people[made], "hokm4")
            made += 1
        return made

    made = await sync_to_async(burst)()
    assert made >= 20  # a burst of at least 20 table changes, spread over two ticks and more
    for comm in (one, two):
        got = await until(comm, lambda s, made=made: len(s["waiting"]) == made, 10)
        gaps = [b[0] - a[0] for a, b in zip(got, got[1:], strict=False)]
        assert all(gap >= 0.9 for gap in gaps), gaps  # at most one update a second
    # One snapshot a tick for both viewers of the process, not one per viewer or per change.
    assert consumers.hub.builds - builds <= len(got) + 1 < made
    await one.disconnect()
    await two.disconnect()


async def test_m5_a_viewer_is_brought_up_to_date_when_a_newer_viewers_arrival_built_the_text(settings, alice):
    """M-5: a change, then a second viewer arriving before the next tick: his
    arrival builds the text at the new version and sends it to him alone. The
    first viewer must still get it on the tick (the hub once skipped him: it
    kept one text per language and took "kept at this version" for "everyone
    has it"; a practice table stayed in a watcher's lobby after its only person
    left, because that person's own lobby page arrived between)."""
    reverse("rooms:lobby")
    settings.LOBBY_TICK_SECONDS = 2.0
    first = await viewer()
    table = await sync_to_async(services.press)(alice, "hokm2")  # a lobby change, committed
    # He arrives before the next tick: the text is built at the new version and sent to him.
    key = await sync_to_async(session_key_for)(None)
    second = WebsocketCommunicator(
        application,
        "/ws/lobby/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", f"sessionid={key}".encode())],
    )
    assert (await second.connect())[0]
    greeting = json.loads(await second.receive_from(timeout=5))
    assert [t["code"] for t in greeting["waiting"]] == [table.room.code]
    got = await until(first, lambda s: [t["code"] for t in s["waiting"]] == [table.room.code], 5)
    assert got  # the first viewer has the table too, on the tick
    await first.disconnect()
    await second.disconnect()
