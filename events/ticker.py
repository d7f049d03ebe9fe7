"""One events step (the beat's task, or the embedded default's loop)."""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from . import arena, challenge

log = logging.getLogger(__name__)

TICK_SECONDS = 2.0


def tick(now=None) -> None:
    for step in (challenge.prepare, challenge.close_due, arena.tick):
        try:
            step(now)
        except Exception:  # noqa: BLE001 - one failing step must not stop the others
            log.exception("events tick: %s failed", step.__name__)


_running: set = set()


def ensure_loop() -> None:
    """The embedded default (no Celery beat): tick on this event loop, once per process."""
    if settings.DEADLINES != "inprocess":
        return
    loop = asyncio.get_running_loop()
    if loop in _running:
        return
    _running.add(loop)
    loop.create_task(_forever())


async def _forever() -> None:
    while True:
        await sync_to_async(_tick_closing)()
        await asyncio.sleep(TICK_SECONDS)


def _tick_closing() -> None:
    close_old_connections()
    tick()
