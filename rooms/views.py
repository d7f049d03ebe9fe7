"""Lobby, create room, the room page, and "play now with bots"."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games import engine
from games.errors import PlayError
from games.models import GAME_CHOICES

from . import services
from .forms import CreateRoomForm
from .models import Room


def lobby(request):
    game = request.GET.get("game")
    rooms = Room.objects.select_related("creator").prefetch_related("seats") \
        .filter(is_private=False, status__in=[Room.Status.WAITING, Room.Status.PLAYING])
    if game in engine.GAMES:
        rooms = rooms.filter(game=game)
    forms = {}
    for name in engine.GAMES:
        try:
            forms[name] = CreateRoomForm(game=name)
        except Exception:  # noqa: BLE001 - a game whose engine is not built yet
            continue
    return render(request, "rooms/lobby.html", {
        "rooms": rooms[:100], "forms": forms, "games": GAME_CHOICES, "selected": game or "hokm4",
    })


@login_required
@require_POST
def create(request):
    form = CreateRoomForm(request.POST)
    if form.is_valid():
        try:
            room = services.create_room(request.user, form.cleaned_data["game"], form.rules(),
                                        is_private=form.cleaned_data["is_private"])
        except PlayError as exc:
            messages.error(request, exc.message)
        else:
            return redirect(room)
    else:
        messages.error(request, str(PlayError("bad_rules").message))
    return redirect("rooms:lobby")


@login_required
@require_POST
def practice(request, game):
    if game not in engine.GAMES:
        return redirect("rooms:lobby")
    room = services.practice(request.user, game)
    return redirect(room)


def room(request, code):
    room = get_object_or_404(Room.objects.select_related("creator"), code=code)
    if not request.session.session_key:
        # Spectators are counted per browser: give anonymous visitors a session.
        request.session["visitor"] = True
        request.session.save()
    return render(request, "rooms/room.html", {"room": room, "watch": request.GET.get("watch") == "1"})
