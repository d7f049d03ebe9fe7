"""What the table sends, built after commit from the database (the truth).

The state frame carries one projected view per seat and the public view,
stamped with the version (ARCHITECTURE.md); each connection forwards only
its own. This module and the engine's `view` are the only way game state
reaches a browser.
"""

from __future__ import annotations

import json
import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games import engine
from games.models import Match

from . import presence
from .models import Room


def group_name(code: str) -> str:
    return f"table.{code}"


def table_payload(match: Match) -> dict:
    """Every seat's view and the public view of ``match``, with its version and clocks."""
    game = engine.get(match.game)
    views = {str(seat): game.view(match.state, seat) for seat in range(1, game.players + 1)}
    views["public"] = game.view(match.state, None)
    return {
        "match": match.pk,
        "version": match.version,
        "status": match.status,
        "views": views,
        "deadlines": {k: int(v * 1000) for k, v in (match.deadlines or {}).items()},
        "turn_seconds": int(match.rules.get("turn_seconds") or 30),
        "result": match.result,
        "leaver": match.leaver_seat,
    }


def state_frame(payload: dict, key: str, events=None, full: bool = False) -> dict:
    """The frame one connection gets: its own view only (``key``: a seat or "public")."""
    return {
        "type": "state",
        "match": payload["match"],
        "v": payload["version"],
        "status": payload["status"],
        "view": payload["views"][key],
        "events": events or [],
        "deadlines": payload["deadlines"],
        "turn_seconds": payload["turn_seconds"],
        "server_time": int(time.time() * 1000),
        "result": payload["result"],
        "leaver": payload["leaver"],
        "full": full,
    }


def room_snapshot(room: Room) -> dict:
    seats = list(room.seats.select_related("user").order_by("number"))
    seated = {s.number: f"u:{s.user_id}" for s in seats if s.user_id}
    live = presence.snapshot(room.code, seated)
    match = room.current_match()
    return {
        "code": room.code,
        "game": room.game,
        "rules": room.rules,
        "status": room.status,
        "creator": room.creator.username,
        "creator_id": room.creator_id,
        "match": match.pk if match else None,
        "match_status": match.status if match else None,
        "seats": [
            {
                "number": s.number,
                "user": s.user.username if s.user_id else None,
                "user_id": s.user_id,
                "bot": s.is_bot,
                "ready": s.ready or s.user_id == room.creator_id,
                "rematch": s.rematch or s.is_bot,
                "presence": "connected" if s.is_bot else live["seats"].get(s.number, presence.DISCONNECTED),
            }
            for s in seats
        ],
        "spectators": live["spectators"],
    }


def _send(code: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group_name(code), message)


def match_changed(code: str, match_id: int, events: list) -> None:
    match = Match.objects.select_related("room").get(pk=match_id)
    _send(code, {"type": "table.state", "payload": table_payload(match), "events": events})
    if (
        any(e.get("type") in {"match_won", "rubber_won", "left", "swap_seats"} for e in events)
        or match.status != Match.Status.ACTIVE
    ):
        room_changed(code)


def room_changed(code: str) -> None:
    room = Room.objects.select_related("creator").filter(code=code).first()
    if room is not None:
        _send(code, {"type": "room.update", "room": room_snapshot(room)})


def presence_changed(code: str, force: bool = False) -> None:
    """Broadcast the room again when anyone's presence or the spectator count changed."""
    from django.core.cache import cache

    room = Room.objects.select_related("creator").filter(code=code).first()
    if room is None:
        return
    snapshot = room_snapshot(room)
    signature = json.dumps([[s["presence"] for s in snapshot["seats"]], snapshot["spectators"]])
    key = f"presence-sent:{code}"
    if force or cache.get(key) != signature:
        cache.set(key, signature, timeout=3600)
        _send(code, {"type": "room.update", "room": snapshot})


def reaction(code: str, seat: int, reaction: str) -> None:
    _send(code, {"type": "table.reaction", "seat": seat, "reaction": reaction})
