"""Play now's start and bots (M-1): a full table starts; a lonely one gets
bots in its empty seats when its wait is over, or at once on "bots now".

The seating itself (the queue, pairing by rating, parties, a bot's seat taken
between matches) is ``services``; this is what happens to a table after it.
A fill runs with the preset's ``Queue`` row locked, then the room's (the
seating's own lock order), so a fill and an arrival never deadlock and never
both win; every fill is checked again under those locks, so the timer, the
periodic sweep and the waiting page may all ask for the same one.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import close_old_connections, connection, transaction

from games import clock
from rooms import services as room_service
from rooms.models import Room, Seat

from .models import Queue, Table

log = logging.getLogger(__name__)


def bot_wait() -> float:
    """M-1: seconds before a lonely table's empty seats get bots."""
    return float(settings.PLAY_NOW_BOT_WAIT)


def lock_queue(key: str) -> Queue:
    """The preset's queue row, locked until the transaction ends."""
    Queue.objects.get_or_create(preset=key)
    return Queue.objects.select_for_update().get(preset=key)


def start(table: Table) -> None:
    """Every seat is taken: the guests are ready, the room's creator starts."""
    room = Room.objects.select_for_update().get(pk=table.room_id)
    if room.status != Room.Status.WAITING:
        return
    for seat in Seat.objects.filter(room=room, user__isnull=False, ready=False).exclude(
        user_id=room.creator_id
    ):
        room_service.set_ready(room, seat.user, True)
    room_service.start(room, room.creator)
    Table.objects.filter(pk=table.pk).update(started_at=clock.now_dt())


def fill_locked(table: Table, force: bool = False) -> bool:
    """Give the table's empty seats to bots and start, if it is still waiting
    and its time has come (or ``force``: "bots now"). Inside the caller's
    transaction, with the preset's queue row locked."""
    room = Room.objects.select_for_update().get(pk=table.room_id)
    if room.status != Room.Status.WAITING:
        return False
    table.refresh_from_db()
    if table.started_at is not None:
        return False
    if not force and table.bots_at > clock.now_dt():
        return False
    if not Seat.objects.filter(room=room, user__isnull=False).exists():
        return False  # nobody left: the room was closed when the last person stood up
    level = settings.TABLE.get("BOT_LEVEL", "normal")
    for number in Seat.objects.filter(room=room, user__isnull=True, is_bot=False).values_list(
        "number", flat=True
    ):
        room_service.set_bot(room, room.creator, number, True, level=level)
    start(table)
    return True


def fill(table_id: int, force: bool = False) -> bool:
    """Bots for a table whose wait is over (idempotent: a second call, from a
    timer, the sweep or the waiting page, does nothing)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return False
    with transaction.atomic():
        lock_queue(table.preset)
        return fill_locked(table, force=force)


def fill_due() -> int:
    """Every table whose wait is over gets its bots. Safe to run twice, and
    beside the timers (each fill is checked under the locks)."""
    due = Table.objects.filter(
        started_at__isnull=True, room__status=Room.Status.WAITING, bots_at__lte=clock.now_dt()
    ).values_list("pk", flat=True)
    count = 0
    for pk in list(due):
        try:
            count += fill(pk)
        except Exception:  # noqa: BLE001 - one broken table must not stop the others
            log.exception("bot fill of play-now table %s failed", pk)
    return count


def arm(table_id: int, delay: float) -> None:
    """A timer in this process for the table's bot fill, after commit (the
    periodic sweep covers a lost one: ``fill_due``)."""
    if not settings.PLAY_NOW_TIMERS:
        return

    def run():
        try:
            fill(table_id)
        except Exception:  # noqa: BLE001
            log.exception("bot fill timer of table %s failed", table_id)
        finally:
            close_old_connections()
            connection.close()

    def later():
        timer = threading.Timer(max(0.0, delay) + 0.05, run)
        timer.daemon = True
        timer.start()

    transaction.on_commit(later)
