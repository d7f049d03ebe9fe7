"""Room actions: take and leave seats, ready, bots, start, rematch, leave (R-1, R-3, L-3, L-4).

Each action is one transaction with the room row locked (`check_*` then
`do_*` in Zulip's words); the broadcast goes out after commit.
"""

from __future__ import annotations

from django.db import transaction

from games import engine
from games import services as play_service
from games.engine import IllegalAction
from games.errors import PlayError
from games.models import Match
from leaderboard.families import family_of
from leaderboard.ledger import LEAVE_PENALTY

from . import broadcast, signals
from .models import Room, Seat
from .social import (  # noqa: F401  (the room actions' public names, kept where callers look)
    REACTION_GUARDS,
    REACTIONS,
    THROW_ITEMS,
    THROW_LABELS,
    THROWS_PER_TRICK,
    react,
    reaction_seconds,
    table_constants,
    throw,
)


def _changed(room: Room, seats: list[Seat] | None = None, match: Match | None = None) -> None:
    """After commit: the room frame to its table (read again; or, given the
    room's ``seats`` with their users and its current ``match`` as this
    transaction left them, built from those: issue 39, a table's start reads
    nothing more), and the room's listeners (M-5)."""
    room_id = room.pk
    if seats is not None:
        seats = list(seats)
        transaction.on_commit(lambda: broadcast.room_changed(room_id, room=room, seats=seats, match=match))
    else:
        transaction.on_commit(lambda: broadcast.room_changed(room_id))
    transaction.on_commit(lambda: signals.room_changed.send_robust(sender=Room, room_id=room_id))  # M-5


def create_room(
    user,
    game: str,
    rules: dict | None = None,
    is_private: bool = False,
    arena_url: str = "",
    move: bool = False,
) -> Room:
    """A new room with ``user`` at seat 1. With ``move`` (the lobby's "create",
    practice, an arena's next table) he leaves any other table he still sits
    at, as ``sit(move=True)`` does: one table at a time; refused
    (``playing_elsewhere``) while a match of his with other people runs
    there (L-3); see ``_vacate_elsewhere``."""
    try:
        definition = engine.get(game)
        rules = definition.validate_rules(rules or {})
    except IllegalAction as exc:
        raise PlayError("bad_rules", exc.message) from None
    with transaction.atomic():
        if move:
            _vacate_elsewhere(user)
        room = Room.objects.create(
            game=game, rules=rules, creator=user, is_private=is_private, arena_url=arena_url
        )
        Seat.objects.bulk_create([Seat(room=room, number=n) for n in range(1, definition.players + 1)])
        Seat.objects.filter(room=room, number=1).update(user=user)
    return room


def _vacate_elsewhere(user) -> None:
    """Inside the caller's transaction: ``user`` leaves every table he waits at
    or has finished at (each locked, in id order; L-4). A match of his that is
    running with other people refuses (L-3: they would lose a player); one he
    plays alone with bots (practice, L-2; a challenge deal, E-1) goes on by its
    clock and stand-in, as when he closes its page, and keeps his seat."""
    others = list(Seat.objects.filter(user=user).values_list("room_id", flat=True))
    locked = Room.objects.select_for_update().filter(pk__in=others).order_by("pk")
    for other in tables_to_leave(list(locked), user):
        _leave_locked(other, user)


def with_people(room: Room, user) -> bool:
    """Somebody besides ``user`` sits at ``room`` (not a bot: L-2)."""
    return Seat.objects.filter(room=room, user__isnull=False).exclude(user=user).exists()


