"""Arenas (E-3): the service the pages, the socket and the ticker call.

A moderator schedules an arena in the admin. While it runs, anyone signed in
joins or leaves; each tick seats the free players (``seat_free``: a table's
worth at a time, close scores, partners not repeated, events/arena_core.py)
at a table of rooms' own (private room, rooms' public services start it).
When a match ends (games' ``match_ended``) its players score and are free
again, and are seated at once if a table's worth are free (``seat_now``);
a confirmed leave scores 0 and withdraws the leaver. At the window's end
no one is seated any more; once the running matches have finished and
counted, the arena is finished with its podium. Every step is idempotent:
a row lock on the arena serialises seating and the close, a table is
scored once (``scored``), and the status moves by compare and swap.

Bots (the lead's decision, docs/events.md): when too few people are free
to make a table, a free player who has waited ``ARENA_BOT_WAIT`` seconds is
seated with the other free players left over, and strong bots fill the
empty seats (as BBO's and Funbridge's robot tournaments do). The bots are
not entrants: no arena row, no score, never in the standings (a bot seat is
``None`` in ``ArenaTable.seats``); the people at the table score as at any.

Ratings (M-2, issue 36): ``RATED`` holds callables ``f(match)`` called for
each finished arena match; the ratings app appends its own when it lands.
"""

from __future__ import annotations

import logging
import random
import time
from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from friends import notify
from games import engine
from games.errors import PlayError
from games.models import Match
from rooms import services as rooms_services

from . import arena_core
from .models import Arena, ArenaPlayer, ArenaTable

log = logging.getLogger(__name__)

RATED: list = []
"""Hooks ``f(match)`` for each finished arena match (ratings, M-2): empty until a ratings app registers."""

_rng = random.SystemRandom()

BOT_LEVEL = "strong"
"""E-3: the bots that fill a table of players left over (rooms' BOT_LEVELS)."""


def clock():
    """The arena's time (when a player became free, how long he has waited):
    the site's clock; the benchmark puts its simulated clock here."""
    return timezone.now()


class ArenaError(Exception):
    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def group(arena_id: int) -> str:
    return f"arena.{arena_id}"


def ends_at(arena: Arena):
    return arena.starts_at + timedelta(minutes=arena.minutes)


def standings(arena: Arena) -> dict:
    """What the page and the socket show: every player's score, streak, state; the podium.

    ``at`` is when it was read (epoch seconds): every change committed before
    it is in it, so the newest frame stands for every earlier one (the socket
    sends the latest of a burst, events/consumers.py)."""
    at = time.time()
    rows = []
    for p in (
        ArenaPlayer.objects.filter(arena=arena).select_related("user").order_by("-score", "played", "id")
    ):
        rows.append(
            {
                "user_id": p.user_id,
                "name": p.user.username,
                "score": p.score,
                "streak": p.streak,
                "played": p.played,
                "present": p.present and not p.withdrawn,
                "withdrawn": p.withdrawn,
                "busy": p.busy,
            }
        )
    tables = {}
    for t in ArenaTable.objects.filter(arena=arena, scored=False).exclude(room_id=None):
        for uid in t.seats:
            if uid is not None:  # a bot's seat
                tables[str(uid)] = t.room_id
    return {
        "arena": arena.pk,
        "at": at,
        "status": arena.status,
        "ends_at": ends_at(arena).isoformat(),
        "standings": rows,
        "tables": tables,
        "podium": arena.podium,
    }


def announce(arena_id: int) -> None:
    """After commit: the standings to the arena's socket group."""

    def send():
        arena = Arena.objects.filter(pk=arena_id).first()
        layer = get_channel_layer()
        if arena is None or layer is None:
            return
        try:
            async_to_sync(layer.group_send)(
                group(arena_id), {"type": "arena.standings", "data": standings(arena)}
            )
        except Exception:  # noqa: BLE001 - the page asks again on its next message
            log.exception("could not announce arena %s", arena_id)

    transaction.on_commit(send)


def join(arena: Arena, user) -> ArenaPlayer:
    if arena.status != Arena.Status.RUNNING:
        raise ArenaError("not_running")
    with transaction.atomic():
        player, _ = ArenaPlayer.objects.select_for_update().get_or_create(arena=arena, user=user)
        if player.withdrawn:
            raise ArenaError("withdrawn")
        if not player.present or player.free_since is None:
            player.present = True
            player.free_since = clock()
            player.save(update_fields=["present", "free_since"])
        announce(arena.pk)
    return player


