"""The channel layer: channels-redis's pub/sub layer, with batched publishes.

One accepted action sends one message per viewer class of the table (the
public view, and each player's own view: rooms/broadcast.py), so that no
message on the layer carries a view for anyone but its receivers
(ARCHITECTURE.md). channels-redis publishes each ``group_send`` on its own
round trip, one at a time: a connection's publishes wait for each other
behind an ``asyncio.Lock``. At saturation those five round trips per move
were a sixth of the Daphne process's time (issue 13, profiled).

``group_send_many`` sends a batch of group messages in one pipelined round
trip per Redis shard, in the batch's order (Redis runs a pipeline's
commands in order, so the messages of one group arrive in the order given).
Each message is still its own publish to its own group: receivers and what
they get are exactly as with ``group_send``.

channels-redis is pinned (pyproject.toml); this uses its shard objects
(``_get_layer``, ``_get_group_channel_name``, ``_get_shard``, the shard's
``_lock``, ``_ensure_redis`` and ``_redis``), checked by
``tests/rooms/test_layer_batch.py`` on every run.
"""

from __future__ import annotations

from channels_redis.pubsub import RedisPubSubChannelLayer


class BatchedPubSubChannelLayer(RedisPubSubChannelLayer):
    async def group_send_many(self, messages: list[tuple[str, dict]]) -> None:
        """``group_send(group, message)`` for each pair, pipelined (see the module's docstring)."""
        if not messages:
            return
        layer = self._get_layer()
        by_shard: dict = {}
        for group, message in messages:
            channel = layer._get_group_channel_name(group)
            shard = layer._get_shard(channel)
            by_shard.setdefault(id(shard), (shard, []))[1].append((channel, self.serialize(message)))
        for shard, batch in by_shard.values():
            async with shard._lock:
                shard._ensure_redis()
                pipe = shard._redis.pipeline(transaction=False)
                for channel, data in batch:
                    pipe.publish(channel, data)
                await pipe.execute()
