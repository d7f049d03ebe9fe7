"""The events pages: the list, a day's challenge, the review after the close (E-2), arenas (E-3)."""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db.models import Count
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_GET, require_POST

from games.errors import MESSAGES as PLAY_MESSAGES
from games.models import Match
from replays import services as replays_services
from replays import timeline
from rooms.models import Room

from . import arena as arena_service
from . import challenge
from .models import Arena, ArenaPlayer, ChallengeDay, ChallengeDeal

ERRORS = {
    "not_playable": _("This game's challenge cannot be played yet."),
    "not_today": _("Only today's challenge can be played."),
    "closed": _("This challenge is closed."),
    "finished": _("You have played every deal of this challenge."),
    "bad_game": _("No such challenge."),
    "not_running": _("This arena is not running."),
    "withdrawn": _("You left a match of this arena and are withdrawn."),
    "not_joined": _("You are not in this arena."),
    "playing_elsewhere": PLAY_MESSAGES["playing_elsewhere"],
}


def _error(code: str) -> str:
    return str(ERRORS.get(code, code))


def summary() -> dict:
    """What runs now (the events page and the home page's strip)."""
    days = challenge.prepare()
    today = [d for d in days if d.date == challenge.today()]
    now = timezone.now()
    running = list(Arena.objects.filter(status__in=[Arena.Status.RUNNING, Arena.Status.CLOSING]))
    upcoming = list(
        Arena.objects.filter(status=Arena.Status.SCHEDULED, starts_at__gt=now).order_by("starts_at")[:5]
    )
    counts = dict(
        ChallengeDay.objects.filter(pk__in=[d.pk for d in today])
        .annotate(n=Count("entries"))
        .values_list("pk", "n")
    )  # one query, however many days
    for day in today:
        day.entrant_count = counts.get(day.pk, 0)
        day.playable = day.game in challenge.PLAYABLE
    return {"today": today, "running": running, "upcoming": upcoming}


@require_GET
def index(request):
    context = summary()
    context["past_days"] = ChallengeDay.objects.filter(closed_at__isnull=False).order_by("-date", "game")[:9]
    past_arenas = list(Arena.objects.filter(status=Arena.Status.FINISHED).order_by("-starts_at")[:5])
    golds = {a.podium[0] for a in past_arenas if a.podium}
    names = dict(get_user_model().objects.filter(pk__in=golds).values_list("pk", "username"))
    for a in past_arenas:
        a.gold = names.get(a.podium[0]) if a.podium else None
    context["past_arenas"] = past_arenas
    return render(request, "events/index.html", context)


def _day(day_date: str, game: str) -> ChallengeDay:
    try:
        parsed = date.fromisoformat(day_date)
    except ValueError:
        raise Http404 from None
    if game not in challenge.DEALS:
        raise Http404
    day = ChallengeDay.objects.filter(date=parsed, game=game).first()
    if day is None:
        if parsed not in (challenge.today(),):
            raise Http404
        day = challenge.get_day(parsed, game)
    if not day.closed and day.date < challenge.today():
        challenge.close(day)  # the embedded default has no beat: a past day closes when asked (idempotent)
        day.refresh_from_db()
    return day


@require_GET
@never_cache
def day_page(request, day_date: str, game: str):
    day = _day(day_date, game)
    entry = challenge.entry_of(day, request.user) if request.user.is_authenticated else None
    deals = list(entry.deals.all()) if entry else []
    all_deals = []
    if day.closed:
        all_deals = list(
            ChallengeDeal.objects.filter(entry__day=day)
            .select_related("entry__user")
            .order_by("number", "entry_id")
        )
    rows = day.ranking if day.closed else challenge.ranking(day)
    mine = {d.number: d for d in deals}
    numbers = range(1, challenge.DEALS[day.game] + 1)
    others = {
        n: [d for d in all_deals if d.number == n and (entry is None or d.entry_id != entry.pk)]
        for n in numbers
    }
    context = {
        "day": day,
        "public": challenge.public(day),
        "ranking": rows,
        "entry": entry,
        "deal_rows": [
            {"number": n, "mine": mine.get(n), "others": others[n], "board": _board_row(day.game, n)}
            for n in numbers
        ],
        "running": next((d for d in deals if not d.done), None),
        "played": sum(1 for d in deals if d.done),
        "total": challenge.DEALS[day.game],
        "playable": day.game in challenge.PLAYABLE and day.date == challenge.today() and not day.closed,
    }
    return render(request, "events/day.html", context)


def _board_row(game: str, number: int) -> dict | None:
    """Bridge: the board's dealer and vulnerability as the day page shows them."""
    if game != "bridge":
        return None
    board = challenge.board(number)
    dealer = [_("North"), _("East"), _("South"), _("West")][board["dealer"] - 1]
    vulnerable = {
        "none": _("nobody vulnerable"),
        "ns": _("North–South vulnerable"),
        "ew": _("East–West vulnerable"),
        "both": _("both sides vulnerable"),
    }[board["vulnerable"]]
    return {"dealer": dealer, "vulnerable": vulnerable, "code": board["vulnerable"]}


