"""Play now's pages (M-1, M-3): the buttons post here; the waiting page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from games.errors import PlayError
from rooms import services as room_service
from rooms.models import Room

from . import presets, services
from .models import Table


def _fail(request, exc: PlayError):
    messages.error(request, str(exc.message))
    if exc.code == "playing_elsewhere" and exc.detail:
        return redirect("rooms:room", exc.detail)
    return redirect("rooms:lobby")


@login_required
@require_POST
def press(request, preset):
    try:
        table = services.press(request.user, preset, bots_now=request.POST.get("bots") == "1")
    except PlayError as exc:
        return _fail(request, exc)
    return redirect("playnow:wait", table.pk)


@login_required
@require_POST
def together(request):
    try:
        table = services.press_together(
            request.user, request.POST.get("friend", ""), request.POST.get("preset", "")
        )
    except PlayError as exc:
        messages.error(request, str(exc.message))
        return redirect("friends:index")
    if table is None:
        return redirect("playnow:party")
    return redirect("playnow:wait", table.pk)


def _my_table(request, pk) -> Table:
    table = get_object_or_404(Table.objects.select_related("room"), pk=pk)
    return table


@login_required
def wait(request, pk):
    table = _my_table(request, pk)
    state = services.status(table, request.user)
    if state["started"] and state["seated"]:
        return redirect("rooms:room", state["room"])
    return render(
        request,
        "playnow/wait.html",
        {"table": table, "state": state, "wait": services.bot_wait(), "room": table.room},
    )


@login_required
def wait_status(request, pk):
    table = _my_table(request, pk)
    return JsonResponse(services.status(table, request.user))


@login_required
@require_POST
def bots(request, pk):
    try:
        services.bots_now(request.user, pk)
    except PlayError as exc:
        return _fail(request, exc)
    table = _my_table(request, pk)
    return redirect("rooms:room", table.room.code)


@login_required
@require_POST
def cancel(request, pk):
    """L-4: stop waiting (leaving a waiting table costs nothing)."""
    table = _my_table(request, pk)
    try:
        room_service.stand(table.room, request.user)
    except PlayError as exc:
        return _fail(request, exc)
    return redirect("rooms:lobby")


def _party_table(user) -> Table | None:
    return (
        Table.objects.filter(
            room__seats__user=user, room__status__in=[Room.Status.WAITING, Room.Status.PLAYING]
        )
        .order_by("-created_at")
        .first()
    )


@login_required
def party(request):
    pending = services.party_of(request.user)
    table = _party_table(request.user)
    if pending is None and table is not None:
        return redirect("playnow:wait", table.pk)
    if pending is None:
        raise Http404
    return render(
        request,
        "playnow/party.html",
        {"party": pending, "preset": presets.get(pending.preset)},
    )


@login_required
def party_status(request):
    pending = services.party_of(request.user)
    table = None if pending is not None else _party_table(request.user)
    return JsonResponse(
        {"waiting": pending is not None, "url": table and reverse("playnow:wait", args=[table.pk])},
    )
