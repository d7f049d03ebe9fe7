"""Issue 15: one table at a time, and a lobby of rooms somebody is in (R-1, L-3, L-4)."""

import pytest
from django.urls import reverse

from games.errors import PlayError
from rooms import services as room_service
from rooms.models import Room, Seat
from tests.rooms.conftest import make_room

pytestmark = pytest.mark.django_db


def test_sitting_elsewhere_asks_first_then_moves_the_player_for_free(alice, bob, charlie, settings):
    settings.DEADLINES = "inprocess"
    first = make_room(alice, [bob], game="hokm2")
    second = room_service.create_room(charlie, "hokm2")
    with pytest.raises(PlayError) as caught:
        room_service.sit(second, bob, 2)
    assert caught.value.code == "seated_elsewhere" and caught.value.detail == first.code
    assert Seat.objects.get(room=first, number=2).user == bob  # nothing moved
    assert Seat.objects.get(room=second, number=2).user is None
    room_service.sit(second, bob, 2, move=True)  # L-4: leaving a waiting table costs nothing
    assert not Seat.objects.filter(room=first, user=bob).exists()
    assert Seat.objects.get(room=second, number=2).user == bob


def test_a_player_in_an_active_match_is_refused_with_that_tables_code(alice, bob, charlie, settings):
    settings.DEADLINES = "inprocess"
    playing = make_room(alice, [bob], game="hokm2")
    room_service.start(playing, alice)
    other = room_service.create_room(charlie, "hokm2")
    for move in (False, True):
        with pytest.raises(PlayError) as caught:
            room_service.sit(other, bob, 2, move=move)
        assert caught.value.code == "playing_elsewhere" and caught.value.detail == playing.code
    assert Seat.objects.get(room=playing, number=2).user == bob


def test_the_lobby_lists_only_rooms_somebody_is_in(client, alice, bob, settings):
    settings.DEADLINES = "inprocess"
    lived = room_service.create_room(alice, "hokm4")
    left = room_service.create_room(bob, "hokm4")
    Seat.objects.filter(room=left).update(user=None)  # everyone went away without a word
    page = client.get(reverse("rooms:lobby")).content.decode()
    assert lived.code in page and left.code not in page
    room_service.leave(lived, alice)
    assert Room.objects.get(pk=lived.pk).status == Room.Status.FINISHED  # emptied: closed
    assert lived.code not in client.get(reverse("rooms:lobby")).content.decode()
