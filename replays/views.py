"""Review hands (R-10): the list of one's matches, the viewer and its timeline."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from . import services

PER_PAGE = 20


@require_GET
@login_required
def index(request):
    page = Paginator(services.matches_of(request.user), PER_PAGE).get_page(request.GET.get("page"))
    rows = [{"match": m, "seat": m.seat_of_user(request.user.pk)} for m in page.object_list]
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
        },
    )


@require_GET
@never_cache
def data(request, match_id: int):
    match = services.reviewable_match(match_id, request.user)
    payload = dict(services.match_timeline(match))
    payload["viewer"] = match.seat_of_user(request.user.pk)
    return JsonResponse(payload)
