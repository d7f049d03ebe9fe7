"""The bots' only contact with the outside: a monotonic clock for time budgets."""

from __future__ import annotations

import time


class Budget:
    """Stops a search after ``ms`` milliseconds (never when ``ms`` is None)."""

    __slots__ = ("_end",)

    def __init__(self, ms: float | None):
        self._end = None if ms is None else time.perf_counter() + ms / 1000.0

    def over(self) -> bool:
        return self._end is not None and time.perf_counter() >= self._end