def tables_to_leave(rooms, user) -> list[Room]:
    """The one-table-at-a-time rule, for every door that seats a person (a
    sit, a new room, Play now): of the other ``rooms`` he sits at, refuse
    (``playing_elsewhere``, naming it) the first whose match runs with other
    people (L-3); leave the ones waiting or finished (L-4, free); a match he
    plays alone with bots (practice, L-2) goes on by its clock and stand-in
    (L-7) and keeps his seat, as when he closes its page."""
    leave = []
    for other in rooms:
        if other.status == Room.Status.PLAYING:
            if with_people(other, user):
                raise PlayError("playing_elsewhere", other.code)
            continue
        leave.append(other)
    return leave


def _leave_locked(other: Room, user) -> None:
    """L-4: ``user`` leaves ``other`` (locked by the caller, not playing) for
    another table: free, the room handed over or closed, its table told."""
    Seat.objects.filter(room=other, user=user).update(user=None, ready=False, rematch=False)
    _hand_over(other, user)
    _changed(other)


def _locked(room_id: int) -> Room:
    return Room.objects.select_for_update().get(pk=room_id)


def sit(room: Room, user, number: int, move: bool = False) -> None:
    """Take an empty seat while the room waits. One table at a time: a player
    seated at another table is asked first (``seated_elsewhere``, naming it
    in ``detail``) and moved only with ``move``; one playing a match at
    another table with other people is refused (``playing_elsewhere``) until
    that match ends or he leaves it (L-3); a practice match of his with bots
    only goes on there (``tables_to_leave``)."""
    others = list(Seat.objects.filter(user=user).exclude(room_id=room.pk).values_list("room_id", flat=True))
    with transaction.atomic():
        # Every room this sit touches, locked in one order (by id): two
        # players moving between the same two tables cannot deadlock.
        locked = {
            r.pk: r for r in Room.objects.select_for_update().filter(pk__in=[room.pk, *others]).order_by("pk")
        }
        room = locked[room.pk]
        mine = [
            r for pk, r in locked.items() if pk != room.pk and Seat.objects.filter(room=r, user=user).exists()
        ]
        elsewhere = tables_to_leave(mine, user)
        if elsewhere and not move:
            raise PlayError("seated_elsewhere", elsewhere[0].code)
        if room.status != Room.Status.WAITING:
            raise PlayError("room_busy")
        seat = Seat.objects.filter(room=room, number=number).first()
        if seat is None:
            raise PlayError("bad_seat")
        if not seat.is_empty:
            raise PlayError("seat_taken")
        for other in elsewhere:  # L-4: leaving a waiting (or finished) table costs nothing
            _leave_locked(other, user)
        # Moving from one seat to another is allowed before the start.
        Seat.objects.filter(room=room, user=user).update(user=None, ready=False)
        seat.user, seat.ready, seat.is_bot = user, False, False
        seat.save()
        _changed(room)


def stand(room: Room, user) -> None:
    """L-4: leaving a room before its match started costs nothing."""
    with transaction.atomic():
        room = _locked(room.pk)
        if room.status == Room.Status.PLAYING:
            raise PlayError("room_busy")
        Seat.objects.filter(room=room, user=user).update(user=None, ready=False, rematch=False)
        _hand_over(room, user)
        _changed(room)


def _mark_own_seat(room_id: int, user, status: str, wrong_status: str, **fields) -> Room:
    """Lock the room, check its status, set ``fields`` on the user's own seat.
    Runs inside the caller's transaction."""
    room = _locked(room_id)
    if room.status != status:
        raise PlayError(wrong_status)
    if not Seat.objects.filter(room=room, user=user).update(**fields):
        raise PlayError("not_seated")
    return room


def set_ready(room: Room, user, ready: bool) -> None:
    with transaction.atomic():
        room = _mark_own_seat(room.pk, user, Room.Status.WAITING, "room_busy", ready=bool(ready))
        _changed(room)


def _locked_as_creator(room_id: int, user) -> Room:
    """Lock a waiting room for an action only its creator may take (R-1)."""
    room = _locked(room_id)
    if user.pk != room.creator_id:
        raise PlayError("not_creator")
    if room.status != Room.Status.WAITING:
        raise PlayError("room_busy")
    return room


