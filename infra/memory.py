"""The garbage collector of a server process (issue 13: the tail of the move latency).

A Daphne process holding 200 tables (800 sockets) has about 300,000
objects the cyclic garbage collector tracks; with CPython's default
thresholds (700, 10, 10) it ran a full collection every 10 to 25 s, and
each one held the GIL, so the event loop and every table's move, for 250 to
300 ms. At 2 to 5 s of think time those pauses made most of the moves
slower than 200 ms (bench/load.py with a probe of the loop's lag and the
collector's pauses; docs/performance.md).

``tune()``, called once when the ASGI application is imported:

- collects, then freezes what start-up made (the modules, Django's apps,
  URLconf and templates, about half of those objects): a full collection
  no longer walks them;
- sets the thresholds to ``GC_TUNING`` (default ``50000,20,10``): the
  youngest generation is collected every 50,000 net allocations instead of
  700, so the objects of a move (frames, rows, futures) are freed by their
  reference counts before a collection can promote them, and the old
  generation grows, and is walked, much less often.

Nothing is switched off: cycles are still found (each young collection
takes a few milliseconds). ``GC_TUNING=off`` leaves the collector as
CPython sets it (the test suite does).
"""

from __future__ import annotations

import gc
import logging
import os

log = logging.getLogger(__name__)

DEFAULT = "50000,20,10"

_done = False


def thresholds(text: str | None) -> tuple[int, int, int] | None:
    """``"a,b,c"`` as three positive thresholds; None for ``off`` (or empty)."""
    text = (text or "").strip().lower()
    if text in ("", "off", "no", "false", "0"):
        return None
    parts = tuple(int(p) for p in text.split(","))
    if len(parts) != 3 or min(parts) < 1:
        raise ValueError(f"GC_TUNING must be 'off' or three positive integers a,b,c, not {text!r}")
    return parts


def tune() -> bool:
    """Freeze start-up's objects and set the thresholds, once per process (see the module's docstring)."""
    global _done
    if _done:
        return True
    wanted = thresholds(os.environ.get("GC_TUNING", DEFAULT))
    if wanted is None:
        return False
    gc.collect()
    gc.freeze()
    gc.set_threshold(*wanted)
    _done = True
    log.info("garbage collector: %s objects frozen, thresholds %s", gc.get_freeze_count(), wanted)
    return True
