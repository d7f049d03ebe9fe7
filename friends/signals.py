"""A player who hides his online status, or shows it again, is seen so at
once on his friends' open pages (R-9): their friends socket hears of it
after commit and says what his preference and the presence store hold then."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from . import notify, services


def remember_show_online(sender, instance, raw=False, **kwargs):
    if raw or instance.pk is None:
        instance._showed_online = None
        return
    instance._showed_online = (
        type(instance).objects.filter(pk=instance.pk).values_list("show_online", flat=True).first()
    )


def tell_friends_show_online(sender, instance, created, raw=False, **kwargs):
    before = getattr(instance, "_showed_online", None)
    if raw or created or before is None or before == instance.show_online:
        return
    user = get_user_model().objects.filter(pk=instance.user_id).first()
    if user is None:
        return
    message = {"type": "friends.presence", "user": user.username, "user_id": user.pk}
    for friend_id in services.friend_ids(user):
        notify.on_commit(friend_id, message)


def room_or_seat_saved(sender, instance, raw=False, **kwargs):
    """A room's seat or status changed (a seat taken or freed, the match begun):
    after commit, the open pages of its pending invites' recipients hear of it,
    so an invite to a room that filled or started loses its "Take the seat" (R-9)."""
    if raw:
        return
    from rooms.models import Seat

    room_id = instance.room_id if isinstance(instance, Seat) else instance.pk
    transaction.on_commit(lambda: services.notify_invitees(room_id))
