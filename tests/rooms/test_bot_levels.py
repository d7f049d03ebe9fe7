"""Issue 21 and R-1: the creator chooses each bot seat's level when he adds it,
may change it while the room waits, and everyone at the table sees it."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from rooms.models import Seat

from .conftest import make_room

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


def seat_frame(conn, number):
    return conn.room["room"]["seats"][number - 1]


async def test_r_1_a_bot_is_added_at_the_chosen_level_and_the_table_sees_it(connect, alice, bob):
    room = await sync_to_async(make_room)(alice, [bob])
    creator = await connect(room, alice)
    guest = await connect(room, bob)
    await creator.send({"type": "bot", "seat": 3, "level": "strong"})
    await guest.wait_for(lambda f: f["type"] == "room" and f["room"]["seats"][2]["bot"])
    assert seat_frame(guest, 3)["level"] == "strong"
    assert seat_frame(guest, 1)["level"] is None  # a person's seat has no level
    assert (await sync_to_async(Seat.objects.get)(room=room, number=3)).bot_level == "strong"

    # While the room waits the creator changes it; the same level again changes nothing.
    await creator.send({"type": "bot", "seat": 3, "level": "easy"})
    await guest.wait_for(lambda f: f["type"] == "room" and f["room"]["seats"][2]["level"] == "easy")
    await creator.wait_for(lambda f: f["type"] == "room" and f["room"]["seats"][2]["level"] == "easy")
    await creator.pump(0.2)
    creator.frames.clear()
    creator.seen = 0
    await creator.send({"type": "bot", "seat": 3, "level": "easy"})
    await creator.send({"type": "ping"})
    await creator.wait_for(lambda f: f["type"] == "pong")
    assert not [f for f in creator.frames if f["type"] == "error"]
    assert all(f["room"]["seats"][2]["level"] == "easy" for f in creator.frames if f["type"] == "room")
    assert (await sync_to_async(Seat.objects.get)(room=room, number=3)).bot_level == "easy"


async def test_r_1_bad_levels_and_foreign_hands_change_nothing(connect, alice, bob):
    room = await sync_to_async(make_room)(alice, [bob], bots=(3,))
    creator = await connect(room, alice)
    guest = await connect(room, bob)

    await creator.send({"type": "bot", "seat": 3, "level": "genius"})
    assert (await creator.wait_for(lambda f: f["type"] == "error"))["code"] == "bad_frame"
    await guest.send({"type": "bot", "seat": 3, "level": "strong"})
    assert (await guest.wait_for(lambda f: f["type"] == "error"))["code"] == "not_creator"
    # A person's seat never becomes a bot, whatever the level.
    await creator.send({"type": "bot", "seat": 2, "level": "strong"})
    assert (await creator.wait_for(lambda f: f["type"] == "error"))["code"] == "seat_taken"
    seats = {s.number: s for s in await sync_to_async(list)(Seat.objects.filter(room=room))}
    assert seats[3].is_bot and seats[3].bot_level == "normal"
    assert seats[2].user_id == bob.pk and not seats[2].is_bot
