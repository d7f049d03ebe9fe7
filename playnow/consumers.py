"""The lobby's socket (M-5): ``ws/lobby/``, read-only.

Change-driven: what the lobby shows changes only with a room's seats or
status and a match's end, and each of those bumps the lobby's version in the
shared cache (``live``); a move at a table bumps nothing. One loop per server
process, running only while that process has lobby viewers, reads the version
once per ``LOBBY_TICK_SECONDS`` (1 s): when it moved, the snapshot is built
once per language for all the process's viewers and sent to each viewer whose
last one differs; when it did not, nothing is queried and nothing sent. So a
viewer gets at most one update a second however many tables change, and no
viewer means no work at all.
"""

from __future__ import annotations

import asyncio
import json
import logging

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from infra.websocket import scope_language

from . import live, lobby, sweeper

log = logging.getLogger(__name__)


class _Hub:
    def __init__(self):
        self.viewers: dict[str, set] = {}
        self.task: asyncio.Task | None = None
        self.built: dict[str, tuple[int, str]] = {}  # language -> (version, text)
        self.locks: dict[str, asyncio.Lock] = {}
        self.builds = 0  # snapshots built (tests: a move at a table builds none)

    async def add(self, consumer) -> None:
        self.viewers.setdefault(consumer.language, set()).add(consumer)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())
        version = await sync_to_async(live.version)()
        text = await self.text(consumer.language, version)
        if text is not None:
            await self._push(consumer, text, version)

    def discard(self, consumer) -> None:
        self.viewers.get(consumer.language, set()).discard(consumer)

    def count(self) -> int:
        return sum(len(v) for v in self.viewers.values())

    async def text(self, language: str, version: int | None = None) -> str | None:
        """The snapshot's text in ``language`` at the lobby's current version,
        built only if the one kept was built at an older version."""
        lock = self.locks.setdefault(language, asyncio.Lock())
        async with lock:
            if version is None:
                version = await sync_to_async(live.version)()
            kept = self.built.get(language)
            if kept is not None and kept[0] == version:
                return kept[1]
            try:
                snap = await database_sync_to_async(lobby.snapshot)(language)
            except Exception:  # noqa: BLE001 - the lobby must go on
                log.exception("lobby snapshot failed")
                return None
            self.builds += 1
            text = json.dumps(snap, ensure_ascii=False)
            self.built[language] = (version, text)
            return text

    async def _push(self, consumer, text: str, version: int) -> None:
        consumer.seen = version
        if consumer.last == text:
            return
        consumer.last = text
        try:
            await consumer.send(text_data=text)
        except Exception:  # noqa: BLE001 - a closed socket
            self.discard(consumer)

    async def _run(self) -> None:
        try:
            await self._loop()
        finally:
            self.built.clear()  # nobody looks: keep nothing

    async def _loop(self) -> None:
        while self.count():
            await asyncio.sleep(float(settings.LOBBY_TICK_SECONDS))
            if not self.count():
                break
            try:
                version = await sync_to_async(live.version)()  # one cache read a tick, per process
            except Exception:  # noqa: BLE001 - the cache is back on the next tick
                log.exception("lobby version unreadable")
                continue
            for language in [lang for lang, group in self.viewers.items() if group]:
                # Each viewer is brought to the version he has not seen: the
                # kept text may be newer than what an earlier viewer got (a
                # new viewer's arrival builds it at the version it finds, and
                # that viewer alone is sent it then).
                behind = [c for c in self.viewers.get(language, ()) if c.seen != version]
                if not behind:
                    continue  # nothing changed: no query, nothing sent
                text = await self.text(language, version)
                if text is None:
                    continue
                for consumer in behind:
                    await self._push(consumer, text, version)


hub = _Hub()


class LobbyConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.language = self._language()
        self.last = None
        self.seen = None  # the lobby version of the last text pushed
        await self.accept()
        await database_sync_to_async(sweeper.ensure)()
        await hub.add(self)

    async def disconnect(self, code):
        hub.discard(self)

    async def receive(self, text_data=None, bytes_data=None):
        return  # read-only

    def _language(self) -> str:
        return scope_language(self.scope, self.scope.get("user"))
