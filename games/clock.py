"""Deadlines (C-8, ARCHITECTURE.md): the time, and arming a timer for a version.

``now()`` is the one clock of the play service: tests replace it
(``set_now``) instead of sleeping. ``schedule(match_id, version, when)``
arranges for the handler registered by the games app (``services.expire``)
to run at ``when``; the handler acts only if the match still has that
version, so a duplicate or a late timer does nothing.

Production (``DEADLINES=celery``): the ticker in every Celery worker reads
the due deadlines from the database (games/ticker.py); nothing is queued
per move. Embedded default: an asyncio timer on the Daphne process's loop.
Both are backed by the sweep, which plays whatever is overdue. This module
imports neither the tasks nor the services.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime

from django.conf import settings

log = logging.getLogger(__name__)

_loop: asyncio.AbstractEventLoop | None = None
_sweeper_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()
_timers: set = set()
_now: Callable[[], float] = time.time
_handlers: dict[str, Callable] = {}


# --- the time --------------------------------------------------------------------------


def now() -> float:
    """Epoch seconds, from the clock in force (the wall clock unless a test set one)."""
    return _now()


def now_dt() -> datetime:
    return datetime.fromtimestamp(now(), tz=UTC)


def set_now(source: Callable[[], float] | None) -> None:
    """Replace the clock (tests); ``None`` restores the wall clock."""
    global _now
    _now = source or time.time


# --- what a deadline does ---------------------------------------------------------------


def register(*, expire: Callable[[int, int], object], sweep: Callable[[], int]) -> None:
    """The games app registers what a deadline and the sweep run (AppConfig.ready)."""
    _handlers.update(expire=expire, sweep=sweep)


def backend() -> str:
    return settings.DEADLINES


def schedule(match_id: int, version: int, when: datetime) -> None:
    """Arrange for ``expire(match_id, version)`` at ``when``. Called after commit.

    Production: nothing to send. The deadline is in the match row, committed
    with the action, and the Celery workers' ticker (games/ticker.py) reads
    the due ones; no broker publish on a move's path (issue 13)."""
    if backend() == "celery":
        return
    _schedule_inprocess(match_id, version, when)


# --- the embedded default: timers on the server's event loop ------------------------


def bind_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Remember the server's event loop (called from the ASGI app on each
    connection, so it is always the live one) and start the sweep loop once."""
    global _loop, _sweeper_loop
    with _lock:
        _loop = loop
        start = backend() == "inprocess" and _sweeper_loop is not loop
        if start:
            _sweeper_loop = loop
    if start:
        loop.call_soon_threadsafe(lambda: loop.create_task(_sweep_forever(), context=contextvars.Context()))


def loop_bound() -> bool:
    loop = _loop
    return loop is not None and not loop.is_closed() and loop.is_running()


def _schedule_inprocess(match_id: int, version: int, when: datetime) -> None:
    loop = _loop
    if loop is None or loop.is_closed():
        # No server loop (a management command, a sync test): the sweep of the
        # next server start, or the test, takes care of it.
        log.info("no event loop for deadline of match %s v%s", match_id, version)
        return
    delay = max(0.0, when.timestamp() - now())

    # A fresh context: the caller's (a sync_to_async worker's) must not leak
    # into the timer's task, or asgiref refuses its database call as a
    # possible deadlock.
    def fire():
        _timers.discard(handle)
        loop.create_task(_fire(match_id, version), context=contextvars.Context())

    def arm():
        nonlocal handle
        handle = loop.call_later(delay, fire, context=contextvars.Context())
        _timers.add(handle)

    handle = None
    loop.call_soon_threadsafe(arm, context=contextvars.Context())


def cancel_all() -> None:
    """Forget every pending in-process timer (tests, server shutdown)."""
    for handle in list(_timers):
        handle.cancel()
    _timers.clear()


# Deadlines fired and not finished: their handler runs on a thread, which goes
# on when its task is cancelled or its loop closed. ``settle`` waits for them.
_busy = 0
_idle = threading.Condition()


def settle(timeout: float = 30.0) -> bool:
    """Cancel the pending timers and wait until no fired deadline is still
    running on its thread (a bot's move mid-transaction). For tests' teardown
    (a database flush beside a live transaction deadlocks) and shutdown.
    False if something still ran after ``timeout`` seconds."""
    cancel_all()
    with _idle:
        quiet = _idle.wait_for(lambda: _busy == 0, timeout=timeout)
    cancel_all()  # what those handlers armed on their way out
    return quiet


class _Call:
    """One fired deadline, counted in ``_busy`` from its task's start until
    its handler returned, or until its task was cancelled before the handler
    began (then it never will)."""

    def __init__(self, match_id: int, version: int):
        global _busy
        self.match_id, self.version, self.state = match_id, version, "queued"
        with _idle:
            _busy += 1

    def _finish(self, state: str) -> None:
        global _busy
        self.state = state
        _busy -= 1
        _idle.notify_all()

    def run(self) -> None:  # on the handler's thread
        with _idle:
            if self.state != "queued":
                return
            self.state = "running"
        try:
            _handlers["expire"](self.match_id, self.version)
        finally:
            with _idle:
                self._finish("done")

    def abandon(self) -> None:  # on the loop, when the task ends
        with _idle:
            if self.state == "queued":
                self._finish("abandoned")


async def _fire(match_id: int, version: int) -> None:
    from channels.db import database_sync_to_async

    call = _Call(match_id, version)
    try:
        await database_sync_to_async(call.run)()
    except Exception:  # noqa: BLE001 - a timer must never kill the loop
        log.exception("deadline of match %s v%s failed", match_id, version)
    finally:
        call.abandon()


async def _sweep_forever(interval: float = 10.0) -> None:
    from channels.db import database_sync_to_async

    while True:
        await asyncio.sleep(interval)
        try:
            await database_sync_to_async(_handlers["sweep"])()
        except Exception:  # noqa: BLE001
            log.exception("deadline sweep failed")
