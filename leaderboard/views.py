"""Leaderboard pages (L-6): a ranking per game family and each player's statistics."""

from __future__ import annotations

import hashlib

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, render

from infra.cache import anonymous_page, shared

from .families import DEFAULT_FAMILY, Family
from .stats import latest_entries, player_stats, ranked_rows, ranking

PER_PAGE = 25
SHARED_SECONDS = 30
"""How long a ranking page or a player's statistics are kept for everyone; a
new ledger entry or a void makes them anew at once (``touch("ledger")``)."""


def selected_family(value: str | None) -> str:
    return value if value in Family.values else DEFAULT_FAMILY


@anonymous_page
def index(request):
    family = selected_family(request.GET.get("game"))
    number = request.GET.get("page") or "1"

    def make():
        # Everyone's page of the ranking, made once for everyone (issue 33): plain data.
        page = Paginator(ranking(family), PER_PAGE).get_page(number)
        return page.paginator.count, page.number, ranked_rows(page.object_list, page.start_index(), family)

    count, number, rows = shared(f"{family}:{number}", make, SHARED_SECONDS, topic="ledger")
    # The page's links and numbers from Django's own Page, over the count alone.
    page = Paginator(range(count), PER_PAGE).get_page(number)
    me = request.user.pk if request.user.is_authenticated else None
    return render(
        request,
        "leaderboard/index.html",
        {
            "family": family,
            "family_label": Family(family).label,
            "families": Family.choices,
            "page": page,
            "rows": rows,
            # The rows drawn are kept for what they show ({% keep %}): the same
            # for every visitor who is not among them (issue 33).
            "rows_key": hashlib.sha1(repr(rows).encode()).hexdigest(),
            "me_shown": me if any(row["user_id"] == me for row in rows) else "",
        },
    )


def get_player(username: str):
    return get_object_or_404(get_user_model(), username__iexact=username, is_active=True)


@anonymous_page
def player(request, username):
    user = get_player(username)
    stats = shared(f"player:{user.pk}", lambda: player_stats(user), SHARED_SECONDS, topic="ledger")
    families = [{"family": value, "label": label, **stats[value]} for value, label in Family.choices]
    return render(
        request,
        "leaderboard/player.html",
        {
            "player": user,
            "families": families,
            "latest": latest_entries(user),
        },
    )
