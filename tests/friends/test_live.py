"""The per-user socket (ws/me/, R-9): live invites and friends' online
changes, hidden online status, and the table's own connection badge (R-4)
that tablemates see whatever that preference says."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import Profile
from config.asgi import application
from friends import services
from friends.views import friends_of
from rooms import services as room_service

from .conftest import befriend, next_frame, open_me

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


async def test_r9_an_anonymous_visitor_gets_no_personal_socket():
    comm = WebsocketCommunicator(application, "/ws/me/", headers=[(b"origin", b"http://testserver")])
    connected, code = await comm.connect(timeout=5)
    assert not connected and code == 4403


async def test_r9_an_invite_reaches_the_friends_open_page_at_once(alice, bob):
    await sync_to_async(befriend)(alice, bob)
    room = await sync_to_async(room_service.create_room)(alice, "hokm4", {})
    comm, hello = await open_me(bob)
    assert hello["invites"] == []
    invite = await sync_to_async(services.invite)(alice, "bob")
    frame = await next_frame(comm, "invite")
    assert frame["invite"]["id"] == invite.pk
    assert frame["invite"]["from"] == "alice" and frame["invite"]["room"] == room.code
    await comm.disconnect()
    # A page opened later gets it in its greeting.
    comm, hello = await open_me(bob)
    assert [i["id"] for i in hello["invites"]] == [invite.pk]
    await comm.disconnect()


async def test_r9_friends_hear_when_a_friend_comes_online_and_goes(alice, bob):
    await sync_to_async(befriend)(alice, bob)
    alice_me, _ = await open_me(alice)
    bob_me, _ = await open_me(bob)
    assert await next_frame(alice_me, "presence") == {"type": "presence", "user": "bob", "online": True}
    assert await sync_to_async(lambda: friends_of(alice)[0]["online"])() is True
    await bob_me.disconnect()
    assert await next_frame(alice_me, "presence") == {"type": "presence", "user": "bob", "online": False}
    assert await sync_to_async(lambda: friends_of(alice)[0]["online"])() is False
    await alice_me.disconnect()


async def test_r9_hidden_online_status_is_hidden_from_friends_but_not_from_tablemates(
    connect, client, alice, bob
):
    await sync_to_async(befriend)(alice, bob)
    await sync_to_async(Profile.objects.filter(user=bob).update)(show_online=False)
    room = await sync_to_async(room_service.create_room)(alice, "hokm4", {})
    await sync_to_async(room_service.sit)(room, bob, 2)

    alice_me, _ = await open_me(alice)
    bob_me, _ = await open_me(bob)
    assert await alice_me.receive_nothing(timeout=0.3)  # no "bob is online" for a hidden status

    # Friends page and API: neither online nor offline, hidden.
    assert await sync_to_async(lambda: friends_of(alice)[0]["online"])() is None
    await sync_to_async(client.force_login)(alice)
    api = await sync_to_async(client.get)("/api/friends/")
    assert api.json()["friends"] == [{"username": "bob", "online": None}]
    page = (await sync_to_async(client.get)("/friends/")).content.decode()
    assert 'data-online="hidden"' in page and 'data-online="online"' not in page

    # at the table, alice still sees bob's connection badge.
    alice_table = await connect(room, alice)
    await connect(room, bob)
    frame = await alice_table.wait_for(
        lambda f: f["type"] == "room" and f["room"]["seats"][1]["presence"] == "connected"
    )
    assert frame["room"]["seats"][1]["user"] == "bob"
    await alice_me.disconnect()
    await bob_me.disconnect()


async def test_r9_a_ping_keeps_the_socket_answering(alice):
    comm, _ = await open_me(alice)
    await comm.send_to(text_data=json.dumps({"type": "ping"}))
    assert await next_frame(comm, "pong")
    await comm.send_to(text_data="junk")  # ignored, the socket stays
    await comm.send_to(text_data=json.dumps({"type": "ping"}))
    assert await next_frame(comm, "pong")
    await comm.disconnect()


async def test_r9_a_moderators_warning_reaches_the_players_open_page(alice, bob):
    from friends import moderation

    comm, _ = await open_me(bob)
    await sync_to_async(moderation.warn)(bob, alice, "mind your language")
    frame = await next_frame(comm, "notice")
    assert frame == {"type": "notice", "kind": "warn", "reason": "mind your language"}
    await comm.disconnect()


async def test_r9_hiding_the_online_status_and_showing_it_again_reach_friends_pages_at_once(
    alice, bob, charlie
):
    """The preference is the profile's (the settings form saves it); a friend's
    open page hears of the change at once, a stranger's does not."""
    from accounts.forms import PreferencesForm

    await sync_to_async(befriend)(alice, bob)
    alice_me, _ = await open_me(alice)
    charlie_me, _ = await open_me(charlie)  # not bob's friend
    bob_me, _ = await open_me(bob)
    assert await next_frame(alice_me, "presence") == {"type": "presence", "user": "bob", "online": True}

    def save(show: bool) -> None:
        profile = Profile.objects.get(user=bob)
        data = {name: getattr(profile, name) for name in PreferencesForm.Meta.fields}
        form = PreferencesForm({**data, "show_online": show}, instance=profile)
        assert form.is_valid(), form.errors
        form.save()

    await sync_to_async(save)(False)
    assert await next_frame(alice_me, "presence") == {"type": "presence", "user": "bob", "online": None}
    await sync_to_async(save)(False)  # saved again unchanged: nothing to tell
    assert await alice_me.receive_nothing(timeout=0.3)
    await sync_to_async(save)(True)
    assert await next_frame(alice_me, "presence") == {"type": "presence", "user": "bob", "online": True}
    assert await charlie_me.receive_nothing(timeout=0.3)
    for comm in (alice_me, bob_me, charlie_me):
        await comm.disconnect()