@require_POST
@login_required
def play(request, game: str):
    try:
        deal = challenge.play(request.user, game)
    except challenge.ChallengeError as exc:
        messages.error(request, _error(exc.code))
        return redirect("events:day", day_date=challenge.today().isoformat(), game=game)
    room = Room.objects.get(pk=deal.room_id)
    return redirect(room.get_absolute_url())


def _reviewable(request, deal_id: int) -> ChallengeDeal:
    deal = get_object_or_404(ChallengeDeal.objects.select_related("entry__day", "entry__user"), pk=deal_id)
    if deal.match_id is None or not challenge.can_review(deal.entry.day, deal, request.user):
        raise Http404  # E-2: nothing tells whether another's entry exists before the close
    return deal


def entry_timeline(match: Match) -> dict:
    """The review's timeline of a challenge deal (replays' own builder). The
    deal is one round of a match the engine would go on with, so its final
    state names no match result to check against: the round is checked move
    by move as any match's is, and the result kept is the deal's."""
    key = f"events:timeline:{match.pk}:{match.version}:{match.started_at.timestamp()}"
    data = cache.get(key)
    if data is None:
        fields = {**replays_services.public_fields(match), "status": "deal"}
        try:
            data = timeline.build(fields, replays_services.logged_moves(match))
            data["match"]["status"] = match.status
        except timeline.Unreplayable as exc:
            data = timeline.unreplayable(fields, exc)
        cache.set(key, data, replays_services.CACHE_SECONDS)
    return data


@require_GET
def review(request, deal_id: int):
    """E-2: one deal, the entry asked for beside the viewer's own, after the close."""
    deal = _reviewable(request, deal_id)
    own = None
    entry = challenge.entry_of(deal.entry.day, request.user)
    if entry is not None and entry.pk != deal.entry_id:
        own = entry.deals.filter(number=deal.number, done=True).exclude(match_id=None).first()
    return render(request, "events/review.html", {"deal": deal, "own": own, "day": deal.entry.day})


@require_GET
@xframe_options_sameorigin
def review_frame(request, deal_id: int):
    deal = _reviewable(request, deal_id)
    match = Match.objects.filter(pk=deal.match_id).first()
    if match is None or match.status == Match.Status.ACTIVE:
        raise Http404
    data = entry_timeline(match)
    return render(
        request, "events/review_frame.html", {"deal": deal, "match": match, "replayable": data["replayable"]}
    )


@require_GET
@never_cache
def review_data(request, deal_id: int):
    deal = _reviewable(request, deal_id)
    match = Match.objects.filter(pk=deal.match_id).first()
    if match is None or match.status == Match.Status.ACTIVE:
        raise Http404
    payload = dict(entry_timeline(match))
    payload["viewer"] = challenge.ENTRANT_SEAT
    # The entrant's seat is "you" only in one's own entry: beside it, another
    # entrant's play of the deal shows his name alone.
    payload["mine"] = deal.entry.user_id == request.user.pk
    return JsonResponse(payload)


# --- arenas ------------------------------------------------------------------------------


@require_GET
def arena_page(request, arena_id: int):
    arena = get_object_or_404(Arena, pk=arena_id)
    me = (
        ArenaPlayer.objects.filter(arena=arena, user=request.user).first()
        if request.user.is_authenticated
        else None
    )
    data = arena_service.standings(arena)
    names = {r["user_id"]: r["name"] for r in data["standings"]}
    podium = [names.get(uid, "?") for uid in arena.podium]
    return render(
        request,
        "events/arena.html",
        {
            "arena": arena,
            "data": data,
            "me": me,
            "podium": podium,
            "ends_at": arena_service.ends_at(arena),
            "bot_wait": round(settings.ARENA_BOT_WAIT),
        },
    )


@require_POST
@login_required
def arena_join(request, arena_id: int):
    arena = get_object_or_404(Arena, pk=arena_id)
    try:
        arena_service.join(arena, request.user)
        arena_service.seat_free(arena)
    except arena_service.ArenaError as exc:
        messages.error(request, _error(exc.code))
    return redirect("events:arena", arena_id=arena.pk)


@require_POST
@login_required
def arena_leave(request, arena_id: int):
    arena = get_object_or_404(Arena, pk=arena_id)
    try:
        arena_service.leave(arena, request.user)
    except arena_service.ArenaError as exc:
        messages.error(request, _error(exc.code))
    return redirect("events:arena", arena_id=arena.pk)


@require_GET
@never_cache
def arena_data(request, arena_id: int):
    arena = get_object_or_404(Arena, pk=arena_id)
    data = arena_service.standings(arena)
    data["rooms"] = {
        str(r.pk): r.get_absolute_url() for r in Room.objects.filter(pk__in=set(data["tables"].values()))
    }
    return JsonResponse(data)
