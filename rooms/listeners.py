"""What rooms does when the play service announces something (games.signals).

The play service never reaches into rooms; these receivers, connected in
RoomsConfig.ready, keep the room's seats and status in step with its match.
They run inside the action's transaction, after the match row was locked:
the lock order is match, then room, then seats (games/services.py).
"""

from __future__ import annotations

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


def seats_swapped(sender, match: Match, a: int, b: int, **kwargs) -> None:
    """H4-X6: the engine moved two players; their room seats follow."""
    Room.objects.select_for_update().filter(pk=match.room_id).values_list("pk").first()
    seats = {
        s.number: s for s in Seat.objects.select_for_update().filter(room_id=match.room_id, number__in=[a, b])
    }
    sa, sb = seats[a], seats[b]
    ua, ub, ba, bb = sa.user_id, sb.user_id, sa.is_bot, sb.is_bot
    # Two steps, for the one-seat-per-user constraint.
    Seat.objects.filter(pk__in=[sa.pk, sb.pk]).update(user=None)
    Seat.objects.filter(pk=sa.pk).update(user_id=ub, is_bot=bb)
    Seat.objects.filter(pk=sb.pk).update(user_id=ua, is_bot=ba)
