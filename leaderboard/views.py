"""Leaderboard pages (L-6): a ranking per game family and each player's statistics."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, render

from infra.cache import shared

from .families import DEFAULT_FAMILY, Family
from .stats import latest_entries, player_stats, ranked_rows, ranking

PER_PAGE = 25
SHARED_SECONDS = 30
"""How long a ranking page or a player's statistics are kept for everyone; a
new ledger entry or a void makes them anew at once (``touch("ledger")``)."""


class LeaderboardPage:
    """One page of the ranking as plain data (kept in the cache), with what the
    template asks of Django's ``Page``."""

    def __init__(self, number: int, num_pages: int, rows: list[dict]):
        self.number, self.num_pages, self.rows = number, num_pages, rows

    @property
    def paginator(self):  # the template reads page.paginator.num_pages
        return self

    def has_previous(self) -> bool:
        return self.number > 1

    def has_next(self) -> bool:
        return self.number < self.paginator.num_pages

    def has_other_pages(self) -> bool:
        return self.has_previous() or self.has_next()

    def previous_page_number(self) -> int:
        return self.number - 1

    def next_page_number(self) -> int:
        return self.number + 1


def selected_family(value: str | None) -> str:
    return value if value in Family.values else DEFAULT_FAMILY


def index(request):
    family = selected_family(request.GET.get("game"))
    number = request.GET.get("page") or "1"

    def make():
        # Everyone's page of the ranking, made once for everyone (issue 33).
        page = Paginator(ranking(family), PER_PAGE).get_page(number)
        return LeaderboardPage(
            page.number, page.paginator.num_pages, ranked_rows(page.object_list, page.start_index(), family)
        )

    page = shared(f"{family}:{number}", make, SHARED_SECONDS, topic="ledger")
    return render(
        request,
        "leaderboard/index.html",
        {
            "family": family,
            "family_label": Family(family).label,
            "families": Family.choices,
            "page": page,
            "rows": page.rows,
        },
    )


def get_player(username: str):
    return get_object_or_404(get_user_model(), username__iexact=username, is_active=True)


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
