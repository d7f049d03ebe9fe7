"""One table at a time (L-3, L-4), beside test_one_table.py: a player who makes a new room, through the
lobby or "play now with bots", leaves a table he waits at (it costs nothing
before its match), and is refused while a match of his runs elsewhere, so
nobody ever plays two matches at once."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import translation

from games.models import Match
from rooms import services
from rooms.forms import CreateRoomForm
from rooms.models import Room, Seat


def _lobby_form(game: str) -> dict:
    form = CreateRoomForm(game=game)
    data = {"game": game}
    for name, field in form.fields.items():
        if name.startswith("rule_"):
            data[name] = field.initial if field.initial is not None else next(iter(field.choices))[0]
    return data


def _waiting_at(creator, guest) -> Room:
    room = services.create_room(creator, "hokm2")
    services.sit(room, guest, 2)
    services.set_ready(room, guest, True)
    return room


def _rooms_of(user) -> list[int]:
    return list(Seat.objects.filter(user=user).values_list("room_id", flat=True))


@pytest.mark.django_db
def test_l_4_a_guest_waiting_at_a_table_who_makes_a_room_in_the_lobby_leaves_it(client, alice, bob):
    old = _waiting_at(alice, bob)
    client.force_login(bob)
    response = client.post(reverse("rooms:create"), _lobby_form("hokm2"))
    assert response.status_code == 302
    new = Room.objects.exclude(pk=old.pk).get()
    assert response.url == new.get_absolute_url()
    assert _rooms_of(bob) == [new.pk]
    # The old table keeps its creator and waits for another guest; a start is refused.
    old.refresh_from_db()
    assert old.creator_id == alice.pk and old.status == Room.Status.WAITING
    with pytest.raises(services.PlayError) as refused:
        services.start(old, alice)
    assert refused.value.code == "seats_not_full"


@pytest.mark.django_db
def test_l_4_the_creator_who_makes_another_room_hands_the_waiting_one_over(alice, bob):
    old = _waiting_at(alice, bob)
    new = services.create_room(alice, "hokm4", move=True)
    assert _rooms_of(alice) == [new.pk]
    old.refresh_from_db()
    assert old.creator_id == bob.pk  # the one still seated runs it now


@pytest.mark.django_db
def test_l_3_a_player_in_a_running_match_can_make_no_room_nor_practise(client, alice, bob):
    old = _waiting_at(alice, bob)
    match = services.start(old, alice)
    client.force_login(bob)
    for url, data in (
        (reverse("rooms:create"), _lobby_form("hokm4")),
        (reverse("rooms:practice", args=["hokm4"]), {}),
    ):
        response = client.post(url, data)
        assert response.status_code == 302 and response.url == reverse("rooms:lobby")
        said = [str(m) for m in get_messages(response.wsgi_request)]
        with translation.override("fa"):  # the site's default language
            assert said[-1] == str(services.PlayError("playing_elsewhere").message)
    assert Room.objects.count() == 1 and Match.objects.count() == 1
    assert _rooms_of(bob) == [old.pk]
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


@pytest.mark.django_db
def test_l_4_practice_from_a_waiting_table_moves_the_player_to_the_practice_match(client, alice, bob):
    old = _waiting_at(alice, bob)
    client.force_login(bob)
    response = client.post(reverse("rooms:practice", args=["hokm4"]))
    new = Room.objects.exclude(pk=old.pk).get()
    assert response.status_code == 302 and response.url == new.get_absolute_url()
    assert new.status == Room.Status.PLAYING
    assert _rooms_of(bob) == [new.pk]


@pytest.mark.django_db
def test_l_2_a_practice_match_left_running_does_not_stop_another_practice(client, alice):
    """Trying one game with bots, then another: the first practice match (nobody but
    him and bots) goes on by its clock; the second starts. Nobody else is harmed."""
    client.force_login(alice)
    first = client.post(reverse("rooms:practice", args=["bridge"]))
    second = client.post(reverse("rooms:practice", args=["shelem2"]))
    rooms = list(Room.objects.order_by("pk"))
    assert len(rooms) == 2 and all(r.status == Room.Status.PLAYING for r in rooms)
    assert first.url == rooms[0].get_absolute_url() and second.url == rooms[1].get_absolute_url()
    assert Match.objects.filter(status=Match.Status.ACTIVE).count() == 2
