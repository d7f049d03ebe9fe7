"""Issue 14, item 4 (R-9): a socket opened while signed in must not outlive
the sign-in. Signing out over HTTP, or being deactivated (a save, or the
admin's bulk action), closes every open socket of that user at once with
code 4401; the socket reconnecting with the same cookie is anonymous."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.sockets import CLOSE_SIGNED_OUT
from tests.rooms.conftest import make_room

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


async def closed_code(conn, timeout=5.0) -> int:
    """Read the socket until the server closes it; returns the close code."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        output = await conn.comm.receive_output(timeout=max(0.1, end - loop.time()))
        if output["type"] == "websocket.close":
            return output.get("code", 1000)
    raise AssertionError("the socket stayed open")


def signed_in_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


async def test_sign_out_over_http_closes_every_socket_of_the_user(connect, alice, bob):
    room = await sync_to_async(make_room)(alice, [bob], game="hokm2")
    client = await sync_to_async(signed_in_client)(alice)
    key = client.cookies["sessionid"].value
    first = await connect(room, alice, session_key=key)
    second = await connect(room, alice, session_key=key)
    other = await connect(room, bob)

    response = await sync_to_async(client.post)("/accounts/logout/")
    assert response.status_code == 302

    assert await closed_code(first) == CLOSE_SIGNED_OUT
    assert await closed_code(second) == CLOSE_SIGNED_OUT
    # Bob's socket is not touched.
    await other.send({"type": "ping"})
    assert (await other.wait_for(lambda f: f["type"] == "pong"))["type"] == "pong"

    # The same cookie now opens an anonymous socket.
    again = await connect(room, session_key=key)
    assert again.room["you"]["user"] is None


async def test_deactivating_a_user_closes_his_sockets(connect, alice, bob):
    room = await sync_to_async(make_room)(alice, [bob], game="hokm2")
    conn = await connect(room, bob)

    def deactivate():
        user = get_user_model().objects.get(pk=bob.pk)
        user.is_active = False
        user.save()

    await sync_to_async(deactivate)()
    assert await closed_code(conn) == CLOSE_SIGNED_OUT


async def test_a_save_that_keeps_the_user_active_closes_nothing(connect, alice, bob):
    room = await sync_to_async(make_room)(alice, [bob], game="hokm2")
    conn = await connect(room, bob)

    def touch():
        user = get_user_model().objects.get(pk=bob.pk)
        user.email = "bob@example.com"
        user.save()

    await sync_to_async(touch)()
    await conn.send({"type": "ping"})
    assert (await conn.wait_for(lambda f: f["type"] == "pong"))["type"] == "pong"


async def test_the_admin_deactivate_action_closes_the_users_sockets(connect, alice, bob, make_user):
    room = await sync_to_async(make_room)(alice, [bob], game="hokm2")
    conn = await connect(room, bob)

    def run_action():
        admin = get_user_model().objects.create_superuser("boss_x", password="correct-horse-battery")
        client = Client()
        client.force_login(admin)
        return client.post(
            "/admin/accounts/user/",
            {"action": "deactivate", "_selected_action": [str(bob.pk)]},
        )

    response = await sync_to_async(run_action)()
    assert response.status_code == 302
    assert await closed_code(conn) == CLOSE_SIGNED_OUT
