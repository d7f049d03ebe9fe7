"""Who is who among friends (R-9): a player named by his username, blocks and friendships.

The questions every friends action asks first (friends/services.py,
friends/invites.py); refusals are ``FriendError`` with a code.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Q

from .errors import FriendError
from .models import Block, Friendship

User = get_user_model()


def _other(user, username: str):
    """The player named ``username``, who must exist, be someone else and be active."""
    name = (username or "").strip().lstrip("@")
    target = User.objects.filter(username__iexact=name).first() if name else None
    if target is None:
        raise FriendError("unknown_user")
    if target.pk == user.pk:
        raise FriendError("self")
    if not target.is_active:
        raise FriendError("deactivated")
    return target


def _pair(a, b) -> Q:
    low, high = Friendship.pair(a.pk, b.pk)
    return Q(low_id=low, high_id=high)


def blocked(blocker, blocked_user) -> bool:
    return Block.objects.filter(blocker=blocker, blocked=blocked_user).exists()


def _check_not_blocked(user, target) -> None:
    if blocked(target, user):
        raise FriendError("blocked")
    if blocked(user, target):
        raise FriendError("you_blocked")


def friend_ids(user) -> set[int]:
    rows = Friendship.objects.filter(Q(low=user) | Q(high=user), status=Friendship.Status.ACCEPTED)
    return {row.other(user.pk) for row in rows}


def are_friends(a, b) -> bool:
    return Friendship.objects.filter(_pair(a, b), status=Friendship.Status.ACCEPTED).exists()