def leave(arena: Arena, user) -> None:
    """Leave the arena: not seated again (a match he is in goes on and counts)."""
    with transaction.atomic():
        updated = ArenaPlayer.objects.filter(arena=arena, user=user, present=True).update(present=False)
        if not updated:
            raise ArenaError("not_joined")
        announce(arena.pk)


def seat_free(arena: Arena, now=None) -> list[ArenaTable]:
    """Seat every table's worth of free players now (E-3), then, when fewer
    than a table are left and one of them has waited ``ARENA_BOT_WAIT``
    seconds (at ``now``, the arena's clock by default), those left over with
    bots. Under the arena's row lock and the free players' (two workers seat
    nobody twice: the second finds them busy)."""
    players_per_table = engine.get(arena.game).players
    now = now or clock()
    made = []
    with transaction.atomic():
        arena = Arena.objects.select_for_update().get(pk=arena.pk)
        if arena.status != Arena.Status.RUNNING:
            return []
        free = list(
            ArenaPlayer.objects.select_for_update()
            .filter(arena=arena, present=True, withdrawn=False, busy=False)
            .select_related("user")
        )
        if not free:
            return []
        by_id = {p.user_id: p for p in free}
        scores = {p.user_id: p.score for p in free}
        last = {p.user_id: p.last_partner for p in free if p.last_partner}
        since = {p.user_id: p.free_since.timestamp() for p in free if p.free_since}
        groups = arena_core.tables(list(by_id), players_per_table, scores, last, _rng, since)
        for seats in groups:
            table = _try_open(arena, [by_id[u] for u in seats])
            if table is not None:
                made.append(table)
        left = sorted(
            (p for p in free if not any(p.user_id in t.seats for t in made)),
            key=lambda p: since.get(p.user_id, 0.0),
        )
        if 0 < len(left) < players_per_table and len(groups) == len(made):
            waited = (now - left[0].free_since).total_seconds() if left[0].free_since else 0.0
            if waited >= settings.ARENA_BOT_WAIT:
                seats = arena_core.with_bots([p.user_id for p in left], players_per_table, last, _rng)
                table = _try_open(arena, [by_id.get(u) for u in seats])
                if table is not None:
                    made.append(table)
        if made:
            announce(arena.pk)
    return made


def _try_open(arena: Arena, seated: list) -> ArenaTable | None:
    try:
        with transaction.atomic():  # one table's failure (a player busy elsewhere) leaves the rest
            return _open_table(arena, seated)
    except PlayError as exc:
        log.info("arena %s: a table could not be opened (%s)", arena.pk, exc.code)
        return None


def _open_table(arena: Arena, seated: list) -> ArenaTable:
    """A private room of rooms' own for ``seated`` (ArenaPlayer rows by seat,
    ``None`` for a bot; seat 1 is a person), its match started."""
    first = seated[0].user
    room = rooms_services.create_room(
        first,
        arena.game,
        arena.rules or {},
        is_private=True,
        arena_url=reverse("events:arena", args=[arena.pk]),
        move=True,  # from the table of his last arena match: one table at a time
    )
    for number, player in enumerate(seated[1:], start=2):
        if player is None:
            rooms_services.set_bot(room, first, number, True, BOT_LEVEL)
            continue
        rooms_services.sit(room, player.user, number, move=True)
        rooms_services.set_ready(room, player.user, True)
    table = ArenaTable.objects.create(
        arena=arena, room_id=room.pk, seats=[p.user_id if p is not None else None for p in seated]
    )
    match = rooms_services.start(room, first)
    table.match_id = match.pk
    table.save(update_fields=["match_id"])
    n = len(seated)
    url = room.get_absolute_url()
    told = []
    for i, player in enumerate(seated):
        if player is None:
            continue
        player.busy = True
        player.free_since = None
        if n == 4:  # a bot is nobody's last partner
            partner = seated[(i + 2) % 4]
            player.last_partner = partner.user_id if partner is not None else None
        player.save(update_fields=["busy", "free_since", "last_partner"])
        told.append((player.user_id, {"type": "friends.arena_seated", "arena": arena.name, "url": url}))
    # Wherever they are (the arena's page, the table of their last arena match, any
    # other page), their pages hear that the table is ready (friends/consumers.py).
    notify.on_commit_many(told)
    return table


