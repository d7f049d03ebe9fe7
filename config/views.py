"""Site-wide pages: home, rules, and the health check."""

from __future__ import annotations

import asyncio
import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_sameorigin

from games import engine
from games.engine.base import FAMILIES
from infra.cache import anonymous_page, shared

RULE_SECTIONS = {
    family: tuple(g.name for g in engine.catalogue() if g.family == family) for family in FAMILIES
}
"""Each rules page (a game family) and its games, from the engines' one contract."""


@anonymous_page
def home(request):
    from rooms.models import Room

    # The same for everyone: counted at most every few seconds (issue 33).
    open_tables = shared(
        "open-tables",
        lambda: Room.objects.filter(status=Room.Status.WAITING, is_private=False).count(),
        5,
        topic="home",
    )
    return render(request, "home.html", {"games": engine.GAMES, "open_tables": open_tables})


def _table_rules(code: str, base: str):
    """The room's own table rules, each marked where it differs from the usual (R-8).

    Returns (room, {rule name: item}) or (None, {}) for an unknown room or another game."""
    from rooms.forms import choice_label, rule_items
    from rooms.models import Room

    room = Room.objects.filter(code=code).first() if code else None
    if room is None or room.game.rstrip("24") != base:
        return None, {}
    spec = engine.get(room.game).RULE_OPTIONS
    table = {}
    for item in rule_items(room.game, room.rules):
        default = spec[item["name"]]["default"]
        item["differs"] = item["value"] != default
        item["usual"] = choice_label(item["name"], default, (room.rules or {}).get("jokers"))
        table[item["name"]] = item
    return room, table


@xframe_options_sameorigin  # the table opens this page in its own panel (same site only)
@anonymous_page
def rules(request, game: str | None = None):
    game = game or "hokm"
    base = game.rstrip("24")
    if base not in RULE_SECTIONS:
        raise Http404
    back = request.GET.get("back", "")
    # the rules open in place; "back" returns to the same table (only our own rooms).
    if not back.startswith("/rooms/"):
        back = ""
    room, table = _table_rules(request.GET.get("room", ""), base)
    embed = request.GET.get("embed") == "1"
    return render(
        request,
        f"rules/{base}.html",
        {
            "section": base,
            "game": game if game in engine.GAMES else RULE_SECTIONS[base][0],
            "back": back,
            "room": room,
            "table": table,
            "embed": embed,
            "layout": "rules/_embed.html" if embed else "base.html",
        },
    )


def _check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


async def _layer_roundtrip() -> None:
    layer = get_channel_layer()
    name = await layer.new_channel()
    token = uuid.uuid4().hex
    await layer.send(name, {"type": "health.ping", "token": token})
    message = await asyncio.wait_for(layer.receive(name), timeout=2)
    if message.get("token") != token:
        raise RuntimeError("channel layer answered with another message")


def _check_channel_layer() -> None:
    async_to_sync(_layer_roundtrip)()


@never_cache
def healthz(request):
    """200 when the database and the channel layer answer; 503 naming what is down."""
    checks = {"database": _check_database, "channel_layer": _check_channel_layer}
    status = {}
    for name, check in checks.items():
        try:
            check()
            status[name] = "ok"
        except Exception as exc:  # noqa: BLE001 - any failure means "down"
            status[name] = f"down: {type(exc).__name__}"
    down = [name for name, value in status.items() if value != "ok"]
    return JsonResponse(
        {"status": "ok" if not down else "down", "down": down, "checks": status}, status=503 if down else 200
    )


FAVICON_SECONDS = 7 * 24 * 3600


def favicon(request):
    """``/favicon.ico``, which browsers and tools ask for whatever the page links:
    the site's icon as an ICO (16, 32 and 48 px, drawn from static/img/favicon.svg),
    cached a week. The pages themselves link the SVG."""
    from django.contrib.staticfiles import finders
    from django.contrib.staticfiles.storage import staticfiles_storage
    from django.http import HttpResponse
    from django.utils.cache import patch_cache_control

    path = finders.find("img/favicon.ico")
    if path is None and staticfiles_storage.exists("img/favicon.ico"):
        path = staticfiles_storage.path("img/favicon.ico")
    if path is None:
        raise Http404
    with open(path, "rb") as icon:
        response = HttpResponse(icon.read(), content_type="image/x-icon")
    patch_cache_control(response, public=True, max_age=FAVICON_SECONDS)
    return response
