"""What rooms does when the play service announces something (games.signals).

The play service never reaches into rooms; these receivers, connected in
RoomsConfig.ready, keep the room's seats and status in step with its match.
``match_ended`` runs inside the action's transaction, after the match row
was locked: the lock order is match, then room, then seats
(docs/architecture.md). ``seats_follow`` runs after the commit, in a
transaction of its own.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.models import Match

from .models import Room, Seat


def match_ended(sender, match: Match, **kwargs) -> None:
    """A match that was played to its end frees the room for "play again"
    (R-3). A match ended by a leave (L-3) is handled by the leave itself."""
    if match.status != Match.Status.FINISHED:
        return
    Room.objects.filter(pk=match.room_id).update(status=Room.Status.FINISHED, updated_at=timezone.now())
    Seat.objects.filter(room_id=match.room_id).update(rematch=False, ready=False)


def seats_follow(sender, frames, **kwargs) -> None:
    """games.signals.version_committed, after the commit: the version moved two
    players (H4-X6, ``swap_seats``); the room's seats follow the match's
    players, in a transaction of the room's own (room row, then seats).
    Idempotent: the seats are set to what the match row says."""
    moved = {n for e in frames.events if e.get("type") == "swap_seats" for n in (e["a"], e["b"])}
    if not moved:
        return
    with transaction.atomic():
        Room.objects.select_for_update().filter(pk=frames.room_id).values_list("pk").first()
        players = Match.objects.filter(pk=frames.match_id).values_list("players", flat=True).first() or []
        by_seat = {p["seat"]: p for p in players if p["seat"] in moved}
        seats = list(Seat.objects.select_for_update().filter(room_id=frames.room_id, number__in=moved))
        # Two steps, for the one-seat-per-user constraint.
        Seat.objects.filter(pk__in=[s.pk for s in seats]).update(user=None)
        for seat in seats:
            p = by_seat.get(seat.number) or {}
            Seat.objects.filter(pk=seat.pk).update(user_id=p.get("user_id"), is_bot=bool(p.get("bot")))
