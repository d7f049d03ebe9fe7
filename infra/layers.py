"""The channel layer: channels-redis's pub/sub layer on lean Redis connections.

Semantics are channels-redis's ``RedisPubSubChannelLayer``'s, unchanged: a
group is a Redis pub/sub channel, a process subscribes to the groups its
consumers joined and hands each message to those consumers' queues; a
message is one ``PUBLISH`` to one group. One accepted action sends one message
per viewer class of the table (the public view, and each player's own view:
rooms/broadcast.py), so no message on the layer carries a view for anyone but
its receivers (ARCHITECTURE.md).

What differs is the transport (issue 13, profiled at saturation: redis-py's
per-command and per-message machinery, an ``asyncio`` timeout, a retry
wrapper, a logger lookup and an observability hook for every publish and for
every message received, was a quarter of the Daphne process's Python time):

- each Redis server gets two connections per process and event loop, one to
  publish and one to listen, opened by redis-py (the URL, ``AUTH``, TLS and
  the protocol handshake are all redis-py's) and then read by a loop of our
  own that parses replies with hiredis, many per read;
- ``group_send_many`` writes a batch of publishes at once and waits for the
  last reply only (Redis answers a connection's commands in order, so the
  messages of one group arrive in the order given); ``group_send`` is a batch
  of one;
- a subscription is confirmed by Redis before ``group_add`` returns (a
  connection joins its groups before it reads the state: a version
  committed after that read must reach it; tests/rooms/test_arrival_race.py);
- a lost connection is opened again: the listening one at once, with every
  subscription it had (messages published meanwhile are lost, as with
  channels-redis: a page sees the version gap and asks for the state); the
  publishing one on the next publish.

channels-redis is pinned (pyproject.toml); its loop layer and shard classes are
reused with their connection methods replaced, checked by
``tests/rooms/test_layer_batch.py`` on every run.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import uuid

import hiredis
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close, create_pool

log = logging.getLogger(__name__)

READ_SIZE = 1 << 16
IDLE_PING = 15.0
"""Seconds of silence on a connection before it is asked for a PONG; no
answer in as long again and it is closed, then opened anew."""
RECONNECT_DELAYS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0)


def _command(*args: bytes) -> bytes:
    """One command in the Redis protocol (RESP), its arguments as bytes."""
    out = [b"*%d\r\n" % len(args)]
    for arg in args:
        out.append(b"$%d\r\n%s\r\n" % (len(arg), arg))
    return b"".join(out)


class _Link:
    """One Redis connection read by our own loop: every reply goes to ``on_reply``
    in order; ``on_lost(link, exc)`` is called once when the connection ends."""

    def __init__(self, conn, on_reply, on_lost, on_ping=None):
        self.conn = conn
        self.on_ping = on_ping  # called before a PING is written (its reply comes in order)
        self.writer = conn._writer
        self.reader = conn._reader
        self.parser = hiredis.Reader()
        self.on_reply = on_reply
        self.on_lost = on_lost
        self.alive = True
        self.heard = asyncio.get_running_loop().time()
        self.task = asyncio.ensure_future(self._read())
        self.watch = asyncio.ensure_future(self._watch())

    def write(self, data: bytes) -> None:
        if not self.alive:
            raise ConnectionError("the Redis connection was lost")
        self.writer.write(data)

    async def _read(self) -> None:
        error: BaseException | None = None
        try:
            while True:
                data = await self.reader.read(READ_SIZE)
                if not data:
                    raise ConnectionError("Redis closed the connection")
                self.heard = asyncio.get_running_loop().time()
                self.parser.feed(data)
                while (reply := self.parser.gets()) is not False:
                    self.on_reply(reply)
        except asyncio.CancelledError:
            error = ConnectionError("the connection was closed")
            raise
        except Exception as exc:  # noqa: BLE001 - any failure ends this connection
            error = exc
        finally:
            self._end(error)

    async def _watch(self) -> None:
        """A connection gone silent (a dead peer sends no reset) is found by a PING."""
        loop = asyncio.get_running_loop()
        pinged = None
        while self.alive:
            await asyncio.sleep(IDLE_PING)
            if loop.time() - self.heard < IDLE_PING:
                pinged = None
            elif pinged is None:
                pinged = loop.time()
                try:
                    if self.on_ping is not None:
                        self.on_ping()
                    self.write(_command(b"PING"))
                except Exception:  # noqa: BLE001
                    self.close()
            elif self.heard < pinged:
                log.warning("Redis did not answer a PING in %.0f s: reconnecting", IDLE_PING)
                self.close()

    def _end(self, error: BaseException | None) -> None:
        if not self.alive:
            return
        self.alive = False
        self.watch.cancel()
        try:
            self.conn._close()
        except Exception:  # noqa: BLE001
            pass
        self.on_lost(self, error or ConnectionError("the Redis connection was lost"))

    def close(self) -> None:
        if self.alive:
            self.task.cancel()


class LeanShard(RedisSingleShardConnection):
    """One Redis server: a connection to publish and one to listen (see the module's docstring)."""

    def __init__(self, host, channel_layer):
        super().__init__(host, channel_layer)
        self._pool = None
        self._pub: _Link | None = None
        self._sub: _Link | None = None
        self._pending: collections.deque = collections.deque()  # one entry per publish sent: None or a future
        self._confirm: dict[bytes, asyncio.Future] = {}  # channel -> its SUBSCRIBE's confirmation
        self._closing = False
        self._resubscribing: asyncio.Task | None = None

    # --- connections -------------------------------------------------------------------

    async def _open(self, on_reply, on_ping=None) -> _Link:
        if self._pool is None:
            # RESP2: a pub/sub message is a plain array (redis-py 8 asks for RESP3 by default).
            self._pool = create_pool({**self.host, "protocol": 2})
        conn = self._pool.make_connection()
        await conn.connect()
        return _Link(conn, on_reply, self._lost, on_ping)

    async def _publisher(self) -> _Link:
        link = self._pub
        if link is not None and link.alive:
            return link
        async with self._lock:
            if self._pub is None or not self._pub.alive:
                self._closing = False
                # A PING's reply comes among the publishes' replies: it has its place in the queue.
                self._pub = await self._open(self._on_publish_reply, lambda: self._pending.append(None))
            return self._pub

    async def _listener(self) -> _Link:
        link = self._sub
        if link is not None and link.alive:
            return link
        if self._sub is None or not self._sub.alive:
            self._closing = False
            self._sub = await self._open(self._on_message)
        return self._sub

    def _lost(self, link: _Link, error: BaseException) -> None:
        if link is self._pub:
            self._pub = None
            pending, self._pending = self._pending, collections.deque()
            for future in pending:
                if future is not None and not future.done():
                    future.set_exception(ConnectionError(f"Redis connection lost: {error!r}"))
        elif link is self._sub:
            self._sub = None
            for future in self._confirm.values():
                if not future.done():
                    future.set_exception(ConnectionError(f"Redis connection lost: {error!r}"))
            self._confirm = {}
            if not self._closing and self._subscribed_to:
                log.warning("lost the Redis pub/sub connection (%r): subscribing again", error)
                self._resubscribing = asyncio.ensure_future(self._resubscribe())

    async def _resubscribe(self) -> None:
        for attempt in range(10**9):
            if self._closing or not self._subscribed_to:
                return
            try:
                async with self._lock:
                    link = await self._listener()
                    channels = sorted(self._subscribed_to)
                    for start in range(0, len(channels), 500):
                        link.write(
                            _command(b"SUBSCRIBE", *(c.encode() for c in channels[start : start + 500]))
                        )
                self.channel_layer.resumed()  # frames may have been lost meanwhile (issue 39)
                return
            except Exception as exc:  # noqa: BLE001 - Redis is still down: wait and try again
                delay = RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)]
                log.warning("Redis pub/sub reconnect failed (%r), again in %.2f s", exc, delay)
                await asyncio.sleep(delay)

    # --- replies ---------------------------------------------------------------------

    def _on_publish_reply(self, reply) -> None:
        future = self._pending.popleft() if self._pending else None
        if isinstance(reply, hiredis.ReplyError):
            if future is not None and not future.done():
                future.set_exception(reply)
            else:
                log.error("Redis refused a publish: %s", reply)
        elif future is not None and not future.done():
            future.set_result(reply)

    def _on_message(self, reply) -> None:
        if not isinstance(reply, list) or not reply:
            return
        kind = reply[0]
        if kind == b"message":
            name = reply[1].decode()
            layer = self.channel_layer
            queue = layer.channels.get(name)
            if queue is not None:
                queue.put_nowait(reply[2])
                return
            members = layer.groups.get(name)
            if members:
                for channel in members:
                    queue = layer.channels.get(channel)
                    if queue is not None:
                        queue.put_nowait(reply[2])
        elif kind == b"subscribe":
            future = self._confirm.pop(reply[1], None)
            if future is not None and not future.done():
                future.set_result(True)

    # --- what the loop layer calls ----------------------------------------------------------

    def publish_many(self, batch: list[tuple[str, bytes]]) -> asyncio.Future | None:
        """Write the publishes of ``batch`` ([(channel, data)]) now, in order,
        and return the future of the last reply (None for an empty batch).
        Raises when there is no live connection (the caller opens one)."""
        if not batch:
            return None
        link = self._pub
        if link is None or not link.alive:
            raise ConnectionError("no publishing connection")
        data = b"".join(_command(b"PUBLISH", channel.encode(), payload) for channel, payload in batch)
        future = asyncio.get_running_loop().create_future()
        link.write(data)
        self._pending.extend([None] * (len(batch) - 1))
        self._pending.append(future)
        return future

    async def send_batch(self, batch: list[tuple[str, bytes]]) -> None:
        if self._pub is None or not self._pub.alive:
            await self._publisher()
        future = self.publish_many(batch)
        if future is not None:
            await future

    async def publish(self, channel, message):
        await self.send_batch([(channel, message)])

    async def subscribe(self, channel):
        """Subscribe (once per process) and wait until Redis confirms it."""
        key = channel.encode()
        waiting = self._confirm.get(key)
        if waiting is None and channel in self._subscribed_to:
            return
        if waiting is None:
            async with self._lock:
                waiting = self._confirm.get(key)
                if waiting is None and channel not in self._subscribed_to:
                    link = await self._listener()
                    waiting = self._confirm[key] = asyncio.get_running_loop().create_future()
                    self._subscribed_to.add(channel)
                    link.write(_command(b"SUBSCRIBE", key))
        if waiting is not None:
            await asyncio.shield(waiting)

    async def unsubscribe(self, channel):
        if channel not in self._subscribed_to:
            return
        self._subscribed_to.discard(channel)
        key = channel.encode()
        future = self._confirm.pop(key, None)
        if future is not None and not future.done():
            future.cancel()
        link = self._sub
        if link is not None and link.alive:
            link.write(_command(b"UNSUBSCRIBE", key))

    async def flush(self):
        async with self._lock:
            self._closing = True
            if self._resubscribing is not None:
                self._resubscribing.cancel()
                self._resubscribing = None
            for link in (self._pub, self._sub):
                if link is not None:
                    link.close()
                    try:
                        await link.task
                    except (asyncio.CancelledError, Exception):  # noqa: BLE001
                        pass
            self._pub = self._sub = None
            if self._pool is not None:
                await self._pool.disconnect()
                self._pool = None
            self._subscribed_to = set()