BOT_LEVELS = ("easy", "normal", "strong")
"""Issue 21: a bot seat's difficulty (games.bots.LEVELS: time budget and sampling width)."""


def set_bot(room: Room, user, number: int, bot: bool = True, level: str = "normal") -> None:
    """R-1: the creator may give an empty seat to a bot (or take it back), at a
    level; while the room waits he may change a bot seat's level the same way."""
    if level not in BOT_LEVELS:
        raise PlayError("bad_level")
    with transaction.atomic():
        room = _locked_as_creator(room.pk, user)
        seat = Seat.objects.filter(room=room, number=number).first()
        if seat is None:
            raise PlayError("bad_seat")
        if bot and not seat.is_empty and not seat.is_bot:
            raise PlayError("seat_taken")
        if bot and seat.is_bot and seat.bot_level == level:
            return
        if not bot and not seat.is_bot:
            raise PlayError("bad_seat")
        seat.is_bot, seat.ready, seat.bot_level = bot, bot, level
        seat.save()
        _changed(room)


def start(room: Room, user) -> Match:
    """R-1: the creator starts when every seat is taken and every guest is ready."""
    with transaction.atomic():
        room = _locked_as_creator(room.pk, user)
        seats = list(Seat.objects.select_related("user").filter(room=room).order_by("number"))
        if any(s.is_empty for s in seats):
            raise PlayError("seats_not_full")
        if any(s.user_id and s.user_id != room.creator_id and not s.ready for s in seats):
            raise PlayError("not_ready")
        return _begin(room, seats)


def _begin(room: Room, seats: list[Seat]) -> Match:
    players = [
        {
            "seat": s.number,
            "user_id": s.user_id,
            "username": s.user.username if s.user_id else None,
            "bot": s.is_bot,
            **({"level": s.bot_level} if s.is_bot else {}),
        }
        for s in seats
    ]
    room.status = Room.Status.PLAYING
    room.save(update_fields=["status", "updated_at"])
    if any(s.rematch for s in seats):  # the seats were read under the room's lock (issue 39: none at a start)
        Seat.objects.filter(room=room).update(rematch=False)
        for s in seats:
            s.rematch = False
    match = play_service.create_match(room, players)
    _changed(room, seats, match)
    return match


def rematch(room: Room, user, agree: bool = True) -> Match | None:
    """R-3: a new match starts in the same room only when every player agreed.
    Not at an arena's table (E-3): the arena seats its players at their next one."""
    if room.arena_url:
        raise PlayError("arena_table")
    with transaction.atomic():
        room = _mark_own_seat(room.pk, user, Room.Status.FINISHED, "not_finished", rematch=bool(agree))
        seats = list(Seat.objects.select_related("user").filter(room=room).order_by("number"))
        if all(s.is_bot or (s.user_id and s.rematch) for s in seats):
            return _begin(room, seats)
        _changed(room)
        return None


def leave(room: Room, user, confirm: bool = False) -> dict:
    """Leave the room. During an active match (L-3) only after confirming: the
    match ends, the leaver gets the leave penalty, the others "unfinished".
    Before the start or after the end (L-4) it costs nothing."""
    for _attempt in range(5):
        active = (
            Match.objects.filter(room_id=room.pk, status=Match.Status.ACTIVE)
            .values_list("pk", flat=True)
            .first()
        )
        try:
            return _leave(room.pk, user, confirm, active)
        except _MatchAppeared:
            continue  # a match started between the look and the lock: look again
    raise PlayError("room_busy")


class _MatchAppeared(Exception):
    pass


