"""M-1: a queue served concurrently seats each person exactly once, at one table."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from playnow import services
from playnow.models import Table
from rooms.models import Room, Seat

pytestmark = pytest.mark.django_db(transaction=True)


def test_m1_fifty_concurrent_presses_seat_everyone_exactly_once(make_user):
    people = [make_user(f"r{i:02d}") for i in range(50)]
    start = threading.Barrier(50)
    errors = []

    def press(user):
        try:
            start.wait()
            return services.press(user, "hokm4").pk
        except Exception as exc:  # noqa: BLE001 - counted below
            errors.append(exc)
            return None
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=50) as pool:
        tables = list(pool.map(press, people))
    assert errors == []
    seats = list(Seat.objects.filter(user__in=people).values_list("user_id", "room_id"))
    assert len(seats) == 50
    assert len({u for u, _r in seats}) == 50  # nobody twice, nobody at two tables
    for user, table in zip(people, tables, strict=True):
        assert Seat.objects.get(user=user).room_id == Table.objects.get(pk=table).room_id
    rooms = Room.objects.filter(playnow__isnull=False)
    full = [r for r in rooms if not Seat.objects.filter(room=r, user__isnull=True).exists()]
    assert len(full) == 12 and all(r.status == "playing" for r in full)  # 48 people, four a table
    assert rooms.count() == 13  # and the last two wait together
