"""Friends actions (R-9): requests, blocks, invites to a waiting room, reports.

Each action is one transaction (``check`` then ``do``); the other side hears
of it over his per-user socket after commit (friends/notify.py). Refusals are
``FriendError`` with a code (friends/errors.py). Who is who (a username,
blocks, friendships) is friends/people.py, the invites friends/invites.py:
their doors are named here too, where callers find them.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q

from games.models import Match

from . import clock, notify
from .errors import FriendError
from .invites import (  # noqa: F401 - the invites' doors, where callers find them
    accept_invite,
    decline_invite,
    invite,
    invite_closed,
    invite_payload,
    invited_here,
    invites_for_page,
    notify_invitees,
    pending_invites,
    seats_elsewhere,
    seconds_left,
)
from .models import Block, Friendship, Invite, Report
from .people import (  # noqa: F401 - who is who, where callers find it
    User,
    _check_not_blocked,
    _other,
    _pair,
    are_friends,
    blocked,
    friend_ids,
)

# --- requests ----------------------------------------------------------------------------


def send_request(user, username: str) -> Friendship:
    """R-9: add a friend by username; he accepts. One row per pair, whichever way."""
    target = _other(user, username)
    with transaction.atomic():
        _check_not_blocked(user, target)
        existing = Friendship.objects.select_for_update().filter(_pair(user, target)).first()
        if existing is not None:
            if existing.status == Friendship.Status.ACCEPTED:
                raise FriendError("already_friends")
            raise FriendError(
                "already_requested" if existing.requested_by_id == user.pk else "they_requested"
            )
        low, high = Friendship.pair(user.pk, target.pk)
        try:
            # The unique pair is the backstop for two requests racing each other.
            with transaction.atomic():
                row = Friendship.objects.create(low_id=low, high_id=high, requested_by=user)
        except IntegrityError:
            raise FriendError("already_requested") from None
        notify.on_commit(target.pk, {"type": "friends.changed", "what": "request", "user": user.username})
    return row


def _pending_to(user, username: str) -> tuple[Friendship, object]:
    """The pending request ``username`` sent to ``user``, locked."""
    name = (username or "").strip()
    other = User.objects.filter(username__iexact=name).first() if name else None
    if other is None or other.pk == user.pk:
        raise FriendError("no_request")
    row = (
        Friendship.objects.select_for_update()
        .filter(_pair(user, other), status=Friendship.Status.PENDING, requested_by=other)
        .first()
    )
    if row is None:
        raise FriendError("no_request")
    return row, other


def accept_request(user, username: str) -> Friendship:
    with transaction.atomic():
        row, other = _pending_to(user, username)
        if not other.is_active:
            raise FriendError("deactivated")
        row.status, row.accepted_at = Friendship.Status.ACCEPTED, clock.now()
        row.save(update_fields=["status", "accepted_at"])
        notify.changed(other.pk, "accepted")
    return row


def decline_request(user, username: str) -> None:
    with transaction.atomic():
        row, other = _pending_to(user, username)
        row.delete()
        notify.changed(other.pk, "declined")


def cancel_request(user, username: str) -> None:
    """Take back a request ``user`` sent that is still pending."""
    name = (username or "").strip()
    with transaction.atomic():
        other = User.objects.filter(username__iexact=name).first() if name else None
        row = (
            Friendship.objects.select_for_update()
            .filter(_pair(user, other), status=Friendship.Status.PENDING, requested_by=user)
            .first()
            if other is not None and other.pk != user.pk
            else None
        )
        if row is None:
            raise FriendError("no_request")
        row.delete()
        notify.changed(other.pk, "cancelled")


def remove_friend(user, username: str) -> None:
    name = (username or "").strip()
    with transaction.atomic():
        other = User.objects.filter(username__iexact=name).first() if name else None
        if other is None or other.pk == user.pk:
            raise FriendError("not_friends")
        deleted, _ = Friendship.objects.filter(_pair(user, other), status=Friendship.Status.ACCEPTED).delete()
        if not deleted:
            raise FriendError("not_friends")
        notify.changed(other.pk, "removed")


def block(user, username: str) -> Block:
    """Blocking ends the friendship or request between the two and voids
    ``username``'s pending invites to ``user``; he can send no more of either."""
    name = (username or "").strip()
    target = User.objects.filter(username__iexact=name).first() if name else None
    if target is None:
        raise FriendError("unknown_user")
    if target.pk == user.pk:
        raise FriendError("self")
    with transaction.atomic():
        row, _created = Block.objects.get_or_create(blocker=user, blocked=target)
        Friendship.objects.filter(_pair(user, target)).delete()
        Invite.objects.filter(
            Q(sender=target, recipient=user) | Q(sender=user, recipient=target), status=Invite.Status.PENDING
        ).update(status=Invite.Status.DECLINED, answered_at=clock.now())
        notify.changed(target.pk, "removed")
    return row


def unblock(user, username: str) -> None:
    name = (username or "").strip()
    with transaction.atomic():
        Block.objects.filter(blocker=user, blocked__username__iexact=name).delete()


# --- reports -----------------------------------------------------------------------------


def shared_matches(user, other, limit: int = 10) -> list[Match]:
    """Recent matches both played (what a report may attach)."""
    ids = []
    for match in Match.objects.order_by("-started_at").only("players")[:500]:
        seated = {p.get("user_id") for p in match.players}
        if user.pk in seated and other.pk in seated:
            ids.append(match.pk)
            if len(ids) >= limit:
                break
    return list(Match.objects.filter(pk__in=ids).order_by("-started_at"))


def report(user, username: str, reason: str, details: str = "", match_id: int | None = None) -> Report:
    """A player reports another, with a reason and, if he likes, the match it happened in."""
    name = (username or "").strip()
    target = User.objects.filter(username__iexact=name).first() if name else None
    if target is None:
        raise FriendError("unknown_user")
    if target.pk == user.pk:
        raise FriendError("self")
    if reason not in Report.Reason.values:
        raise FriendError("bad_reason")
    match = None
    if match_id:
        match = Match.objects.filter(pk=match_id).first()
        if match is None or match.seat_of_user(target.pk) is None:
            raise FriendError("bad_match")
    with transaction.atomic():
        return Report.objects.create(
            reporter=user, reported=target, reason=reason, details=(details or "")[:2000], match=match
        )


def request_count(user) -> int:
    """Pending friend requests others sent ``user`` (the badge adds his live invites itself)."""
    return (
        Friendship.objects.filter(Q(low=user) | Q(high=user), status=Friendship.Status.PENDING)
        .exclude(requested_by=user)
        .count()
    )


def incoming_count(user) -> int:
    """Pending requests others sent ``user`` plus invites he can still answer (the badge)."""
    requests = (
        Friendship.objects.filter(Q(low=user) | Q(high=user), status=Friendship.Status.PENDING)
        .exclude(requested_by=user)
        .count()
    )
    return requests + pending_invites(user).count()
