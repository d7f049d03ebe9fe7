"""Reading the ledger: rankings and per-player statistics (L-6).

Everything here reads ``LedgerEntry.objects.counted()``: practice (L-2) and
voided entries never count.
"""

from __future__ import annotations

from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Coalesce

from .families import Family
from .models import LedgerEntry

MEDALS = {1: "gold", 2: "silver", 3: "bronze"}
R = LedgerEntry.Result

_AGGREGATES = {
    "points": Coalesce(Sum("points"), 0),
    "matches": Count("id"),
    "wins": Count("id", filter=Q(result=R.WIN)),
    "losses": Count("id", filter=Q(result__in=LedgerEntry.LOSSES)),
    "left": Count("id", filter=Q(result=R.LEFT)),
    "unfinished": Count("id", filter=Q(result=R.UNFINISHED)),
}


def ranking(family: str):
    """Players of a family by total points. Ties: more wins first, then fewer
    matches, then the username, so every position (and medal) is fixed."""
    return (
        LedgerEntry.objects.counted()
        .filter(family=family, user__is_active=True)
        .values("user_id", username=F("user__username"))
        .annotate(**_AGGREGATES)
        .order_by("-points", "-wins", "matches", "username")
    )


def ranked_rows(rows, start_rank: int) -> list[dict]:
    """Number a page of ``ranking`` rows from ``start_rank`` and give the top three their medals."""
    out = []
    for i, row in enumerate(rows):
        rank = start_rank + i
        out.append({**row, "rank": rank, "medal": MEDALS.get(rank)})
    return out


def empty_stats(family: str) -> dict:
    return {"family": family, "points": 0, "matches": 0, "wins": 0, "losses": 0, "left": 0, "unfinished": 0}


def player_stats(user) -> dict[str, dict]:
    """{family: {matches, wins, losses, left, unfinished, points}} for every family."""
    stats = {family: empty_stats(family) for family in Family.values}
    rows = LedgerEntry.objects.counted().filter(user=user).values("family").annotate(**_AGGREGATES)
    for row in rows:
        stats[row["family"]].update(row)
    return stats


def latest_entries(user, limit: int = 10):
    """The player's latest counted matches, newest first."""
    return (
        LedgerEntry.objects.counted()
        .filter(user=user)
        .select_related("match")
        .defer("match__state", "match__tea")  # the whole game's state is not shown here
        .order_by("-match__finished_at", "-match_id")[:limit]
    )
