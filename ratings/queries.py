"""Reading ratings for the pages and the API (M-4)."""

from __future__ import annotations

from django.db.models import Q, Sum

from games.models import GAME_CHOICES
from leaderboard.models import LedgerEntry

from . import chart
from .models import Rating, RatingHistory
from .services import PROVISIONAL_BELOW, describe, shown

MIN_MATCHES = PROVISIONAL_BELOW
"""M-4: the rating leaderboard lists players with at least this many rated matches."""


def history(user, game: str, limit: int = 50) -> list[dict]:
    rows = list(
        RatingHistory.objects.filter(user=user, game=game).select_related("match").order_by("-id")[:limit]
    )
    rows.reverse()
    return [
        {
            "match": r.match_id,
            "finished_at": r.match.finished_at,
            "result": r.result,
            "result_label": r.get_result_display(),
            "rating": shown(r.mu, r.sigma),
            "change": shown(r.mu, r.sigma) - shown(r.mu_before, r.sigma_before),
            "matches": r.matches,
        }
        for r in rows
    ]


def profile(user) -> list[dict]:
    """Per game the player has a rating for: the rating, the chart, the matches behind it, and the ledger points."""
    games = dict(GAME_CHOICES)
    points = {
        row["game"]: row["total"]
        for row in LedgerEntry.objects.counted()
        .filter(user=user)
        .values("game")
        .annotate(total=Sum("points"))
    }
    out = []
    for rating in Rating.objects.filter(user=user).order_by("game"):
        past = history(user, rating.game)
        label = str(games.get(rating.game, rating.game))
        out.append(
            {
                "game": rating.game,
                "label": label,
                **describe(rating.mu, rating.sigma, rating.matches),
                "points": points.get(rating.game, 0),
                "chart": chart.svg([h["rating"] for h in past], label),
                "history": list(reversed(past))[:10],
            }
        )
    return out


def ranking(game: str, min_matches: int = MIN_MATCHES) -> list[dict]:
    """M-4: players ranked by the shown rating (ties share the rank)."""
    rows = [
        {"username": r.user.username, "user_id": r.user_id, **describe(r.mu, r.sigma, r.matches)}
        for r in Rating.objects.filter(game=game, matches__gte=min_matches)
        .filter(~Q(user__is_active=False))
        .select_related("user")
    ]
    rows.sort(key=lambda r: (-r["rating"], r["username"]))
    rank, previous = 0, None
    for i, row in enumerate(rows, start=1):
        if row["rating"] != previous:
            rank, previous = i, row["rating"]
        row["rank"] = rank
    return rows
