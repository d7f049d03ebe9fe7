"""Play now (M-1, M-3): seat a person at once (the start and the bot fill
that follow are ``bots``).

Every seating for one preset runs with that preset's ``Queue`` row locked
(``SELECT ... FOR UPDATE``): a queue served by many workers at once seats
each person exactly once, at one table. The lock order is the queue row,
then rooms (by id, as ``rooms.services.sit`` takes them), then seats; the
bot fill (``bots``) takes the same order, so a fill and an arrival never
deadlock and never both win.

Rooms are created, sat at, readied, given bots and started only through
``rooms.services`` (``create_room``, ``sit``, ``stand``, ``set_ready``,
``set_bot``, ``start``); the one thing it has no action for, a person taking
a bot's seat between matches, is done here under the room's row lock.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from friends.services import are_friends
from games import clock, engine
from games.engine.seats import partner
from games.errors import PlayError
from ratings.services import ratings_for
from rooms import broadcast
from rooms import services as room_service
from rooms.models import Room, Seat

from . import live, presets, sweeper
from .bots import (
    arm,
    bot_wait,
    fill,
    fill_due,  # noqa: F401 - the old name still answers here
    fill_locked,
    lock_queue,
    start,
)
from .models import Party, Table

log = logging.getLogger(__name__)

ERRORS = {
    "bad_preset": _("There is no such game to play now."),
    "not_friends": _("You can play together only with a friend."),
    "same_person": _("Choose a friend, not yourself."),
    "not_at_table": _("You are not waiting at that table."),
}


class PlayNowError(PlayError):
    @property
    def message(self):
        return ERRORS.get(self.code) or super().message


def window(waited: float) -> float:
    """M-3: how far apart (shown rating points) a table's players and a
    newcomer may be; it widens the longer the table has waited."""
    base, growth = settings.PLAY_NOW_WINDOW
    return float(base) + float(growth) * max(0.0, waited)


def _preset(key: str) -> presets.Preset:
    preset = presets.get(key)
    if preset is None:
        raise PlayNowError("bad_preset")
    return preset


def _seated(user) -> list[Seat]:
    return list(Seat.objects.filter(user=user).select_related("room"))


def _check_free(user, preset: presets.Preset) -> Table | None:
    """Refuse a person playing elsewhere; the table he already waits at for
    this preset, if any (pressing twice seats him once)."""
    seats = _seated(user)
    room_service.tables_to_leave([seat.room for seat in seats], user)  # L-3: refuses
    for seat in seats:
        table = Table.objects.filter(room=seat.room, preset=preset.key).first()
        if table is not None and seat.room.status == Room.Status.WAITING:
            return table
    return None


def _leave_other_tables(user) -> None:
    """L-4: leaving a waiting (or finished) table costs nothing; a practice
    match with bots only goes on (``rooms.services.tables_to_leave``)."""
    for room in room_service.tables_to_leave([seat.room for seat in _seated(user)], user):
        room_service.stand(room, user)


def _rating(user_id: int, game: str) -> int:
    return ratings_for([user_id], game)[user_id]["rating"]


def _candidates(preset: presets.Preset, me: int, need: int, now) -> list[tuple[float, int, Table, list[int]]]:
    """Waiting tables of the preset with ``need`` free seats that fit (for a
    party: two partner seats), within the rating window: (distance, free, table, seats)."""
    tables = list(
        Table.objects.filter(preset=preset.key, room__status=Room.Status.WAITING, started_at__isnull=True)
        .select_related("room")
        .order_by("created_at")[:50]
    )
    seats_of: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(room_id__in=[t.room_id for t in tables]).order_by("number"):
        seats_of.setdefault(seat.room_id, []).append(seat)
    people = {s.user_id for seats in seats_of.values() for s in seats if s.user_id}
    ratings = ratings_for(people, preset.game)
    n = engine.get(preset.game).players
    found = []
    for table in tables:
        seats = seats_of.get(table.room_id, [])
        free = [s.number for s in seats if s.is_empty]
        humans = [s.user_id for s in seats if s.user_id]
        if not humans or len(free) < need:
            continue
        if need == 2 and n == 4:
            pairs = [(a, partner(a, n)) for a in free if partner(a, n) in free and a < partner(a, n)]
            if not pairs:
                continue
            chosen = list(pairs[0])
        else:
            chosen = free[:need]
        mean = sum(ratings[u]["rating"] for u in humans) / len(humans)
        distance = abs(mean - me)
        waited = (now - table.created_at).total_seconds()
        if distance <= window(waited):
            found.append((distance, len(free), table, chosen))
    found.sort(key=lambda x: (x[0], x[1], x[2].created_at))
    return found


def _bot_seat_table(preset: presets.Preset) -> tuple[Table, int] | None:
    """M-1: a table between matches with a bot seat a person may take."""
    tables = (
        Table.objects.filter(preset=preset.key, room__status=Room.Status.FINISHED)
        .filter(room__seats__is_bot=True)
        .filter(room__seats__user__isnull=False)
        .distinct()
        .order_by("created_at")[:20]
    )
    for table in tables:
        seat = Seat.objects.filter(room_id=table.room_id, is_bot=True).order_by("number").first()
        if seat is not None:
            return table, seat.number
    return None


def _take_bot_seat(table: Table, user, number: int) -> bool:
    """A person takes a bot's seat between matches: the bot leaves, and every
    person at the table is asked again to play on (R-3's rematch)."""
    room = Room.objects.select_for_update().get(pk=table.room_id)
    if room.status != Room.Status.FINISHED:
        return False
    seat = Seat.objects.filter(room=room, number=number, is_bot=True).first()
    if seat is None:
        return False
    seat.is_bot, seat.user, seat.ready, seat.rematch = False, user, False, False
    seat.save()
    Seat.objects.filter(room=room).update(rematch=False)
    room_id = room.pk
    transaction.on_commit(lambda: broadcast.room_changed(room_id))
    live.mark_dirty()  # M-5: a bot's seat went to a person
    return True


def _new_table(user, preset: presets.Preset, now) -> Table:
    room = room_service.create_room(user, preset.game, dict(preset.rules), is_private=False)
    table = Table.objects.create(room=room, preset=preset.key, bots_at=now + timedelta(seconds=bot_wait()))
    arm(table.pk, bot_wait())
    sweeper.ensure()
    return table


def _full_of_people(room_id: int) -> bool:
    return not Seat.objects.filter(room_id=room_id, user__isnull=True, is_bot=False).exists()


def press(user, key: str, bots_now: bool = False) -> Table:
    """M-1: the person pressed "Play now" for the preset ``key``: his table."""
    preset = _preset(key)
    with transaction.atomic():
        lock_queue(preset.key)
        now = clock.now_dt()
        table = _check_free(user, preset)
        if table is None:
            table = _seat_one(user, preset, now)
        if bots_now:
            fill_locked(table, force=True)
    return table


def _seat_one(user, preset: presets.Preset, now) -> Table:
    me = _rating(user.pk, preset.game)
    for _distance, _free, table, numbers in _candidates(preset, me, 1, now):
        try:
            with transaction.atomic():
                room_service.sit(table.room, user, numbers[0], move=True)
        except PlayError as exc:
            if exc.code in ("seat_taken", "room_busy"):
                continue  # taken from the room's own page meanwhile: the next table
            raise
        if _full_of_people(table.room_id):
            start(table)
        return table
    found = _bot_seat_table(preset)
    if found is not None:
        _leave_other_tables(user)
        if _take_bot_seat(found[0], user, found[1]):
            return found[0]
    _leave_other_tables(user)
    return _new_table(user, preset, now)


def press_together(user, friend_name: str, key: str) -> Table | None:
    """M-3: a party of two friends. The first to press waits (None); when the
    other presses for the same preset, both sit as partners (a four-player
    game: seats across the table; a two-player game: the two seats)."""
    preset = _preset(key)
    from django.contrib.auth import get_user_model

    friend = get_user_model().objects.filter(username=friend_name).first()
    if friend is None or not are_friends(user, friend):
        raise PlayNowError("not_friends")
    if friend.pk == user.pk:
        raise PlayNowError("same_person")
    with transaction.atomic():
        lock_queue(preset.key)
        now = clock.now_dt()
        for person in (user, friend):
            room_service.tables_to_leave([seat.room for seat in _seated(person)], person)  # L-3
        fresh = now - timedelta(minutes=2)
        other = Party.objects.filter(
            user=friend, friend=user, preset=preset.key, created_at__gte=fresh
        ).first()
        if other is None:
            Party.objects.update_or_create(user=user, defaults={"friend": friend, "preset": preset.key})
            return None
        Party.objects.filter(pk=other.pk).delete()
        Party.objects.filter(user=user).delete()
        return _seat_pair(friend, user, preset, now)


def _seat_pair(first, second, preset: presets.Preset, now) -> Table:
    me = (_rating(first.pk, preset.game) + _rating(second.pk, preset.game)) / 2
    for _distance, _free, table, numbers in _candidates(preset, me, 2, now):
        room_service.sit(table.room, first, numbers[0], move=True)
        room_service.sit(table.room, second, numbers[1], move=True)
        if _full_of_people(table.room_id):
            start(table)
        return table
    _leave_other_tables(first)
    _leave_other_tables(second)
    table = _new_table(first, preset, now)
    n = engine.get(preset.game).players
    room_service.sit(table.room, second, partner(1, n) if n == 4 else 2, move=True)
    if _full_of_people(table.room_id):
        start(table)
    return table


def party_of(user) -> Party | None:
    return Party.objects.filter(user=user).select_related("friend").first()


# --- the waiting page and "bots now" ----------------------------------------------


def bots_now(user, table_id: int) -> bool:
    """M-1: a person waiting at the table asks for bots at once."""
    table = Table.objects.filter(pk=table_id, room__seats__user=user).first()
    if table is None:
        raise PlayNowError("not_at_table")
    return fill(table.pk, force=True)


def status(table: Table, user) -> dict:
    """What the waiting page shows: who is there (with ratings), the seconds
    until the bots come, and the room's link once the match started."""
    room = Room.objects.get(pk=table.room_id)
    preset = presets.get(table.preset)
    seats = list(Seat.objects.filter(room=room).select_related("user").order_by("number"))
    ratings = ratings_for([s.user_id for s in seats if s.user_id], room.game)
    left = max(0.0, (table.bots_at - clock.now_dt()).total_seconds())
    if table.started_at is None and room.status == Room.Status.WAITING and left <= 0:
        fill(table.pk)  # the page's own clock ran out: the fill is idempotent
        room.refresh_from_db()
        table.refresh_from_db()
        seats = list(Seat.objects.filter(room=room).select_related("user").order_by("number"))
    return {
        "table": table.pk,
        "room": room.code,
        "game": room.game,
        "preset": table.preset,
        "label": str(preset.label) if preset else room.game,
        "status": room.status,
        "started": room.status != Room.Status.WAITING,
        "url": room.get_absolute_url(),
        "seconds_left": round(left, 1),
        "seated": any(s.user_id == user.pk for s in seats),
        "seats": [
            {
                "number": s.number,
                "name": s.user.username if s.user_id else None,
                "bot": s.is_bot,
                "me": s.user_id == user.pk,
                "rating": ratings[s.user_id]["rating"] if s.user_id else None,
                "provisional": ratings[s.user_id]["provisional"] if s.user_id else None,
            }
            for s in seats
        ],
    }
