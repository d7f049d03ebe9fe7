"""Review hands (R-10): the list of one's matches, the viewer and its timeline."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import pgettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games import engine
from games.models import Match
from rooms.bot_names import bot_label, bot_names

from . import services

PER_PAGE = 20


def outcome(match: Match, seat: int | None) -> dict | None:
    """A finished match's result from the viewer's side: won or lost, his side's score first."""
    result = match.result or {}
    score = result.get("score")
    if match.status != Match.Status.FINISHED or seat is None or not score:
        return None
    team = engine.get(match.game).team_of(seat)
    winner = result.get("winner")
    return {
        "won": None if winner is None else winner == team,
        "mine": score[team],
        "theirs": score[1 - team],
    }


def player_names(match: Match) -> str:
    """The match's players by seat, a bot by the table's name with its level ("Kaveh (easy)"),
    joined the page's way: "a, b" in English, «a، b» in Persian (issue 34)."""
    names = [
        bot_label(p["seat"], p.get("level")) if p.get("bot") else (p.get("username") or "")
        for p in sorted(match.players or [], key=lambda p: p["seat"])
    ]
    return pgettext("between the names of a list", ", ").join(names)


@require_GET
@login_required
def index(request):
    page = Paginator(services.matches_of(request.user), PER_PAGE).get_page(request.GET.get("page"))
    rows = []
    for m in page.object_list:
        seat = m.seat_of_user(request.user.pk)
        rows.append({"match": m, "seat": seat, "outcome": outcome(m, seat), "players": player_names(m)})
    return render(request, "replays/index.html", {"page": page, "rows": rows})


@require_GET
def viewer(request, match_id: int):
    match = services.reviewable_match(match_id, request.user)
    data = services.match_timeline(match)
    return render(
        request,
        "replays/viewer.html",
        {
            "match": match,
            "replayable": data["replayable"],
            "viewer_seat": match.seat_of_user(request.user.pk),
            "bot_names_json": json.dumps(bot_names(4), ensure_ascii=False),
        },
    )


@require_GET
@never_cache
def data(request, match_id: int):
    match = services.reviewable_match(match_id, request.user)
    payload = dict(services.match_timeline(match))
    payload["viewer"] = match.seat_of_user(request.user.pk)
    return JsonResponse(payload)
