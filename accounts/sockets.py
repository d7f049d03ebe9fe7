"""Every open socket of a user joins one channel-layer group, so the server
can reach all of them at once: close them on sign-out or deactivation
(issue 14, R-9), or push a personal notification (invites)."""

from __future__ import annotations

from channels.layers import get_channel_layer

from infra import bridge

CLOSE_SIGNED_OUT = 4401


def user_group(user_id: int) -> str:
    return f"user.{int(user_id)}"


def close_user_sockets(user_id: int, reason: str = "signed_out") -> None:
    """Close every open socket of ``user_id`` (each consumer handles ``user.close``)."""
    layer = get_channel_layer()
    if layer is not None:
        bridge.run(layer.group_send, user_group(user_id), {"type": "user.close", "reason": reason})
