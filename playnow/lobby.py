"""The lobby that lives (M-5): its snapshot, and closing tables nobody is at.

The snapshot lists the public tables a person can join (waiting, with free
seats: game, rules, the ratings of those seated, since when they wait), the
tables to watch, and how many people are playing now. Nothing in it moves
with a card: it is built again only after a room or a match changed
(``live``: a version bumped on commit), by the lobby's socket
(``consumers.LobbyConsumer``), at most once a second, so the tables' moves
cost the lobby nothing.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.utils import translation
from django.utils.translation import ngettext

from accounts.templatetags.persian import localise_digits
from games import clock
from infra import presence
from ratings.services import ratings_for
from rooms import services as room_service
from rooms.forms import rule_items
from rooms.models import Room, Seat

from . import presets
from .models import Seen, Table

log = logging.getLogger(__name__)

LIMIT = 100


def _game_label(game: str) -> str:
    from games.models import GAME_CHOICES

    return str(dict(GAME_CHOICES).get(game, game))


def snapshot(language: str | None = None) -> dict:
    """The lobby now, worded in ``language``."""
    with translation.override(language or settings.LANGUAGE_CODE):
        return _snapshot()


def _snapshot() -> dict:
    rooms = list(
        Room.objects.filter(is_private=False, status__in=[Room.Status.WAITING, Room.Status.PLAYING])
        .filter(seats__user__isnull=False)
        .distinct()
        .order_by("-created_at")[:LIMIT]
    )
    ids = [r.pk for r in rooms]
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(room_id__in=ids).select_related("user").order_by("number"):
        seats.setdefault(seat.room_id, []).append(seat)
    tables = {t.room_id: t for t in Table.objects.filter(room_id__in=ids)}
    hidden = _gone(ids)
    waiting, watch = [], []
    for room in rooms:
        if room.pk in hidden:
            continue
        room_seats = seats.get(room.pk, [])
        ratings = ratings_for([s.user_id for s in room_seats if s.user_id], room.game)
        table = tables.get(room.pk)
        preset = presets.get(table.preset) if table else None
        item = {
            "code": room.code,
            "game": room.game,
            "name": _game_label(room.game),
            "preset": str(preset.label) if preset else None,
            "rules": [f"{r['label']}: {r['text']}" for r in rule_items(room.game, room.rules)],
            "url": room.get_absolute_url(),
            "since": int((table.created_at if table else room.created_at).timestamp()),
            "free": sum(1 for s in room_seats if s.is_empty),
            "seats": [
                {
                    "name": s.user.username if s.user_id else None,
                    "bot": s.is_bot,
                    "rating": ratings[s.user_id]["rating"] if s.user_id else None,
                    "provisional": ratings[s.user_id]["provisional"] if s.user_id else None,
                }
                for s in room_seats
            ],
        }
        if room.status == Room.Status.WAITING and item["free"]:
            waiting.append(item)
        elif room.status == Room.Status.PLAYING:
            watch.append(item)
    playing = (
        Seat.objects.filter(room__status=Room.Status.PLAYING, user__isnull=False)
        .values("user_id")
        .distinct()
        .count()
    )
    return {
        "type": "lobby",
        "waiting": waiting,
        "watch": watch[:30],
        "playing": playing,
        "playing_text": ngettext("%(n)s person playing now", "%(n)s people playing now", playing)
        % {"n": localise_digits(playing)},
    }


# --- closing tables nobody is at ---------------------------------------------------------


def _connected(rooms: list[Room]) -> set[int]:
    """Rooms where a person holding a seat is connected (R-4's presence)."""
    people: dict[int, set[str]] = {}
    for room_id, user_id in Seat.objects.filter(room__in=rooms, user__isnull=False).values_list(
        "room_id", "user_id"
    ):
        people.setdefault(room_id, set()).add(f"u:{user_id}")
    codes = {r.code: r.pk for r in rooms}
    found = presence.fingerprints(list(codes)) if codes else {}
    return {
        codes[code]
        for code, entries in found.items()
        if any(who in people.get(codes[code], ()) for who, _s, _st in entries)
    }


def _gone(room_ids: list[int]) -> set[int]:
    """Rooms whose people have not been connected for the limit (hidden from the lobby until closed)."""
    limit = clock.now_dt() - timedelta(seconds=settings.LOBBY_ABANDONED_SECONDS)
    return set(Seen.objects.filter(room_id__in=room_ids, seen_at__lt=limit).values_list("room_id", flat=True))


def close_abandoned() -> int:
    """M-5: remember who is connected where, and close every table whose
    people have all been gone for ``LOBBY_ABANDONED_SECONDS`` (10 minutes):
    its people are stood up and the room closes; a match still being played
    there, practice or between people only, ends with no leaver (L-5: being
    gone is not leaving, so nobody pays the leave penalty; every player's
    match is "unfinished", L-3's decision for the others; not rated, M-2).
    ``rooms.services.close_deserted`` does it under the rows' locks, so two
    workers sweeping at once close a table once."""
    now = clock.now_dt()
    rooms = list(
        Room.objects.filter(status__in=[Room.Status.WAITING, Room.Status.PLAYING, Room.Status.FINISHED])
        .filter(seats__user__isnull=False)
        .distinct()
    )
    if not rooms:
        return 0
    here = _connected(rooms)
    for room_id in here:
        Seen.objects.update_or_create(room_id=room_id, defaults={"seen_at": now})
    seen = dict(Seen.objects.filter(room__in=rooms).values_list("room_id", "seen_at"))
    limit = now - timedelta(seconds=settings.LOBBY_ABANDONED_SECONDS)
    closed = 0
    for room in rooms:
        if room.pk in here:
            continue
        last = seen.get(room.pk)
        if last is None:
            Seen.objects.get_or_create(room_id=room.pk, defaults={"seen_at": now})
            continue
        if last > limit:
            continue
        try:
            closed += close(room)
        except Exception:  # noqa: BLE001 - one table must not stop the sweep
            log.exception("closing room %s failed", room.pk)
    return closed


def close(room: Room) -> bool:
    """Close a table nobody is at; True if this call closed it (False when
    another worker did first, or somebody came back)."""
    if _connected([room]):
        return False
    return room_service.close_deserted(room.pk)


def sweep() -> dict:
    """The periodic sweep (Celery beat, or the lobby's own loop in-process):
    bots for the tables whose wait is over; every 30 s, closing tables nobody is at."""
    from .bots import fill_due

    out = {"filled": fill_due(), "closed": 0}
    if cache.add("playnow:close-abandoned", 1, timeout=30):
        out["closed"] = close_abandoned()
    return out
