"""Messages to a player's open pages over his per-user socket (friends/consumers.py).

They go to the group ``friends_group(user_id)``, which only the friends
socket joins: the table's socket joins ``accounts.sockets.user_group`` and
has no handler for these types (Channels would close it on an unknown one).
Everything is sent after commit, so nobody hears of a row that rolled back.
"""

from __future__ import annotations

from channels.layers import get_channel_layer
from django.db import transaction

from infra import bridge


def friends_group(user_id: int) -> str:
    return f"friends.{int(user_id)}"


def send_now(user_id: int, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        bridge.run(layer.group_send, friends_group(user_id), message)


def on_commit(user_id: int, message: dict) -> None:
    transaction.on_commit(lambda: send_now(user_id, message))


def on_commit_many(messages: list[tuple[int, dict]]) -> None:
    """``on_commit`` for several players at once: one pipelined write to the layer."""
    if not messages:
        return
    from rooms.broadcast import send_all

    batch = [(friends_group(user_id), message) for user_id, message in messages]
    transaction.on_commit(lambda: bridge.run(send_all, batch))


def changed(user_id: int, what: str) -> None:
    """The friends list or requests of ``user_id`` changed: his pages refresh their counts."""
    on_commit(user_id, {"type": "friends.changed", "what": what})