class LeanLoopLayer(RedisPubSubLoopLayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._shards = [LeanShard(shard.host, self) for shard in self._shards]
        self._inboxes: set[str] = set()

    async def new_channel_into(self, queue, prefix: str = "specific.") -> str:
        """A new channel whose messages (and its groups') go, still serialised,
        straight into ``queue`` (``put_nowait``), subscribed when this returns."""
        channel = f"{self.prefix}{prefix}{uuid.uuid4().hex}"
        self.channels[channel] = queue
        self._inboxes.add(channel)
        await self._get_shard(channel).subscribe(channel)
        return channel

    async def release(self, channel: str) -> None:
        """The end of a channel made by ``new_channel_into`` (what ``receive``'s
        cancellation does for channels-redis's own channels)."""
        self._inboxes.discard(channel)
        if self.channels.pop(channel, None) is not None:
            await self._get_shard(channel).unsubscribe(channel)

    def resumed(self) -> None:
        """The pub/sub connection is back after a loss (a Redis restart): what
        was published meanwhile never came, so each socket of ``new_channel_into``
        is told (``layer.resumed``) and asks for its table again (issue 39)."""
        for channel in list(self._inboxes):
            queue = self.channels.get(channel)
            if queue is not None:
                queue.put_nowait({"type": "layer.resumed"})

    async def group_send_many(self, messages: list[tuple[str, dict]]) -> None:
        by_shard: dict[int, tuple[LeanShard, list]] = {}
        serialize = self.channel_layer.serialize
        for group, message in messages:
            channel = self._get_group_channel_name(group)
            shard = self._get_shard(channel)
            by_shard.setdefault(id(shard), (shard, []))[1].append((channel, serialize(message)))
        for shard, batch in by_shard.values():
            await shard.send_batch(batch)


class BatchedPubSubChannelLayer(RedisPubSubChannelLayer):
    """channels-redis's pub/sub layer on lean connections, with ``group_send_many``."""

    def _get_layer(self):
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = LeanLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
            return layer

    async def group_send_many(self, messages: list[tuple[str, dict]]) -> None:
        """``group_send(group, message)`` for each pair, written at once, in order
        (see the module's docstring)."""
        if messages:
            await self._get_layer().group_send_many(messages)

    async def new_channel_into(self, queue, prefix: str = "specific.") -> str:
        """A channel delivered into ``queue`` as serialised bytes (rooms.consumers: one
        queue for the socket's frames and the layer's messages, issue 13)."""
        return await self._get_layer().new_channel_into(queue, prefix)

    async def release(self, channel: str) -> None:
        await self._get_layer().release(channel)
