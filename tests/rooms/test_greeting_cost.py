"""Issue 39: a table's greeting (the room frame and the viewer's state frame,
read once per arriving socket: a thousand tables' start is four thousand of
them) reads the room, its latest match, its seats and, on a full frame, the
match's finished rounds; the fair deal's record only while its deal is still
to come (F-1). Its seat among the seats read, not a query of its own."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engine
from games.engine import CHANCE
from rooms import services as room_service
from rooms.consumers import TableConsumer
from tests.rooms.conftest import make_room

pytestmark = pytest.mark.django_db(transaction=True)


def _greeter(room, user) -> TableConsumer:
    consumer = TableConsumer.__new__(TableConsumer)
    consumer.code, consumer.user, consumer.uid = room.code, user, user.pk
    consumer.conn_id, consumer.who, consumer.scope = "greeting-test", f"u:{user.pk}", {"cookies": {}}
    return consumer


def test_a_greeting_mid_round_is_four_reads(alice, bob, charlie, dave, settings):
    settings.FAIR_WAIT_SECONDS = 0
    room = make_room(alice, [bob, charlie, dave], rules={"middle_card": False})
    match = room_service.start(room, alice)
    match.refresh_from_db()
    assert CHANCE not in engine.get("hokm4").to_act(match.state)  # dealt: the trump's choice is due
    greeter = _greeter(room, bob)
    with CaptureQueriesContext(connection) as q:
        hello = greeter._hello(room.pk, True)
    sql = [x["sql"] for x in q.captured_queries]
    assert len(sql) == 4, sql
    assert not any("games_dealrecord" in s for s in sql)
    assert hello["player"] and hello["fair"] is None
    assert greeter.seat_number == match.seat_of_user(bob.pk) == 2
    assert hello["state"]["view"]["viewer"] == 2


def test_a_greeting_while_the_deal_waits_for_its_values_shows_the_record(alice, bob, charlie, dave, settings):
    """F-1: a browser that connects while the fair deal collects still answers in time."""
    settings.FAIR_WAIT_SECONDS = 60
    room = make_room(alice, [bob, charlie, dave], rules={"middle_card": False})
    match = room_service.start(room, alice)
    match.refresh_from_db()
    assert CHANCE in engine.get("hokm4").to_act(match.state)  # the first deal waits for the values
    hello = _greeter(room, charlie)._hello(room.pk, True)
    assert hello["fair"] is not None and hello["fair"]["type"] == "fair_state"


def test_the_greetings_room_and_seats_are_the_orms_with_their_users_read_along(
    alice, bob, charlie, django_assert_num_queries
):
    """Issue 39: the room with its creator and the seats with their users come
    through statements built once (rooms/table/hello.py); what they hold is
    what ``select_related`` gives, and reading a creator or a seat's user
    (the room frame's names) needs no statement of its own."""
    from rooms.broadcast import room_seats
    from rooms.models import Room
    from rooms.table.hello import _ROOM, _SEATS

    room = make_room(alice, [bob, charlie], rules={"middle_card": False})  # seat 4 empty
    orm = Room.objects.select_related("creator").get(pk=room.pk)
    with django_assert_num_queries(2):
        fast = _ROOM.one([room.pk])
        seats = _SEATS.all([room.pk])
    with django_assert_num_queries(0):
        assert fast.creator.username == alice.username and fast.creator.pk == orm.creator_id
        assert [(s.number, s.user.username if s.user_id else None) for s in seats] == [
            (1, alice.username),
            (2, bob.username),
            (3, charlie.username),
            (4, None),
        ]
        assert seats[3].user is None
    assert {f.attname: getattr(fast, f.attname) for f in Room._meta.concrete_fields} == {
        f.attname: getattr(orm, f.attname) for f in Room._meta.concrete_fields
    }
    expected = room_seats(orm)
    assert [(s.pk, s.user_id, s.ready, s.is_bot) for s in seats] == [
        (s.pk, s.user_id, s.ready, s.is_bot) for s in expected
    ]
    assert _ROOM.one([room.pk + 10_000]) is None


async def test_a_socket_does_not_send_the_room_frame_it_sent_last():
    """Issue 39: each arrival sends the room to the whole table; after a
    restart those frames are the same as the one each socket just had."""
    consumer = TableConsumer.__new__(TableConsumer)
    consumer.user, consumer.seat_number = None, None
    sent = []

    async def send_json(content):
        sent.append(content)

    consumer.send_json = send_json
    room = {"code": "abc", "seats": [{"number": 1, "presence": "connected"}]}
    await consumer._send_room(room)
    await consumer._send_room(dict(room))  # the same again: not sent
    assert len(sent) == 1
    await consumer._send_room({**room, "spectators": 1})  # changed: sent
    consumer.seat_number = 2  # the viewer's own part changed: sent
    await consumer._send_room({**room, "spectators": 1})
    assert [frame["room"].get("spectators") for frame in sent] == [None, 1, 1]
    assert sent[-1]["you"] == {"user": None, "seat": 2}
