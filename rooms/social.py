"""The table's social side: reactions (R-5) and throwing things (H4-X5), and the
server's table constants the page needs. Nothing here touches a seat or a match's
state: each action is checked, counted atomically in the cache and broadcast."""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.errors import PlayError
from games.models import Match
from leaderboard.ledger import LEAVE_PENALTY

from . import broadcast, story
from .models import Room, Seat

REACTIONS = {
    "clap": "\U0001f44f",
    "laugh": "\U0001f602",
    "wow": "\U0001f62e",
    "sad": "\U0001f622",
    "angry": "\U0001f620",
    "thumbs": "\U0001f44d",
    "heart": "\u2764\ufe0f",
    "tea": "\U0001f375",
}
"""R-5: the fixed set of reactions and the emoji the table draws for each
(sent to the page: the table's JavaScript does not keep its own list)."""


REACTION_GUARDS: list = []
"""Callables ``guard(user) -> bool``: True refuses the user's reactions
(``muted``). Apps above rooms register theirs (friends: a moderator's mute)."""


def reaction_seconds() -> float:
    """R-5: the wait between two reactions of one player."""
    return float(settings.TABLE["REACTION_INTERVAL"])


def table_constants() -> dict:
    """The server's rules the table's page needs, sent with the page (never typed again in JS)."""
    return {
        "reactions": REACTIONS,
        "reaction_ms": int(reaction_seconds() * 1000),
        "leave_points": {family: abs(points) for family, points in LEAVE_PENALTY.items()},
        "heartbeat_ms": int(float(settings.TABLE["HEARTBEAT_SECONDS"]) * 1000),
        # E-3: how long a finished arena table's page waits before it takes its player on.
        "arena_go_ms": int(float(settings.TABLE["ARENA_GO_SECONDS"]) * 1000),
        # H4-X5: what may be thrown, drawn and named by the table (the page's language).
        "throw_items": {
            key: {"emoji": emoji, "label": str(THROW_LABELS[key])} for key, emoji in THROW_ITEMS.items()
        },
        "throws_per_trick": THROWS_PER_TRICK,
        # H4-X4: the narrator's chapters in the page's language (a state frame names the one told).
        "story": story.chapters(),
    }


def react(room: Room, user, reaction: str) -> int:
    """R-5: one reaction per player every eight seconds, enforced here."""
    if reaction not in REACTIONS:
        raise PlayError("bad_reaction")
    seat = Seat.objects.filter(room=room, user=user).values_list("number", flat=True).first()
    if seat is None:
        raise PlayError("spectator")
    if any(guard(user) for guard in REACTION_GUARDS):
        raise PlayError("muted")
    interval = reaction_seconds()
    # cache.add is atomic (SET NX in Redis): only the first within the window wins.
    key = f"react:{room.code}:{user.pk}"
    if not cache.add(key, timezone.now().timestamp(), timeout=max(1, round(interval))):
        raise PlayError("too_soon")
    broadcast.reaction(room.pk, seat, reaction)
    return seat


# --- throwing things (H4-X5) ---------------------------------------------------------

THROW_ITEMS = {
    "tomato": "\U0001f345",
    "slipper": "\U0001fa74",
    "rose": "\U0001f339",
    "egg": "\U0001f95a",
    "flower": "\U0001f33c",
    "shoe": "\U0001f45e",
}
"""H4-X5: what a player may throw, and the emoji the table draws for it."""

THROW_LABELS = {
    "tomato": _("Tomato"),
    "slipper": _("Slipper"),
    "rose": _("Rose"),
    "egg": _("Egg"),
    "flower": _("Flower"),
    "shoe": _("Shoe"),
}

THROWS_PER_TRICK = 3
"""H4-X5: at most three throws per player per trick (between tricks: towards the next one)."""


def _thrower_key(match: Match, user) -> str:
    """The counter of one player's throws in the current trick. Keyed by a
    keyed hash of the user, so not even the cache holds who threw."""
    state = match.state or {}
    trick = f"{state.get('round', 0)}.{state.get('trick_no', 0)}"
    who = hmac.new(settings.SECRET_KEY.encode(), f"throw:{user.pk}".encode(), hashlib.sha256).hexdigest()[:24]
    # The match's start as well as its id: a database made again (tests, a restore) reuses ids.
    return f"throw:{match.pk}.{match.started_at.timestamp():.0f}:{trick}:{who}"


def throw(room: Room, user, item: str, target: int) -> None:
    """H4-X5: throw ``item`` at ``target``'s face. Everyone at the table sees it
    hit; the broadcast names the item and the target, never the thrower."""
    if item not in THROW_ITEMS:
        raise PlayError("bad_item")
    match = (
        Match.objects.filter(room_id=room.pk, status=Match.Status.ACTIVE)
        .only("pk", "rules", "players", "state", "status", "started_at")
        .order_by("-id")
        .first()
    )
    if match is None:
        raise PlayError("no_match")
    if not (match.rules or {}).get("throwing"):
        raise PlayError("throw_off")
    seat = match.seat_of_user(user.pk)
    if seat is None:
        raise PlayError("spectator")
    if target == seat or match.player_at(target) is None:
        raise PlayError("bad_target")
    if any(guard(user) for guard in REACTION_GUARDS):
        raise PlayError("muted")
    key = _thrower_key(match, user)
    cache.add(key, 0, timeout=3600)
    if cache.incr(key) > THROWS_PER_TRICK:  # atomic in Redis: a burst cannot slip past the limit
        raise PlayError("throw_limit")
    broadcast.thrown(room.pk, item, target)
