"""Awaiting a channel-layer coroutine from synchronous code (issue 13).

Inside a Daphne process, synchronous code runs on threads the server's event
loop lent it (a view, a table's action): ``async_to_sync`` runs the
coroutine on that loop, whose layer keeps its Redis connections. Elsewhere
(a Celery worker's deadline, a management command) there is no such loop,
and ``async_to_sync`` made a new one for every call: a new layer, a new Redis
connection and its handshake for each deal a worker broadcast, a tenth of the
worker's time at saturation (profiled). There the coroutine runs on one
background loop per process instead, kept for the process's life, so its
layer's connections are too.
"""

from __future__ import annotations

import asyncio
import os
import threading

from asgiref.sync import SyncToAsync, async_to_sync

TIMEOUT = 30.0

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_pid: int | None = None


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The loop this thread was lent by (asgiref's own reading), if it still runs."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is not None and getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid():
        if loop.is_running():
            return loop
    return None


def _background() -> asyncio.AbstractEventLoop:
    global _loop, _pid
    with _lock:
        if _loop is None or _pid != os.getpid() or _loop.is_closed():  # a forked worker makes its own
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="layer-loop", daemon=True).start()
            _loop, _pid = loop, os.getpid()
        return _loop


def run(fn, *args):
    """``await fn(*args)`` from synchronous code; returns its result (see the module's docstring)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        raise RuntimeError("bridge.run is for synchronous code; await the coroutine instead")
    if _server_loop() is not None:
        return async_to_sync(fn)(*args)
    return asyncio.run_coroutine_threadsafe(fn(*args), _background()).result(TIMEOUT)
