"""Leaderboard pages (L-6): a ranking per game family and each player's statistics."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, render

from .families import DEFAULT_FAMILY, Family
from .stats import latest_entries, player_stats, ranked_rows, ranking

PER_PAGE = 25


def selected_family(value: str | None) -> str:
    return value if value in Family.values else DEFAULT_FAMILY


def index(request):
    family = selected_family(request.GET.get("game"))
    paginator = Paginator(ranking(family), PER_PAGE)
    page = paginator.get_page(request.GET.get("page"))
    rows = ranked_rows(page.object_list, page.start_index(), family)
    return render(
        request,
        "leaderboard/index.html",
        {
            "family": family,
            "family_label": Family(family).label,
            "families": Family.choices,
            "page": page,
            "rows": rows,
        },
    )


def get_player(username: str):
    return get_object_or_404(get_user_model(), username__iexact=username, is_active=True)


def player(request, username):
    user = get_player(username)
    stats = player_stats(user)
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
