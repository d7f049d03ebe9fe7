"""The worker's side of notifications: each task decides who is away (no
socket at the table, or no page of the site open) and pushes to them only.
A player with a page open hears of it there instead (static/notify/notify.js)."""

from __future__ import annotations

from celery import shared_task
from django.core.cache import cache

from . import push

TURN_REPEAT_SECONDS = 60
"""At most one "your turn" push per player and match in this time (the tag replaces it in the tray anyway)."""
ONLINE_REPEAT_SECONDS = 1800
"""At most one "a friend is online" push per friend and player in this time."""


def at_table(code: str, user_id: int) -> bool:
    from infra import presence

    who = f"u:{int(user_id)}"
    return any(entry == who for _t, entry, _seat in presence.store().entries(code))


def on_site(user_id: int) -> bool:
    from friends import presence

    return presence.is_online(user_id)


@shared_task(name="notify.turn_check")
def turn_check(match_id: int) -> int:
    """The players whose turn it is in ``match_id`` now and who have no socket at its table."""
    from games import engine
    from games.models import Match
    from rooms.models import Room

    match = Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE).first()
    if match is None:
        return 0
    seats = engine.get(match.game).to_act(match.state)
    code = Room.objects.filter(pk=match.room_id).values_list("code", flat=True).first() or ""
    subscribed = push.subscribed_ids()
    away = []
    for player in match.players:
        uid = player.get("user_id")
        if uid is None or player.get("bot") or player["seat"] not in seats or uid not in subscribed:
            continue
        if at_table(code, uid):
            continue
        if cache.add(f"notify:turn:{match_id}:{uid}", 1, TURN_REPEAT_SECONDS):
            away.append(uid)
    return push.deliver("turn", away, {"room": code}) if away else 0


@shared_task(name="notify.match_started")
def match_started(match_id: int) -> int:
    from games.models import Match
    from rooms.models import Room

    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return 0
    code = Room.objects.filter(pk=match.room_id).values_list("code", flat=True).first() or ""
    subscribed = push.subscribed_ids()
    away = [
        p["user_id"]
        for p in match.players
        if p.get("user_id") in subscribed and not p.get("bot") and not at_table(code, p["user_id"])
    ]
    return push.deliver("start", away, {"room": code}) if away else 0


@shared_task(name="notify.invite_sent")
def invite_sent(invite_id: int) -> int:
    from django.utils import translation

    from friends.models import Invite

    invite = Invite.objects.select_related("sender", "room").filter(pk=invite_id).first()
    if invite is None or invite.status != Invite.Status.PENDING or on_site(invite.recipient_id):
        return 0
    context = {"name": invite.sender.username, "invite": invite.pk, "room": invite.room.code}
    sent = 0
    # The game's name in each device's language.
    for language in {s.language for s in invite.recipient.push_subscriptions.all()}:
        with translation.override(language):
            context["game"] = str(invite.room.get_game_display())
        sent += push.deliver("invite", [invite.recipient_id], context, language=language)
    return sent


@shared_task(name="notify.friend_online")
def friend_online(user_id: int, username: str, friend_ids: list[int]) -> int:
    subscribed = push.subscribed_ids()
    away = [
        fid
        for fid in friend_ids
        if fid in subscribed
        and not on_site(fid)
        and cache.add(f"notify:online:{fid}:{user_id}", 1, ONLINE_REPEAT_SECONDS)
    ]
    return push.deliver("friend_online", away, {"name": username}) if away else 0
