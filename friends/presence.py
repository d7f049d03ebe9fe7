"""Site-wide presence for friends (R-9), kept in the table's presence store.

Every open page's per-user socket (friends/consumers.py) beats into one
pseudo-room of ``infra.presence.store()``, so production shares it through
Redis and the embedded default through the process's memory, with the same
expiry as the table's presence. Whether a friend *sees* it is decided by
``visible_online``: a player may hide his online status from friends; his
connection badge at a table (infra.presence.snapshot) is never affected.
"""

from __future__ import annotations

from infra import presence as table_presence

SITE = "_site"


def who(user_id: int) -> str:
    return f"u:{int(user_id)}"


def touch(user_id: int, conn: str) -> None:
    table_presence.store().touch(SITE, conn, who(user_id), None)


def drop(user_id: int, conn: str) -> None:
    table_presence.store().drop(SITE, conn)


def online_ids() -> set[int]:
    ids = set()
    for _t, entry, _seat in table_presence.store().entries(SITE):
        if entry.startswith("u:"):
            ids.add(int(entry[2:]))
    return ids


def is_online(user_id: int) -> bool:
    return int(user_id) in online_ids()


def shows_online(user) -> bool:
    """The profile preference (accounts.Profile.show_online), shown by default."""
    profile = getattr(user, "profile", None)
    return True if profile is None else bool(profile.show_online)


def visible_online(user, online: set[int] | None = None) -> bool | None:
    """What a friend may know: True or False, or None when ``user`` hides it."""
    if not shows_online(user):
        return None
    return user.pk in (online_ids() if online is None else online)