def _leave(room_id: int, user, confirm: bool, active: int | None) -> dict:
    with transaction.atomic():
        # The lock order of every path (games/services.py): the match row
        # first, then the room row. Locked the other way round, a leave and
        # a match-ending card arriving together would deadlock.
        match = None
        if active is not None:
            match = Match.objects.select_for_update().filter(pk=active, status=Match.Status.ACTIVE).first()
        room = _locked(room_id)
        if match is None and Match.objects.filter(room_id=room_id, status=Match.Status.ACTIVE).exists():
            raise _MatchAppeared
        seat = Seat.objects.filter(room=room, user=user).first()
        if seat is None:
            return {"left": True, "cost": None}
        cost = None
        if match is not None:
            if not confirm:
                raise PlayError("confirm_required", leave_cost(room.game))
            play_service.abandon(match, match.seat_of_user(user.pk) or seat.number)
            cost = leave_cost(room.game)
        if room.status == Room.Status.PLAYING:
            room.status = Room.Status.WAITING
            room.save(update_fields=["status", "updated_at"])
            Seat.objects.filter(room=room).update(ready=False, rematch=False)
        seat.user, seat.ready, seat.rematch = None, False, False
        seat.save()
        _hand_over(room, user)
        _changed(room)
        return {"left": True, "cost": cost}


def close_deserted(room_id: int) -> bool:
    """M-5: close a table whose people have all gone (the caller, the lobby's
    sweep, decided that nobody was connected for long enough). Its people are
    stood up (L-4: nothing to pay) and the room closes. A match still being
    played ends with no leaver: L-5, nobody left (being disconnected is not
    leaving), so nobody pays the leave penalty, and every player's match is
    recorded as "unfinished" (L-3's decision for those who did not leave; not
    rated, M-2). Idempotent: locked as a leave is (match row, then room), a
    second call, from another worker, finds nobody seated and does nothing."""
    active = (
        Match.objects.filter(room_id=room_id, status=Match.Status.ACTIVE).values_list("pk", flat=True).first()
    )
    with transaction.atomic():
        match = None
        if active is not None:
            match = Match.objects.select_for_update().filter(pk=active, status=Match.Status.ACTIVE).first()
        room = _locked(room_id)
        if match is None and Match.objects.filter(room_id=room_id, status=Match.Status.ACTIVE).exists():
            return False  # a match started between the look and the lock: the next sweep
        if not Seat.objects.filter(room=room, user__isnull=False).exists():
            return False
        if match is not None:
            play_service.abandon(match, None)
        Seat.objects.filter(room=room).update(user=None, ready=False, rematch=False)
        room.status = Room.Status.FINISHED
        room.save(update_fields=["status", "updated_at"])
        _changed(room)
        return True


def _hand_over(room: Room, leaver) -> None:
    """The creator left: the longest-seated human still here runs the room; a
    room nobody is left in is closed (it leaves the lobby)."""
    humans = Seat.objects.filter(room=room, user__isnull=False).order_by("number")
    if not humans.exists():
        room.status = Room.Status.FINISHED
        room.save(update_fields=["status", "updated_at"])
        return
    if room.creator_id == leaver.pk:
        room.creator_id = humans.first().user_id
        room.save(update_fields=["creator", "updated_at"])


def leave_cost(game: str) -> str:
    """L-3: what leaving an active match costs, as the game family the client words."""
    return family_of(game)


def leave_points(game: str) -> int:
    """L-3: the points the leaver loses (the ledger's own table), as a
    positive number: docs/protocol.md's ``confirm_leave.points``."""
    return abs(LEAVE_PENALTY[family_of(game)])


def practice(user, game: str) -> Room:
    """DESIGN.md: "play now with bots": a room with bots in the other seats, started at once.
    One table at a time: he leaves a table he waits at; refused while he plays elsewhere."""
    room = create_room(user, game, {}, is_private=True, move=True)
    with transaction.atomic():
        room = _locked(room.pk)
        Seat.objects.filter(room=room).exclude(number=1).update(is_bot=True, ready=True)
        seats = list(Seat.objects.select_related("user").filter(room=room).order_by("number"))
        _begin(room, seats)
    return room
