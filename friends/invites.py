"""Invites to a waiting room (R-9): sent to a friend, taken or declined.

An invite holds for ``INVITE_VALIDITY``; taking it seats the friend through
the room's own service (leaving a seat elsewhere when he says so). Each
action is one transaction; the other side hears of it after commit
(friends/notify.py). Refusals are ``FriendError`` with a code.
"""

from __future__ import annotations

from django.db import transaction

from games.errors import PlayError
from games.models import Match
from rooms import services as room_service
from rooms.models import Room, Seat

from . import clock, notify
from .errors import MESSAGES, FriendError
from .models import INVITE_VALIDITY, Invite
from .people import _check_not_blocked, _other, are_friends


def _empty_seats(room: Room) -> list[int]:
    return [s.number for s in Seat.objects.filter(room=room).order_by("number") if s.is_empty]


def invite_closed(invite: Invite, room: Room | None = None) -> str | None:
    """Why the seat of a still-valid invite cannot be taken now (R-9), or None:
    ``match_started`` or ``room_full``. A match that began after the invite was
    sent counts even when it is over (a leaver puts the room back to waiting):
    the invite was for that match. A full room may free a seat again."""
    room = room or invite.room
    if room.status != Room.Status.WAITING or Match.objects.filter(room=room).count() > invite.matches_before:
        return "match_started"
    if not _empty_seats(room):
        return "room_full"
    return None


def _usable(invite: Invite, room: Room) -> None:
    """R-9: an invite is refused once it expired, the match started or the room filled up."""
    if invite.expired():
        raise FriendError("invite_expired")
    closed = invite_closed(invite, room)
    if closed is not None:
        raise FriendError(closed)


def seconds_left(invite: Invite) -> int:
    """Whole seconds an invite is still valid (0 once expired)."""
    return max(0, int((invite.expires_at - clock.now()).total_seconds()))


def invited_here(room: Room) -> dict[int, Invite]:
    """The players with a still-valid invite to ``room``'s coming match, by user id."""
    rows = Invite.objects.filter(
        room=room,
        status=Invite.Status.PENDING,
        created_at__gte=clock.now() - INVITE_VALIDITY,
        matches_before=Match.objects.filter(room=room).count(),
    ).order_by("created_at")
    return {row.recipient_id: row for row in rows}


def invite(user, username: str, room: Room | None = None) -> Invite:
    """Invite a friend to the waiting room ``user`` sits in (or ``room``, where he sits)."""
    target = _other(user, username)
    with transaction.atomic():
        if room is None:
            seat = (
                Seat.objects.select_related("room")
                .filter(user=user, room__status=Room.Status.WAITING)
                .order_by("-room__created_at")
                .first()
            )
            if seat is None:
                raise FriendError("not_seated")
            room = seat.room
        room = Room.objects.select_for_update().get(pk=room.pk)
        if not Seat.objects.filter(room=room, user=user).exists():
            raise FriendError("not_seated")
        if not are_friends(user, target):
            raise FriendError("not_friends")
        _check_not_blocked(user, target)
        if room.status != Room.Status.WAITING:
            raise FriendError("match_started")
        if Seat.objects.filter(room=room, user=target).exists():
            raise FriendError("already_here")
        if not _empty_seats(room):
            raise FriendError("room_full")
        earlier = invited_here(room).get(target.pk)
        if earlier is not None:
            raise FriendError("already_invited", {"expires_in": seconds_left(earlier)})
        row = Invite.objects.create(
            sender=user, recipient=target, room=room, matches_before=Match.objects.filter(room=room).count()
        )
        notify.on_commit(target.pk, {"type": "friends.invite", "invite": invite_payload(row)})
    return row


def invite_payload(row: Invite, closed: str | None = None) -> dict:
    """An invite for the recipient's pages: ``expires_in`` counts down there
    (seconds, so a page's own clock need not agree with the server's);
    ``closed`` says why its seat cannot be taken now (``invite_closed``)."""
    return {
        "id": row.pk,
        "from": row.sender.username,
        "room": row.room.code,
        "game": row.room.game,
        "game_name": str(row.room.get_game_display()),
        "expires_at": row.expires_at.isoformat(),
        "expires_in": seconds_left(row),
        "closed": closed,
        "closed_message": str(MESSAGES[closed]) if closed else None,
    }


