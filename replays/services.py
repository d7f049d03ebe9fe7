"""Loading a match's record for review (R-10) and who may see it."""

from __future__ import annotations

from django.core.cache import cache
from django.db import connection
from django.http import Http404

from games.models import Match, Move

from . import timeline

REVIEWABLE = (Match.Status.FINISHED, Match.Status.ABANDONED)
CACHE_SECONDS = 24 * 3600
TIMELINE_VERSION = 2  # bump when the timeline's shape changes (2: a bot's level)


def is_participant(match: Match, user) -> bool:
    """R-10: only the match's players (a user id in match.players) may review it."""
    if user is None or not user.is_authenticated:
        return False
    return any(p.get("user_id") == user.pk for p in match.players or [])


def reviewable_match(match_id: int, user) -> Match:
    """The match if ``user`` may review it; 404 otherwise, for anyone who may not,
    so that nothing tells whether it exists."""
    match = Match.objects.filter(pk=match_id, status__in=REVIEWABLE).first()
    if match is None or not is_participant(match, user):
        raise Http404
    return match


def matches_of(user):
    """The user's finished and abandoned matches, newest first (practice included, L-2)."""
    finished = Match.objects.filter(status__in=REVIEWABLE).order_by("-finished_at", "-id")
    if connection.features.supports_json_field_contains:
        return finished.filter(players__contains=[{"user_id": user.pk}])
    # SQLite (the embedded default) has no JSON containment: filter here.
    return [m for m in finished if is_participant(m, user)]


def public_fields(match: Match) -> dict:
    return {
        "id": match.pk,
        "game": match.game,
        "rules": match.rules,
        "players": match.players,
        "status": match.status,
        "result": match.result,
        "practice": match.practice,
    }


def logged_moves(match: Match) -> list[timeline.LoggedMove]:
    rows = (
        Move.objects.filter(match=match)
        .order_by("seq")
        .values_list("seq", "seat", "action", "events", "actor")
    )
    return [
        timeline.LoggedMove(seq, seat, action, events, actor == Move.Actor.CLOCK)
        for seq, seat, action, events, actor in rows
    ]


def match_timeline(match: Match) -> dict:
    """The public timeline, or {"replayable": False, ...} when the record is incomplete.
    A reviewed match no longer changes, so the result is cached by its version.
    The key also names when the match started: a database made again (a test
    site, a restored copy) numbers its matches from 1 again, and another match
    with the same id and version must not be served this one's timeline."""
    started = match.started_at.timestamp() if match.started_at else ""
    key = f"replay:{TIMELINE_VERSION}:{match.pk}:{match.version}:{started}"
    data = cache.get(key)
    if data is None:
        fields = public_fields(match)
        try:
            data = timeline.build(fields, logged_moves(match))
        except timeline.Unreplayable as exc:
            data = timeline.unreplayable(fields, exc)
        cache.set(key, data, CACHE_SECONDS)
    return data
