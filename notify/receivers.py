"""Where notifications start: receivers of signals the site already sends.

- ``games.signals.version_committed`` (after the commit): a turn may have
  come to a player who is away. On the move path this costs a look at a set
  kept in memory (who has a push subscription); only a match with such a
  player queues one check, coalesced per match for ``TURN_DELAY`` seconds:
  the check reads whose turn it is when it runs (``notify.tasks.turn_check``).
- ``post_save`` of a new ``games.Match``: the match starts.
- ``post_save`` of a new ``friends.Invite``: an invite.
- A friend coming online: ``friend_came_online``, called by the friends
  socket where it tells his friends' open pages (R-9: only if he shows it).
"""

from __future__ import annotations

import threading
import time

from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_save

from . import push

TURN_DELAY = 3.0
"""Seconds between a version and the check of who is away (versions within it share one check)."""

_next_check: dict[int, float] = {}
_next_lock = threading.Lock()


def turn_delay() -> float:
    return float(getattr(settings, "NOTIFY_TURN_DELAY", TURN_DELAY))


def version_committed(sender, frames, **kwargs) -> None:
    if frames.ends_match or not frames.players:
        return
    subscribed = push.subscribed_ids()
    if subscribed.isdisjoint(frames.players):
        return
    now, delay = time.monotonic(), turn_delay()
    with _next_lock:
        if _next_check.get(frames.match_id, 0.0) > now:
            return  # a check is already queued; it reads the state when it runs
        _next_check[frames.match_id] = now + delay
        if len(_next_check) > 10000:
            for key in [k for k, t in _next_check.items() if t <= now]:
                del _next_check[key]
    push.enqueue("turn_check", frames.match_id, countdown=delay)


def match_created(sender, instance, created, raw=False, **kwargs) -> None:
    if not created or raw:
        return
    humans = {p.get("user_id") for p in instance.players or [] if p.get("user_id") and not p.get("bot")}
    if humans and not push.subscribed_ids().isdisjoint(humans):
        match_id = instance.pk
        transaction.on_commit(lambda: push.enqueue("match_started", match_id))


def invite_created(sender, instance, created, raw=False, **kwargs) -> None:
    if not created or raw or instance.recipient_id not in push.subscribed_ids():
        return
    invite_id = instance.pk
    transaction.on_commit(lambda: push.enqueue("invite_sent", invite_id))


def friend_came_online(user, friend_ids) -> None:
    """The friends socket's one call (friends/consumers.py): ``user``, who shows
    his online status, came online; his friends who are away hear of it."""
    wanted = [fid for fid in friend_ids if fid in push.subscribed_ids()]
    if wanted:
        push.enqueue("friend_online", user.pk, user.username, wanted)


def signed_out(sender, request, user, **kwargs) -> None:
    """A device whose player signed out gets no more of his notifications."""
    from .models import PushSubscription

    key = getattr(getattr(request, "session", None), "session_key", None)
    if user is not None and key:
        PushSubscription.objects.filter(user=user, session_key=key).delete()
        push.forget_subscribed()


def connect() -> None:
    from django.contrib.auth.signals import user_logged_out

    from friends.models import Invite
    from games import signals
    from games.models import Match

    user_logged_out.connect(signed_out, dispatch_uid="notify.signed_out")

    signals.version_committed.connect(version_committed, dispatch_uid="notify.turn")
    post_save.connect(match_created, sender=Match, dispatch_uid="notify.match_created")
    post_save.connect(invite_created, sender=Invite, dispatch_uid="notify.invite_created")
