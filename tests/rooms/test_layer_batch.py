"""The channel layer's batched publishes (config/layers.py, issue 13).

One accepted action's frames go out in one pipelined round trip, but each is
still its own message to its own group: a player's view reaches that
player's connections only, the public view only the public group, and the
messages of one group arrive in the order they were given. Two layer
objects stand for two Daphne processes sharing the Redis layer.
"""

from __future__ import annotations

import asyncio
import uuid

import pytest
from django.conf import settings

from config.layers import BatchedPubSubChannelLayer
from rooms import broadcast

pytestmark = pytest.mark.skipif(
    "channels_redis" not in settings.CHANNEL_LAYERS["default"]["BACKEND"]
    and "config.layers" not in settings.CHANNEL_LAYERS["default"]["BACKEND"],
    reason="needs the Redis channel layer (production mode)",
)


def _layer():
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    return BatchedPubSubChannelLayer(**{**config, "prefix": f"batch-{uuid.uuid4().hex[:8]}"})


async def _received(layer, channel, count, timeout=3.0):
    return [await asyncio.wait_for(layer.receive(channel), timeout) for _ in range(count)]


async def _nothing_more(layer, channel):
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(channel), 0.3)


async def test_each_message_reaches_its_own_group_only_in_order_across_processes():
    one = _layer()
    two = BatchedPubSubChannelLayer(
        **{**settings.CHANNEL_LAYERS["default"]["CONFIG"], "prefix": one._kwargs["prefix"]}
    )
    try:
        a = await one.new_channel()  # player 7, process one
        b = await one.new_channel()  # a spectator, process one
        c = await two.new_channel()  # player 7's second tab, process two
        d = await two.new_channel()  # player 8, process two
        await one.group_add("t.u7", a)
        await two.group_add("t.u7", c)
        await one.group_add("t.public", b)
        await two.group_add("t.u8", d)
        await asyncio.sleep(0.1)  # the subscriptions reach Redis
        await two.group_send_many(
            [
                ("t.public", {"type": "x", "n": 1, "who": "public"}),
                ("t.u7", {"type": "x", "n": 2, "who": "u7"}),
                ("t.u8", {"type": "x", "n": 3, "who": "u8"}),
                ("t.u7", {"type": "x", "n": 4, "who": "u7"}),
                ("t.nobody", {"type": "x", "n": 5, "who": "nobody"}),
            ]
        )
        assert [m["n"] for m in await _received(one, a, 2)] == [2, 4]
        assert [m["n"] for m in await _received(two, c, 2)] == [2, 4]
        assert [m["n"] for m in await _received(one, b, 1)] == [1]
        assert [m["n"] for m in await _received(two, d, 1)] == [3]
        for layer, channel in ((one, a), (one, b), (two, c), (two, d)):
            await _nothing_more(layer, channel)
    finally:
        await one.flush()
        await two.flush()


async def test_consecutive_batches_keep_their_order_within_a_group():
    layer = _layer()
    try:
        channel = await layer.new_channel()
        await layer.group_add("t.u1", channel)
        await asyncio.sleep(0.1)
        await asyncio.gather(
            *(
                layer.group_send_many(
                    [("t.u1", {"type": "x", "n": 2 * i}), ("t.u1", {"type": "x", "n": 2 * i + 1})]
                )
                for i in range(20)
            )
        )
        got = [m["n"] for m in await _received(layer, channel, 40)]
        assert got == list(range(40))  # the lock is first come, first served; a pipeline runs in order
    finally:
        await layer.flush()


async def test_the_table_broadcast_uses_one_batch(monkeypatch):
    """rooms.broadcast.send_all hands the whole batch to the layer at once."""
    calls = []

    class Layer:
        async def group_send_many(self, messages):
            calls.append(list(messages))

        async def group_send(self, group, message):  # pragma: no cover - must not be used
            raise AssertionError("one publish per message")

    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: Layer())
    batch = [("table.1.public", {"type": "table.public"}), ("table.1.u3", {"type": "table.frame"})]
    await broadcast.send_all(batch)
    assert calls == [batch]
