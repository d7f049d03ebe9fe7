"""Issue 13: the table socket reads the socket's frames and the layer's messages
from one queue (infra.websocket.OneQueue.__call__, infra/layers.py
``new_channel_into``), not from two tasks raced by ``asyncio.wait`` for every
message. The same frames arrive, in order; a connection that goes leaves no
channel behind; a server whose ``receive`` is not a queue's own ``get`` is
served through a queue of the consumer's."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings

from config.asgi import application

from .conftest import make_room, session_key_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        "infra.layers" not in settings.CHANNEL_LAYERS["default"]["BACKEND"],
        reason="the lean Redis layer (production mode)",
    ),
]


def _wrapped(app):
    """The site behind a server whose ``receive`` is a plain coroutine function."""

    async def server(scope, receive, send):
        async def plain_receive():
            return await receive()

        return await app(scope, plain_receive, send)

    return server


async def _open(app, room, user):
    key = await sync_to_async(session_key_for)(user)
    comm = WebsocketCommunicator(
        app,
        f"/ws/table/{room.code}/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", f"sessionid={key}".encode())],
    )
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


async def _frames(comm, until, timeout=5.0):
    got = []
    while True:
        frame = json.loads(await comm.receive_from(timeout=timeout))
        got.append(frame)
        if until(frame):
            return got


@pytest.mark.parametrize("server", ["queue", "coroutine"])
async def test_the_sockets_frames_and_the_layers_messages_are_all_answered_in_order(server, alice, bob):
    room = await sync_to_async(make_room)(alice, [bob])
    app = application if server == "queue" else _wrapped(application)
    comm = await _open(app, room, alice)
    await _frames(comm, lambda f: f["type"] == "room")
    layer = get_channel_layer()
    # Messages from the layer (another process's broadcasts) and the socket's own
    # frames, interleaved: each is answered, the layer's in the order sent.
    for n in range(5):
        await layer.group_send(f"table.{room.pk}", {"type": "table.throw", "item": "tomato", "target": n + 1})
        await comm.send_to(text_data=json.dumps({"type": "ping"}))
    got = []
    while (
        len([f for f in got if f["type"] == "throw"]) < 5 or len([f for f in got if f["type"] == "pong"]) < 5
    ):
        got += await _frames(comm, lambda f: True)
    assert [f["target"] for f in got if f["type"] == "throw"] == [1, 2, 3, 4, 5]
    await comm.disconnect()


@pytest.mark.parametrize("server", ["queue", "coroutine"])
async def test_a_closed_socket_leaves_no_channel_subscribed(server, alice, bob):
    room = await sync_to_async(make_room)(alice, [bob])
    app = application if server == "queue" else _wrapped(application)
    layer = get_channel_layer()
    loop_layer = layer._get_layer()
    (shard,) = loop_layer._shards
    specific = loop_layer.prefix + "specific."
    start = {c for c in shard._subscribed_to if c.startswith(specific)}
    comm = await _open(app, room, alice)
    await _frames(comm, lambda f: f["type"] == "room")
    mine = {c for c in shard._subscribed_to if c.startswith(specific)} - start
    assert len(mine) == 1 and mine <= set(loop_layer.channels)
    (name,) = mine
    if server == "queue":  # the layer delivers into the very queue the server's frames come by
        assert loop_layer.channels[name] is comm.input_queue
    else:
        assert loop_layer.channels[name] is not comm.input_queue
    await comm.disconnect()
    for _ in range(50):
        if not (mine & shard._subscribed_to):
            break
        await asyncio.sleep(0.02)
    assert not (mine & shard._subscribed_to) and not (mine & set(loop_layer.channels))
