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
        keeper.fingerprints[f"quiet{k}"] = ()
    keeper._check({})
    assert keeper.next_check == {} and keeper.fingerprints == {}


def test_the_store_is_redis_here():
    """These tests are meant for the production store (make test sets REDIS_URL)."""
    if not settings.REDIS_URL:
        pytest.skip("no Redis configured")
    assert isinstance(presence.store(), presence.RedisPresence)