def invites_for_page(user) -> list[dict]:
    """``user``'s pending invites as his pages show them, newest first (in the active language)."""
    return [invite_payload(row, invite_closed(row)) for row in pending_invites(user)]


def notify_invitees(room_id: int) -> None:
    """The room's seats or status changed: the pages of everyone holding a
    pending invite to it hear of it, so "Take the seat" comes and goes (R-9)."""
    recipients = set(
        Invite.objects.filter(
            room_id=room_id, status=Invite.Status.PENDING, created_at__gte=clock.now() - INVITE_VALIDITY
        ).values_list("recipient_id", flat=True)
    )
    for user_id in recipients:
        notify.changed(user_id, "invite")


def pending_invites(user):
    """Invites ``user`` can still answer (not expired), newest first."""
    cutoff = clock.now() - INVITE_VALIDITY
    return (
        Invite.objects.select_related("sender", "room")
        .filter(recipient=user, status=Invite.Status.PENDING, created_at__gte=cutoff)
        .order_by("-created_at")
    )


def seats_elsewhere(user, room: Room) -> list[Seat]:
    """The seats ``user`` holds in rooms other than ``room`` (a room he would have to leave)."""
    return list(
        Seat.objects.select_related("room").filter(user=user).exclude(room=room).order_by("-room__updated_at")
    )


def accept_invite(user, invite_id: int, choice: str | None = None, confirm: bool = False) -> dict:
    """Take the invited seat (R-9). Sitting in another room, ``user`` is first
    asked (``seated_elsewhere``): ``choice="stay"`` keeps everything as it is,
    ``choice="leave"`` leaves that room, for free before its match started
    (L-4) and only with ``confirm`` during one (L-3), then takes the seat.
    Nothing changes until the answer: the user is never silently unseated."""
    if choice not in (None, "stay", "leave"):
        raise FriendError("bad_choice")
    with transaction.atomic():
        row = (
            Invite.objects.select_for_update()
            .select_related("room", "sender")
            .filter(pk=invite_id, recipient=user, status=Invite.Status.PENDING)
            .first()
        )
        if row is None:
            raise FriendError("no_invite")
        room = row.room
        _usable(row, room)
        if Seat.objects.filter(room=room, user=user).exists():
            row.status, row.answered_at = Invite.Status.ACCEPTED, clock.now()
            row.save(update_fields=["status", "answered_at"])
            return {"status": "seated", "room": room.code}
        elsewhere = seats_elsewhere(user, room)
        if elsewhere and choice is None:
            current = elsewhere[0].room
            raise FriendError(
                "seated_elsewhere",
                {"room": current.code, "playing": current.status == Room.Status.PLAYING},
            )
        if elsewhere and choice == "stay":
            return {"status": "stayed", "room": elsewhere[0].room.code}
        for seat in elsewhere:
            try:
                room_service.leave(seat.room, user, confirm=confirm)
            except PlayError as exc:
                if exc.code == "confirm_required":
                    raise FriendError(
                        "confirm_leave",
                        {"room": seat.room.code, "points": room_service.leave_points(seat.room.game)},
                    ) from None
                raise
        for number in _empty_seats(room):
            try:
                with transaction.atomic():
                    room_service.sit(room, user, number)
                break
            except PlayError as exc:
                if exc.code == "room_busy":
                    raise FriendError("match_started") from None
                if exc.code != "seat_taken":
                    raise
        else:
            raise FriendError("room_full")
        row.status, row.answered_at = Invite.Status.ACCEPTED, clock.now()
        row.save(update_fields=["status", "answered_at"])
        notify.changed(row.sender_id, "invite_accepted")
        notify.changed(user.pk, "invite")
    return {"status": "seated", "room": room.code}


def decline_invite(user, invite_id: int) -> None:
    with transaction.atomic():
        updated = Invite.objects.filter(pk=invite_id, recipient=user, status=Invite.Status.PENDING).update(
            status=Invite.Status.DECLINED, answered_at=clock.now()
        )
        if not updated:
            raise FriendError("no_invite")
        notify.changed(user.pk, "invite")  # his other open pages drop it too
