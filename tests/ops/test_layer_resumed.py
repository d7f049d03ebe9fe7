"""Issue 39: after Redis comes back, every table socket of the process asks
for its table again (frames published while Redis was down never came;
tests/faults/test_redis_restart.py plays it with Redis killed)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from tests.rooms.conftest import make_room


async def test_resumed_tells_each_inbox_of_the_process(settings):
    layer = get_channel_layer()
    if not hasattr(layer, "_get_layer"):
        pytest.skip("needs the Redis channel layer")
    loop_layer = layer._get_layer()
    queues = [asyncio.Queue(), asyncio.Queue()]
    names = [await layer.new_channel_into(q) for q in queues]
    await layer.release(names[1])
    loop_layer.resumed()
    assert queues[0].get_nowait() == {"type": "layer.resumed"}
    assert queues[1].empty()  # released: nothing
    await layer.release(names[0])


@pytest.mark.django_db(transaction=True)
async def test_a_table_socket_gets_its_table_again_when_the_layer_resumes(connect, make_user):
    layer = get_channel_layer()
    if not hasattr(layer, "_get_layer"):
        pytest.skip("needs the Redis channel layer")
    users = [await sync_to_async(make_user)(f"lr{i}") for i in range(4)]
    room = await sync_to_async(make_room)(users[0], users[1:])
    conn = await connect(room, users[1])
    await conn.pump()
    seen = conn.seen = len(conn.frames)
    layer._get_layer().resumed()
    frame = await conn.wait_for(lambda f: f["type"] == "room")
    assert frame["room"]["code"] == room.code and len(conn.frames) > seen
