"""The friends app's clock: one seam tests can set instead of sleeping.

Invites are valid for ten minutes (R-9) and moderators' sanctions end at a
time; every such check asks ``now()`` so that a test can say "nine minutes
later" with ``frozen(t)`` or ``advance(seconds)``.
"""

from __future__ import annotations

import contextlib
import datetime as dt

from django.utils import timezone

_fixed: dt.datetime | None = None


def now() -> dt.datetime:
    return _fixed if _fixed is not None else timezone.now()


def set_now(moment: dt.datetime | None) -> None:
    """Fix the clock at ``moment`` (None: the real time again)."""
    global _fixed
    _fixed = moment


def advance(seconds: float) -> dt.datetime:
    """Move a fixed clock forward (fixing it at the real time first)."""
    set_now(now() + dt.timedelta(seconds=seconds))
    return now()


@contextlib.contextmanager
def frozen(moment: dt.datetime | None = None):
    previous = _fixed
    set_now(moment or timezone.now())
    try:
        yield
    finally:
        set_now(previous)
