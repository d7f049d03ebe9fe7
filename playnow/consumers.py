"""The lobby's socket (M-5): ``ws/lobby/``, read-only.

One loop per server process sends every lobby viewer of that process the
lobby's snapshot when it changed, at most once per ``LOBBY_TICK_SECONDS``
(1 s): however many tables change in a second, a viewer gets one update,
and a table's moves change nothing here (the snapshot holds seats, rules,
ratings and wait times, never a card). The snapshot is built once per tick
and language for all the process's viewers.
"""

from __future__ import annotations

import asyncio
import json
import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from . import lobby, sweeper

log = logging.getLogger(__name__)


class _Hub:
    def __init__(self):
        self.viewers: dict[str, set] = {}
        self.task: asyncio.Task | None = None

    def add(self, consumer) -> None:
        self.viewers.setdefault(consumer.language, set()).add(consumer)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())

    def discard(self, consumer) -> None:
        self.viewers.get(consumer.language, set()).discard(consumer)

    def count(self) -> int:
        return sum(len(v) for v in self.viewers.values())

    async def _run(self) -> None:
        while self.count():
            for language in [lang for lang, group in self.viewers.items() if group]:
                try:
                    text = json.dumps(
                        await database_sync_to_async(lobby.snapshot)(language), ensure_ascii=False
                    )
                except Exception:  # noqa: BLE001 - the lobby must go on
                    log.exception("lobby snapshot failed")
                    continue
                fresh = [c for c in self.viewers[language] if c.last != text]
                for consumer in fresh:
                    consumer.last = text
                    try:
                        await consumer.send(text_data=text)
                    except Exception:  # noqa: BLE001 - a closed socket
                        self.discard(consumer)
            await asyncio.sleep(float(settings.LOBBY_TICK_SECONDS))


hub = _Hub()


class LobbyConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.language = self._language()
        self.last = None
        await self.accept()
        await database_sync_to_async(sweeper.ensure)()
        hub.add(self)

    async def disconnect(self, code):
        hub.discard(self)

    async def receive(self, text_data=None, bytes_data=None):
        return  # read-only

    def _language(self) -> str:
        choice = (self.scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
        user = self.scope.get("user")
        if choice not in dict(settings.LANGUAGES) and user is not None and user.is_authenticated:
            profile = getattr(user, "profile", None)
            choice = profile.language if profile is not None else None
        return choice if choice in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
