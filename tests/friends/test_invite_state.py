"""R-9, what an open page knows of an invite (issue 34): the badge's counts
(friend requests apart from invites, so each invite counts once), the
invite's time left, a room that filled or started taking its "Take the seat"
away (live and on load), and a second invite to the same friend refused."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.utils import translation

from friends import services
from friends.errors import FriendError
from friends.models import Invite
from rooms import services as room_service

from .conftest import befriend, next_frame, open_me


def refused(code, func, *args):
    with pytest.raises(FriendError) as info:
        func(*args)
    assert info.value.code == code, info.value.code
    return info.value


@pytest.mark.django_db
def test_r9_a_friend_already_invited_to_the_table_is_not_invited_twice(at, alice, bob, charlie):
    befriend(alice, bob)
    room = room_service.create_room(alice, "hokm4", {})
    at(0)
    first = services.invite(alice, "bob")
    at(minutes=4)
    error = refused("already_invited", services.invite, alice, "bob")
    assert error.detail == {"expires_in": 360}
    with translation.override("en"):
        assert "already invited" in error.message
    # Another player at the table asks too: the same answer, still one invite.
    befriend(charlie, bob)
    room_service.sit(room, charlie, 2)
    refused("already_invited", services.invite, charlie, "bob")
    assert Invite.objects.filter(recipient=bob).count() == 1
    # Once it expired (or was declined) he may be invited again.
    at(minutes=10, seconds=1)
    again = services.invite(alice, "bob")
    assert again.pk != first.pk
    services.decline_invite(bob, again.pk)
    assert services.invite(alice, "bob").status == Invite.Status.PENDING


@pytest.mark.django_db
def test_r9_the_api_says_already_invited_with_a_code(alice, bob):
    from rest_framework.test import APIClient

    befriend(alice, bob)
    room_service.create_room(alice, "hokm4", {})
    api = APIClient()
    api.force_authenticate(alice)
    assert api.post("/api/friends/invites/", {"username": "bob"}, format="json").status_code == 201
    answer = api.post("/api/friends/invites/", {"username": "bob"}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 400
    assert answer.json()["code"] == "already_invited"
    assert Invite.objects.count() == 1


@pytest.mark.django_db
def test_r9_the_friends_page_counts_down_and_drops_take_the_seat_once_the_room_filled(
    client, at, alice, bob, charlie, dave, make_user
):
    befriend(alice, bob)
    room = room_service.create_room(alice, "hokm4", {})
    at(0)
    invite = services.invite(alice, "bob")
    at(minutes=7, seconds=55)
    client.cookies["lang"] = "en"
    client.force_login(bob)
    html = client.get("/friends/").content.decode()
    assert f'data-invite="{invite.pk}" data-expires-in="125"' in html
    assert "valid for 2:05" in html and 'data-testid="take-seat"' in html
    for number, guest in ((2, charlie), (3, dave), (4, make_user("erin"))):
        room_service.sit(room, guest, number)
    html = client.get("/friends/").content.decode()
    assert 'data-closed="room_full"' in html and "That room is full: every seat is taken." in html
    assert 'data-testid="take-seat"' not in html and "Take the seat" not in html
    assert "Decline" in html  # he can still clear it away
    # In Persian, the countdown in Persian digits.
    client.cookies["lang"] = "fa"
    html = client.get("/friends/").content.decode()
    assert "۲:۰۵" in html


@pytest.mark.django_db
def test_r9_the_inviters_page_marks_a_friend_already_invited(client, at, alice, bob):
    befriend(alice, bob)
    room_service.create_room(alice, "hokm4", {})
    at(0)
    services.invite(alice, "bob")
    at(minutes=1)
    client.cookies["lang"] = "en"
    client.force_login(alice)
    html = client.get("/friends/").content.decode()
    assert 'data-testid="invited-bob" data-expires-in="540"' in html and "valid for 9:00" in html


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
async def test_r9_the_socket_counts_requests_apart_from_invites(alice, bob, charlie):
    await sync_to_async(befriend)(alice, bob)
    await sync_to_async(room_service.create_room)(alice, "hokm4", {})
    await sync_to_async(services.invite)(alice, "bob")
    await sync_to_async(services.send_request)(charlie, "bob")
    comm, hello = await open_me(bob)
    # One request and one invite: the badge adds them, each once (it read "2" for one invite).
    assert hello["requests"] == 1 and len(hello["invites"]) == 1
    invite = hello["invites"][0]
    assert 595 <= invite["expires_in"] <= 600 and invite["closed"] is None
    await sync_to_async(services.accept_request)(bob, "charlie")
    await comm.disconnect()
    comm, hello = await open_me(bob)
    assert hello["requests"] == 0 and len(hello["invites"]) == 1
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
async def test_r9_an_open_page_hears_that_the_invited_room_filled_freed_a_seat_and_started(
    alice, bob, charlie, dave, make_user
):
    await sync_to_async(befriend)(alice, bob)
    room = await sync_to_async(room_service.create_room)(alice, "hokm4", {})
    await sync_to_async(services.invite)(alice, "bob")
    erin = await sync_to_async(make_user)("erin")
    comm, hello = await open_me(bob)
    assert hello["invites"][0]["closed"] is None
    for number, guest in ((2, charlie), (3, dave), (4, erin)):
        await sync_to_async(room_service.sit)(room, guest, number)
    frame = await _invites_frame(comm, lambda inv: inv["closed"] == "room_full")
    assert frame["invites"][0]["closed_message"]
    await sync_to_async(room_service.leave)(room, erin)  # a seat free again: it can be taken
    await _invites_frame(comm, lambda inv: inv["closed"] is None)
    await sync_to_async(room_service.sit)(room, erin, 4)
    await _invites_frame(comm, lambda inv: inv["closed"] == "room_full")
    for guest in (charlie, dave, erin):
        await sync_to_async(room_service.set_ready)(room, guest, True)
    await sync_to_async(room_service.start)(room, alice)
    await _invites_frame(comm, lambda inv: inv["closed"] == "match_started")
    await comm.disconnect()


async def _invites_frame(comm, wanted):
    for _ in range(20):
        frame = await next_frame(comm, "changed")
        if frame["invites"] and wanted(frame["invites"][0]):
            return frame
    raise AssertionError("no such changed frame")


@pytest.mark.django_db
def test_r9_the_api_overview_says_how_long_and_whether_the_seat_can_be_taken(
    at, alice, bob, charlie, dave, make_user
):
    from rest_framework.test import APIClient

    befriend(alice, bob)
    room = room_service.create_room(alice, "hokm4", {})
    at(0)
    services.invite(alice, "bob")
    at(minutes=1)
    api = APIClient()
    api.force_authenticate(bob)
    (invite,) = api.get("/api/friends/").json()["invites"]
    assert invite["expires_in"] == 540 and invite["closed"] is None
    for number, guest in ((2, charlie), (3, dave), (4, make_user("erin"))):
        room_service.sit(room, guest, number)
    (invite,) = api.get("/api/friends/").json()["invites"]
    assert invite["closed"] == "room_full"
