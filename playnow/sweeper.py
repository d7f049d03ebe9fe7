"""The embedded default (``DEADLINES=inprocess``): the play-now sweep on a
thread of this process, started with the first press or lobby viewer.
Production runs it from Celery beat (``playnow.sweep``)."""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import connection

log = logging.getLogger(__name__)

_started = False
_lock = threading.Lock()
_stop = threading.Event()


def ensure() -> None:
    global _started
    if settings.DEADLINES != "inprocess" or not settings.PLAY_NOW_TIMERS:
        return
    with _lock:
        if _started:
            return
        _started = True
    threading.Thread(target=_run, name="playnow-sweep", daemon=True).start()


def _run() -> None:
    from . import lobby

    while not _stop.wait(2.0):
        try:
            lobby.sweep()
        except Exception:  # noqa: BLE001 - the sweep must go on
            log.exception("play-now sweep failed")
        finally:
            connection.close()


def stop() -> None:
    """End the sweep thread (a benchmark's or a test's end)."""
    _stop.set()
