"""The bots' only contact with the outside: a monotonic clock for time budgets."""

from __future__ import annotations

import time


def now() -> float:
    """Seconds on the monotonic clock (a search's own pacing)."""
    return time.perf_counter()


class Budget:
    """Stops a search after ``ms`` milliseconds (never when ``ms`` is None)."""

    __slots__ = ("_end", "_start", "_ms")

    def __init__(self, ms: float | None):
        self._start = time.perf_counter()
        self._ms = ms
        self._end = None if ms is None else self._start + ms / 1000.0

    def scaled(self, factor: float) -> Budget:
        """The same budget from the same start, ``factor`` times as long (a rare, weightier decision)."""
        out = Budget(None)
        out._start, out._ms = self._start, self._ms
        out._end = None if self._ms is None else self._start + self._ms * factor / 1000.0
        return out

    def over(self) -> bool:
        return self._end is not None and time.perf_counter() >= self._end
