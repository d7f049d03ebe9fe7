"""The arena's live standings (E-3): one socket group per arena, read-only.

The server sends ``{"type": "standings", ...}`` on connect and after every
change (a join, a leave, a table, a scored match, the close); the page sends
nothing. Rooms' table socket is untouched.

A standings frame is the whole table, read after the change committed (its
``at``), so the newest one stands for every earlier one. The socket sends
the latest it has at most every ``COALESCE`` seconds: a burst of changes (a
tick that seats fifty tables, matches ending together) reaches the page as
its newest standings within that time, not as a queue of stale copies of a
two-hundred-row table; an older copy arriving after a newer one is never
sent. The page always ends on the newest standings (the podium).

After a loss of the channel layer's pub/sub connection (a Redis restart) the
frames published meanwhile never came: the layer tells the sockets whose
channel it delivers into a queue of theirs (``new_channel_into``,
infra/layers.py: ``layer.resumed``), as it tells the table sockets, and this
socket reads the standings again and sends them (issue 39)."""

from __future__ import annotations

import asyncio

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from infra.websocket import OneQueue

from . import arena as arena_service
from . import ticker
from .models import Arena

COALESCE = 0.25
"""Seconds: the most often one socket sends standings (the latest of a burst)."""


class ArenaConsumer(OneQueue, AsyncJsonWebsocketConsumer):
    """The standings' socket; its loop is the shared one (infra/websocket.py's ``OneQueue``),
    so that the layer's ``layer.resumed`` reaches it."""

    async def layer_resumed(self, message):
        """Redis came back: standings published meanwhile may be lost; the
        current ones, read now, go out as the newest (coalesced as any)."""
        if not getattr(self, "_accepted", False):
            return
        data = await self._standings()
        if data is not None:
            await self.arena_standings({"data": data})

    async def connect(self):
        self.arena_id = int(self.scope["url_route"]["kwargs"]["arena_id"])
        self._pending = None  # the newest standings not sent yet
        self._sent_at = 0.0  # the ``at`` of the newest standings sent
        self._last_send = 0.0  # the loop's time of the last send
        self._flush = None
        data = await self._standings()
        if data is None:
            await self.close(code=4404)
            return
        ticker.ensure_loop()  # the embedded default has no beat to move the arenas on
        await self.channel_layer.group_add(arena_service.group(self.arena_id), self.channel_name)
        await self.accept()
        self._accepted = True
        await self._send(data)

    async def disconnect(self, code):
        if self._flush is not None:
            self._flush.cancel()
        if hasattr(self, "arena_id"):
            await self.channel_layer.group_discard(arena_service.group(self.arena_id), self.channel_name)

    async def receive_json(self, content, **kwargs):
        await self.send_json({"type": "error", "code": "read_only"})

    async def arena_standings(self, event):
        data = event["data"]
        if data.get("at", 0.0) < self._sent_at or (
            self._pending is not None and data.get("at", 0.0) < self._pending.get("at", 0.0)
        ):
            return  # older than what the page has or will have
        self._pending = data
        if self._flush is not None:
            return  # a send of the newest is due already
        wait = self._last_send + COALESCE - asyncio.get_running_loop().time()
        if wait <= 0:
            await self._send_pending()
        else:
            self._flush = asyncio.ensure_future(self._later(wait))

    async def _later(self, wait: float) -> None:
        await asyncio.sleep(wait)
        self._flush = None
        await self._send_pending()

    async def _send_pending(self) -> None:
        data, self._pending = self._pending, None
        if data is not None:
            await self._send(data)

    async def _send(self, data: dict) -> None:
        self._sent_at = max(self._sent_at, data.get("at", 0.0))
        self._last_send = asyncio.get_running_loop().time()
        await self.send_json({"type": "standings", **data})

    @database_sync_to_async
    def _standings(self):
        arena = Arena.objects.filter(pk=self.arena_id).first()
        return None if arena is None else arena_service.standings(arena)
