"""Lobby, create room, the room page, and "play now with bots"."""

from __future__ import annotations

import functools
import hashlib
import json
import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import engine
from games.errors import PlayError
from games.models import GAME_CHOICES
from infra.cache import anonymous_page, recent

from . import services
from .bot_names import bot_names
from .forms import CreateRoomForm, rule_items
from .models import Room

ROOM_LINK = re.compile(r"(?:/rooms/)?([a-z0-9]{4,12})/?(?:[?#].*)?$")


def room_code_from(text: str) -> str | None:
    """The room code in a pasted room link ("https://…/rooms/abcd2345/") or a bare code."""
    match = ROOM_LINK.search((text or "").strip().lower())
    return match.group(1) if match else None


@anonymous_page
def lobby(request):
    if "join" in request.GET:
        # "Join by link" without JavaScript: the pasted link or code, checked here.
        code = room_code_from(request.GET["join"])
        room = Room.objects.filter(code=code).first() if code else None
        if room is not None:
            return redirect(room)
        messages.error(request, _("No room has that link or code."))
        return redirect("rooms:lobby")
    game = request.GET.get("game")
    game = game if game in engine.GAMES else ""
    rooms, rooms_key = recent(("lobby-rooms", game), lambda: _lobby_rooms(game))
    return render(
        request,
        "rooms/lobby.html",
        {
            "rooms": rooms,
            # The list drawn is kept for what it shows: drawn again only when a
            # room, a seat or the language differs (issue 33).
            "rooms_key": rooms_key,
            # Built only where the template draws one anew (its HTML is kept per language).
            "forms": {name: SimpleLazyObject(functools.partial(_create_form, name)) for name in _creatable()},
            "games": GAME_CHOICES,
            "selected": game if game in _creatable() else "hokm4",
            "filter": game,
        },
    )


def _lobby_rooms(game: str):
    """The lobby's rooms and a digest of what its list shows: the same for everyone."""
    rooms = (
        Room.objects.select_related("creator")
        .prefetch_related("seats")
        .filter(is_private=False, status__in=[Room.Status.WAITING, Room.Status.PLAYING])
        # Only rooms somebody is in (a room everyone left is closed: rooms.services._hand_over).
        .filter(seats__user__isnull=False)
        .distinct()
    )
    if game:
        rooms = rooms.filter(game=game)
    rooms = list(rooms[:100])
    shown = []
    for item in rooms:
        seats = list(item.seats.all())
        item.seat_list = seats
        item.free_seats = sum(1 for s in seats if s.is_empty)
        # Called by the template only when the list is drawn anew.
        item.rule_items = functools.partial(rule_items, item.game, item.rules)
        shown.append(
            (item.code, item.game, item.status, item.rules, item.creator.username)
            + tuple((s.is_bot, s.is_empty) for s in seats)
        )
    return rooms, hashlib.sha1(repr(shown).encode()).hexdigest()


def _create_form(name: str) -> CreateRoomForm:
    return CreateRoomForm(game=name, auto_id=f"id_{name}_%s", label_suffix="")


@functools.cache
def _creatable() -> tuple[str, ...]:
    """The games whose "create a room" form can be built (an engine not built yet has none)."""
    names = []
    for name in engine.GAMES:
        try:
            _create_form(name)
        except Exception:  # noqa: BLE001 - a game whose engine is not built yet
            continue
        names.append(name)
    return tuple(names)


@login_required
@require_POST
def create(request):
    form = CreateRoomForm(request.POST)
    if form.is_valid():
        try:
            room = services.create_room(
                request.user,
                form.cleaned_data["game"],
                form.rules(),
                is_private=form.cleaned_data["is_private"],
                move=True,  # one table at a time: a table he waits at is left (L-4)
            )
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
    try:
        room = services.practice(request.user, game)
    except PlayError as exc:  # playing_elsewhere: one table at a time
        messages.error(request, exc.message)
        return redirect("rooms:lobby")
    return redirect(room)


def room(request, code):
    room = get_object_or_404(Room.objects.select_related("creator"), code=code)
    if not request.session.session_key:
        # Spectators are counted per browser: give anonymous visitors a session.
        request.session["visitor"] = True
        request.session.save()
    return _room_page(request, room)


@anonymous_page
def _room_page(request, room):
    return render(
        request,
        "rooms/room.html",
        {
            "room": room,
            "watch": request.GET.get("watch") == "1",
            "rule_items": rule_items(room.game, room.rules),
            "table_constants": services.table_constants(),
            "bot_names_json": json.dumps(bot_names(4), ensure_ascii=False),
        },
    )