def match_ended(sender, match, **kwargs) -> None:
    """games.signals.match_ended: an arena match scores once (E-3)."""
    table = ArenaTable.objects.filter(match_id=match.pk, scored=False).first()
    if table is None:
        return
    with transaction.atomic():
        if not ArenaTable.objects.filter(pk=table.pk, scored=False).update(scored=True):
            return  # scored already (a second delivery)
        record(table, match)
        announce(table.arena_id)
    # E-3: free players are seated as soon as a table's worth are free, not at
    # the next tick (up to EVENTS_TICK_SECONDS later): once this end has
    # committed, its players and those already waiting are seated now.
    transaction.on_commit(lambda: seat_now(table.arena_id))
    if match.status == Match.Status.FINISHED:
        for hook in RATED:
            try:
                hook(match)
            except Exception:  # noqa: BLE001 - a rating's failure never undoes the arena's score
                log.exception("arena rating hook failed for match %s", match.pk)


def seat_now(arena_id: int) -> list[ArenaTable]:
    """Seat the free players of a running arena now (after a match's end); the
    tick does the same every EVENTS_TICK_SECONDS and would catch a failure."""
    arena = Arena.objects.filter(pk=arena_id, status=Arena.Status.RUNNING).first()
    if arena is None:
        return []
    try:
        return seat_free(arena)
    except Exception:  # noqa: BLE001 - the match's end is committed; the next tick seats them
        log.exception("arena %s: seating after a match's end failed", arena_id)
        return []


def record(table: ArenaTable, match: Match) -> None:
    """The scores of one ended arena match (E-3), and its players free again."""
    game = engine.get(match.game)
    players = {
        p.user_id: p
        for p in ArenaPlayer.objects.select_for_update().filter(
            arena_id=table.arena_id, user_id__in=[u for u in table.seats if u is not None]
        )
    }
    winner = (match.result or {}).get("winner") if match.status == Match.Status.FINISHED else None
    now = clock()
    for seat, user_id in enumerate(table.seats, start=1):
        player = players.get(user_id) if user_id is not None else None
        if player is None:
            continue  # a bot's seat: not an entrant, never scored
        standing = arena_core.Standing(user_id, player.score, player.streak, player.played, player.withdrawn)
        if match.status == Match.Status.ABANDONED:
            if seat == match.leaver_seat:
                arena_core.withdraw(standing)
        else:
            arena_core.score_result(standing, winner == game.team_of(seat))
        player.score, player.streak, player.played = standing.score, standing.streak, standing.played
        player.withdrawn = standing.withdrawn
        player.busy = False
        player.free_since = now
        player.save(update_fields=["score", "streak", "played", "withdrawn", "busy", "free_since"])


def tick(now=None) -> None:
    """The ticker's arena step (idempotent): start, seat, stop seating, finish."""
    now = now or clock()
    for arena in Arena.objects.filter(status=Arena.Status.SCHEDULED, starts_at__lte=now):
        if Arena.objects.filter(pk=arena.pk, status=Arena.Status.SCHEDULED).update(
            status=Arena.Status.RUNNING
        ):
            announce(arena.pk)
    for arena in Arena.objects.filter(status=Arena.Status.RUNNING):
        if now >= ends_at(arena):
            if Arena.objects.filter(pk=arena.pk, status=Arena.Status.RUNNING).update(
                status=Arena.Status.CLOSING
            ):
                announce(arena.pk)
            continue
        seat_free(arena, now)
    for arena in Arena.objects.filter(status=Arena.Status.CLOSING):
        finish(arena)


def finish(arena: Arena) -> bool:
    """After the window: once every running match has finished and counted,
    the podium (gold, silver, bronze). Runs once (compare and swap)."""
    if ArenaTable.objects.filter(arena=arena, scored=False).exists():
        return False
    with transaction.atomic():
        arena = Arena.objects.select_for_update().get(pk=arena.pk)
        if arena.status != Arena.Status.CLOSING:
            return False
        rows = list(ArenaPlayer.objects.filter(arena=arena).order_by("-score", "played", "id"))
        ranked = [arena_core.Standing(p.user_id, p.score, p.streak, p.played) for p in rows]
        arena.podium = arena_core.podium(ranked) if ranked else []
        arena.status = Arena.Status.FINISHED
        arena.finished_at = timezone.now()
        arena.save(update_fields=["podium", "status", "finished_at"])
        announce(arena.pk)
    return True
