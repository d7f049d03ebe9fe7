"""R-4 / R-7 at scale (issue 13): the heartbeats' room checks read every due
room's presence together and read a room from the database only when its
presence changed."""

from __future__ import annotations

import time
import uuid

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from infra import presence
from rooms import broadcast, heartbeats

from .conftest import make_room

pytestmark = pytest.mark.django_db(transaction=True)


def _code() -> str:
    return f"pc-{uuid.uuid4().hex[:10]}"


def test_r_7_the_fingerprints_read_together_are_the_ones_read_one_by_one():
    store = presence.store()
    now = time.time()
    rooms = [_code() for _ in range(5)]
    quiet = 2 * presence.heartbeat_seconds() + 2  # no heartbeat for two periods: connecting
    assert quiet < presence.ttl()
    for k, room in enumerate(rooms):
        store.touch(room, "live", f"u:{k}", 1, now)
        store.touch(room, "spectator", f"s:{k}", None, now - quiet)
        store.touch(room, "dead", f"u:{k + 100}", 2, now - presence.ttl() - 5)  # expired
    together = presence.fingerprints([*rooms, _code()], now)
    for k, room in enumerate(rooms):
        assert together[room] == presence.fingerprint(room, now)
        assert together[room] == ((f"s:{k}", 0, "connecting"), (f"u:{k}", 1, "connected"))
        assert all(who != f"u:{k + 100}" for _t, who, _s in store.entries(room, now))  # dropped
    assert list(together.values())[-1] == ()  # a room nobody is at


def test_r_7_a_room_is_read_from_the_database_only_when_its_presence_changed(alice, bob, monkeypatch):
    room = make_room(alice, [bob])
    keeper = heartbeats.Keeper()
    sent = []
    monkeypatch.setattr(broadcast, "presence_changed", lambda r, **kw: sent.append(r.pk))
    store = presence.store()
    store.touch(room.code, "a", f"u:{alice.pk}", 1)
    keeper._check({room.code: room.pk})
    assert sent == [room.pk]  # the first look: read and sent (if its signature changed)
    keeper.next_check.clear()
    with CaptureQueriesContext(connection) as queries:
        keeper._check({room.code: room.pk})
    assert sent == [room.pk] and len(queries) == 0  # the same presence: no database, nothing sent
    store.touch(room.code, "b", f"u:{bob.pk}", 2)
    keeper._check({room.code: room.pk})
    assert sent == [room.pk]  # within half a heartbeat of the last check: not looked at
    keeper.next_check[room.code] = 0.0
    keeper._check({room.code: room.pk})
    assert sent == [room.pk, room.pk]  # bob came: read and sent
    store.drop(room.code, "a")
    store.drop(room.code, "b")


def test_the_checks_forget_rooms_long_quiet(monkeypatch):
    keeper = heartbeats.Keeper()
    monkeypatch.setattr(heartbeats, "ROOMS_KEPT", 3)
    monkeypatch.setattr(broadcast, "presence_changed", lambda r, **kw: None)
    old = time.monotonic() - heartbeats.GONE_KEPT - 10
    for k in range(5):
        keeper.next_check[f"quiet{k}"] = old
    keeper._check({})
    assert keeper.next_check == {}


def test_the_presence_shown_is_remembered_for_so_many_rooms_the_oldest_forgotten(monkeypatch):
    monkeypatch.setattr(presence, "SHOWN_KEPT", 3)
    rooms = [_code() for _ in range(5)]
    for k, room in enumerate(rooms):
        presence.shown(room, ((f"u:{k}", 1, "connected"),))
    presence.shown(rooms[2], ())  # shown again: the newest
    assert [presence.last_shown(r) for r in rooms] == [
        None,
        None,
        (),
        (("u:3", 1, "connected"),),
        (("u:4", 1, "connected"),),
    ]


async def test_r_7_a_tables_arrivals_leave_its_first_check_nothing_to_read(
    connect, alice, bob, charlie, dave
):
    """Issue 39: each arrival's greeting sends the room with its presence; the
    heartbeats' first check of the table after its four arrivals found the
    presence new to it and read the room again (three statements a table,
    a thousand tables arriving). It reads nothing now; a change after them
    (a fifth tab, a spectator) is still read and sent."""
    from asgiref.sync import sync_to_async

    room = await sync_to_async(make_room)(alice, [bob, charlie, dave])
    sockets = [await connect(room, user) for user in (alice, bob, charlie, dave)]
    keeper = heartbeats.Keeper()
    sent = []

    def check():
        real = broadcast.presence_changed
        with CaptureQueriesContext(connection) as queries:
            try:
                broadcast.presence_changed = lambda r, **kw: (sent.append(r.pk), real(r, **kw))
                keeper._check({room.code: room.pk})
            finally:
                broadcast.presence_changed = real
        keeper.next_check.clear()
        return len(queries)

    assert await sync_to_async(check)() == 0 and sent == []
    presence.store().touch(room.code, "spectator-tab", "s:someone", None)
    assert await sync_to_async(check)() > 0 and sent == [room.pk]
    assert await sync_to_async(check)() == 0 and sent == [room.pk]  # shown: not read again
    presence.store().drop(room.code, "spectator-tab")
    assert len(sockets) == 4


def test_the_store_is_redis_here():
    """These tests are meant for the production store (make test sets REDIS_URL)."""
    if not settings.REDIS_URL:
        pytest.skip("no Redis configured")
    assert isinstance(presence.store(), presence.RedisPresence)
