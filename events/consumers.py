"""The arena's live standings (E-3): one socket group per arena, read-only.

The server sends ``{"type": "standings", ...}`` on connect and after every
change (a join, a leave, a table, a scored match, the close); the page sends
nothing. Rooms' table socket is untouched."""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from . import arena as arena_service
from . import ticker
from .models import Arena


class ArenaConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self):
        self.arena_id = int(self.scope["url_route"]["kwargs"]["arena_id"])
        data = await self._standings()
        if data is None:
            await self.close(code=4404)
            return
        ticker.ensure_loop()  # the embedded default has no beat to move the arenas on
        await self.channel_layer.group_add(arena_service.group(self.arena_id), self.channel_name)
        await self.accept()
        await self.send_json({"type": "standings", **data})

    async def disconnect(self, code):
        if hasattr(self, "arena_id"):
            await self.channel_layer.group_discard(arena_service.group(self.arena_id), self.channel_name)

    async def receive_json(self, content, **kwargs):
        await self.send_json({"type": "error", "code": "read_only"})

    async def arena_standings(self, event):
        await self.send_json({"type": "standings", **event["data"]})

    @database_sync_to_async
    def _standings(self):
        arena = Arena.objects.filter(pk=self.arena_id).first()
        return None if arena is None else arena_service.standings(arena)
