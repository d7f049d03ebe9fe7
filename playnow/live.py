"""The lobby's change mark (M-5): a version number in the shared cache.

What the lobby shows changes only with a room's seats or status (created,
sat at, stood up, started, ended, closed) and with a match's end (ratings).
Each of those bumps the version after its commit; a move at a table bumps
nothing. The lobby's socket (``consumers``) reads the version once a tick
in each process that has viewers and builds the snapshot again only when
it moved: no viewer, no work; no change, no query.
"""

from __future__ import annotations

import secrets

from django.core.cache import cache
from django.db import transaction

KEY = "lobby:version"


def _start() -> None:
    """A version that no earlier life of the cache used (it may have been
    flushed or restarted): a viewer's kept snapshot never matches by chance."""
    cache.add(KEY, secrets.randbelow(2**48) + 1, timeout=None)


def _bump() -> None:
    try:
        cache.incr(KEY)
    except ValueError:  # not there yet (or evicted): start it
        _start()
        cache.incr(KEY)


def mark_dirty() -> None:
    """The lobby changed: bump its version once the current transaction commits."""
    transaction.on_commit(_bump)


def version() -> int:
    found = cache.get(KEY)
    if found is None:
        _start()
        found = cache.get(KEY)
    return int(found or 0)


# --- the receivers (connected in PlayNowConfig.ready) ---------------------------------


def on_room_changed(sender, room_id: int, **kwargs) -> None:
    """rooms.signals.room_changed (already after the commit)."""
    _bump()


def on_room_saved(sender, instance, created: bool = False, update_fields=None, **kwargs) -> None:
    """A room row was written: created, or its status or creator changed (a
    room is never saved for a move)."""
    mark_dirty()


def on_match_ended(sender, match, **kwargs) -> None:
    """games.signals.match_ended (inside the ending transaction): the room is
    free again and the match's players have new ratings."""
    mark_dirty()
