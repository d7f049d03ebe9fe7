"""The room as the table's sockets are told it, read through statements built
once (a greeting per arrival, the heartbeats' and a departure's presence
changes): no import of the greeting or the heartbeats, so both can use it."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from games.models import Match
from infra.rows import RowReader

from .. import broadcast
from ..models import Room, Seat

_LATEST_MATCH = RowReader(Match, '"games_match"."room_id" = %s ORDER BY "games_match"."id" DESC LIMIT 1')
"""The room's latest match (``Match.objects.filter(room_id=...).order_by("-id").first()``),
through a statement built once: a greeting per arrival, a thousand tables' worth at a start."""


def _readers() -> tuple[RowReader, RowReader]:
    """The room with its creator (``select_related("creator")``) and the room's
    seats with their users in order (``broadcast.room_seats``), through
    statements built once: the ORM's compiling of these two was most of a
    greeting's CPU, and a restart greets every socket of the process again."""
    User = get_user_model()
    rooms, seats, users = Room._meta.db_table, Seat._meta.db_table, User._meta.db_table
    room = RowReader(
        Room,
        f'"{rooms}"."id" = %s',
        joins=f'INNER JOIN "{users}" "creator" ON "creator"."id" = "{rooms}"."creator_id"',
        related={"creator": (User, "creator")},
    )
    seat = RowReader(
        Seat,
        f'"{seats}"."room_id" = %s ORDER BY "{seats}"."number"',
        joins=f'LEFT OUTER JOIN "{users}" "seat_user" ON "seat_user"."id" = "{seats}"."user_id"',
        related={"user": (User, "seat_user")},
    )
    return room, seat


_ROOM, _SEATS = _readers()


def room_now(room_id: int) -> tuple[Room, dict] | None:
    """The room and its snapshot (``broadcast.room_snapshot``) read through the
    statements above (a departure's and the heartbeats' presence changes: a
    restart's thousand sockets arriving change every room's), or None."""
    room = _ROOM.one([room_id])
    if room is None:
        return None
    return room, broadcast.room_snapshot(room, _LATEST_MATCH.one([room_id]), _SEATS.all([room_id]))
