"""Moderation: voiding a match takes its entries out of every count."""

from __future__ import annotations

from django.db import transaction

from games.models import Match
from infra.cache import touch_on_commit

from .models import LedgerEntry, MatchVoid


def void_match(match: Match | int, by, reason: str) -> tuple[MatchVoid, bool]:
    """Void ``match`` (who, why; when is recorded). Returns (void, created); voiding twice keeps the first."""
    match_id = match.pk if isinstance(match, Match) else match
    with transaction.atomic():
        # The match row lock orders this against the ledger writer.
        Match.objects.select_for_update().filter(pk=match_id).first()
        void, created = MatchVoid.objects.get_or_create(
            match_id=match_id, defaults={"voided_by": by, "reason": reason}
        )
        LedgerEntry.objects.filter(match_id=match_id).update(voided=True)
        touch_on_commit("ledger")
    return void, created


def record_void(void: MatchVoid) -> MatchVoid:
    """Save a new ``MatchVoid`` built elsewhere (the admin's add form) and mark its entries."""
    with transaction.atomic():
        Match.objects.select_for_update().filter(pk=void.match_id).first()
        void.save()
        LedgerEntry.objects.filter(match_id=void.match_id).update(voided=True)
        touch_on_commit("ledger")
    return void
