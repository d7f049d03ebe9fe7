"""The channel layer's batched publishes and its lean connections (infra/layers.py, issue 13).

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
import redis
from django.conf import settings

from infra.layers import BatchedPubSubChannelLayer
from rooms import broadcast

pytestmark = pytest.mark.skipif(
    "channels_redis" not in settings.CHANNEL_LAYERS["default"]["BACKEND"]
    and "infra.layers" not in settings.CHANNEL_LAYERS["default"]["BACKEND"],
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


def _shard(layer):
    (shard,) = layer._get_layer()._shards
    return shard


def _kill(link) -> None:
    """Redis drops this connection (as on a restart or a network cut)."""
    host, port = link.writer.get_extra_info("sockname")[:2]
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        assert client.client_kill(f"{host}:{port}")
    finally:
        client.close()


async def test_a_lost_listening_connection_subscribes_again_by_itself():
    """The groups a process had are subscribed again on a new connection, with
    nobody asking: the next message after the cut arrives."""
    one, two = _layer(), None
    try:
        two = BatchedPubSubChannelLayer(
            **{**settings.CHANNEL_LAYERS["default"]["CONFIG"], "prefix": one._kwargs["prefix"]}
        )
        a = await one.new_channel()
        await one.group_add("t.u7", a)
        await two.group_send_many([("t.u7", {"type": "x", "n": 1})])
        assert [m["n"] for m in await _received(one, a, 1)] == [1]
        lost = _shard(one)._sub
        _kill(lost)
        for _ in range(100):  # the new connection and its subscriptions
            await asyncio.sleep(0.05)
            current = _shard(one)._sub
            if current is not None and current is not lost and current.alive:
                break
        assert not lost.alive
        n = 2
        while True:  # a message sent before Redis has the new subscription is lost, as with channels-redis
            await two.group_send_many([("t.u7", {"type": "x", "n": n})])
            try:
                got = await asyncio.wait_for(one.receive(a), 0.2)
                break
            except TimeoutError:
                n += 1
                assert n < 30, "the group was never subscribed again"
        assert got["n"] == n
    finally:
        await one.flush()
        if two is not None:
            await two.flush()


async def test_a_lost_publishing_connection_is_opened_again_on_the_next_publish():
    layer = _layer()
    try:
        a = await layer.new_channel()
        await layer.group_add("t.u1", a)
        await layer.group_send_many([("t.u1", {"type": "x", "n": 1})])
        lost = _shard(layer)._pub
        _kill(lost)
        for _ in range(40):
            await asyncio.sleep(0.05)
            if not lost.alive:
                break
        assert not lost.alive
        await layer.group_send_many([("t.u1", {"type": "x", "n": 2})])
        assert [m["n"] for m in await _received(layer, a, 2)] == [1, 2]
        assert _shard(layer)._pub is not lost
    finally:
        await layer.flush()


async def test_group_add_returns_once_redis_has_the_subscription():
    """A connection joins its groups, then reads the state: a message published
    by another process right after ``group_add`` returned must arrive (no sleep)."""
    one, two = _layer(), None
    try:
        two = BatchedPubSubChannelLayer(
            **{**settings.CHANNEL_LAYERS["default"]["CONFIG"], "prefix": one._kwargs["prefix"]}
        )
        await two.group_send_many([("warm", {"type": "x"})])  # two's publishing connection is open
        for n in range(20):
            channel = await one.new_channel()
            await one.group_add(f"t.fresh{n}", channel)
            await two.group_send_many([(f"t.fresh{n}", {"type": "x", "n": n})])
            assert [m["n"] for m in await _received(one, channel, 1, timeout=1.0)] == [n]
    finally:
        await one.flush()
        if two is not None:
            await two.flush()


async def test_an_idle_publishing_connection_is_pinged_and_keeps_working(monkeypatch):
    """The watchdog PINGs a silent connection; the PONG comes among the
    publishes' replies and takes its own place in the queue of replies."""
    from infra import layers

    monkeypatch.setattr(layers, "IDLE_PING", 0.1)
    layer = _layer()
    try:
        a = await layer.new_channel()
        await layer.group_add("t.u1", a)
        await layer.group_send_many([("t.u1", {"type": "x", "n": 0})])
        pings = []
        link = _shard(layer)._pub
        hook = link.on_ping
        link.on_ping = lambda: (pings.append(1), hook())
        await asyncio.sleep(0.35)  # idle: the watchdog pings
        assert pings
        for n in range(1, 4):
            await asyncio.wait_for(layer.group_send_many([("t.u1", {"type": "x", "n": n})]), 1.0)
        assert [m["n"] for m in await _received(layer, a, 4)] == [0, 1, 2, 3]
        assert _shard(layer)._pub.alive
    finally:
        await layer.flush()
