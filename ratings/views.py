"""The leaderboard by rating (M-4), beside the one by points (L-6)."""

from __future__ import annotations

from django.shortcuts import render

from games import engine
from games.models import GAME_CHOICES

from . import queries


def ranking(request):
    game = request.GET.get("game")
    if game not in engine.GAMES:
        game = "hokm4"
    return render(
        request,
        "ratings/ranking.html",
        {
            "game": game,
            "games": GAME_CHOICES,
            "rows": queries.ranking(game)[:100],
            "minimum": queries.MIN_MATCHES,
        },
    )
