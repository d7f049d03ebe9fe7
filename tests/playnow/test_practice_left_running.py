"""One table at a time, the same rule at every door (L-2, L-3, L-4, M-1): a
practice match a person plays alone with bots goes on by its clock when he sits
at another table, presses Play now or pairs with a friend, as it does when he
makes a new room (tests/rooms/test_one_table_new_room.py); a match with other
people still refuses him (L-3: they would lose a player)."""

from __future__ import annotations

import pytest

from friends.models import Friendship
from games.errors import PlayError
from games.models import Match
from playnow import services
from rooms import services as room_service
from rooms.models import Room, Seat

pytestmark = pytest.mark.django_db


def _seated_at(user) -> set[int]:
    return set(Seat.objects.filter(user=user).values_list("room_id", flat=True))


def _friends(a, b) -> None:
    low, high = sorted((a.pk, b.pk))
    Friendship.objects.create(low_id=low, high_id=high, requested_by=a, status=Friendship.Status.ACCEPTED)


def _running(room: Room) -> bool:
    room.refresh_from_db()
    return room.status == Room.Status.PLAYING and Match.objects.get(room=room).status == Match.Status.ACTIVE


def test_l_2_sitting_at_a_friends_table_leaves_the_practice_running_and_asks_nothing(people):
    a, b = people[:2]
    practice = room_service.practice(a, "hokm4")
    waiting = room_service.create_room(b, "hokm2")
    room_service.sit(waiting, a, 2)  # no seated_elsewhere question: nothing to leave
    assert _seated_at(a) == {practice.pk, waiting.pk}
    assert Seat.objects.get(room=waiting, number=2).user == a
    assert _running(practice)


def test_l_4_sitting_leaves_the_waiting_tables_and_keeps_the_practice(people):
    a, b, c = people[:3]
    practice = room_service.practice(a, "hokm2")
    first = room_service.create_room(b, "hokm2")
    room_service.sit(first, a, 2)
    second = room_service.create_room(c, "hokm2")
    with pytest.raises(PlayError) as asked:
        room_service.sit(second, a, 2)
    assert asked.value.code == "seated_elsewhere" and asked.value.detail == first.code
    room_service.sit(second, a, 2, move=True)
    assert _seated_at(a) == {practice.pk, second.pk}
    assert _running(practice)


def test_l_3_a_match_with_people_still_refuses_at_every_door(people):
    a, b, c, d = people[:4]
    _friends(a, d)
    with_people = room_service.create_room(b, "hokm2")
    room_service.sit(with_people, a, 2)
    room_service.set_ready(with_people, a, True)
    room_service.start(with_people, b)
    other = room_service.create_room(c, "hokm2")
    doors = (
        lambda: room_service.sit(other, a, 2, move=True),
        lambda: services.press(a, "hokm2"),
        lambda: services.press_together(d, a.username, "hokm4"),
        lambda: room_service.practice(a, "hokm4"),
    )
    for door in doors:
        with pytest.raises(PlayError) as refused:
            door()
        assert refused.value.code == "playing_elsewhere" and refused.value.detail == with_people.code
    assert _seated_at(a) == {with_people.pk}
    assert _running(with_people)


def test_m_1_play_now_from_a_practice_seats_him_and_the_practice_goes_on(people):
    a, b = people[:2]
    practice = room_service.practice(a, "shelem2")
    table = services.press(a, "hokm2")
    assert status_of(table) == "waiting"
    assert _seated_at(a) == {practice.pk, table.room_id}
    assert services.press(b, "hokm2").pk == table.pk  # the next person makes the match
    assert status_of(table) == "playing"
    assert _running(practice)


def test_m_3_two_friends_pair_from_their_practices(people):
    a, b = people[:2]
    _friends(a, b)
    mine, yours = room_service.practice(a, "hokm4"), room_service.practice(b, "bridge")
    assert services.press_together(a, b.username, "hokm2") is None  # the first waits
    table = services.press_together(b, a.username, "hokm2")
    assert {s.user_id for s in Seat.objects.filter(room_id=table.room_id)} == {a.pk, b.pk}
    assert status_of(table) == "playing"
    assert _running(mine) and _running(yours)


def status_of(table) -> str:
    return Room.objects.get(pk=table.room_id).status
