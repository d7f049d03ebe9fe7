"""The deck of a round, once every value is in (F-2, F-5)."""

from __future__ import annotations

from django.db import transaction

from .. import fairdeal
from ..engine.cards import CARD_INDEX
from ..fairdeal import FairnessError
from ..models import DealRecord, Match
from .records import NotReady, _locked, open_round

READY_PHASES = (DealRecord.Phase.READY, DealRecord.Phase.DEALT)

# --- the deck ----------------------------------------------------------------------------


def chance_action(match: Match, number: int, kind: str, cards) -> dict:
    """The chance action ``{"type": kind, "deck": deck}`` of round ``number``.

    ``kind`` and ``cards`` are the engine's ``pending_chance(state)``. Raises
    NotReady while values are missing. The ace draw (``draw``) and the deal
    (``deal``) come from separate streams of the same values (F-6).
    Idempotent: the same round and kind always give the same deck. The
    record is made at the match's start or the previous round's end; if it
    is missing, it is made now (``open_round``).

    ``match.opened_record``, when the caller just made the record in this
    transaction (a table's start), answers a record still waiting for its
    values without reading it again (issue 39: a savepoint and three
    statements per start); it is used once.
    """
    opened = match.__dict__.pop("opened_record", None)
    if opened is not None and opened.number == number and opened.phase not in READY_PHASES:
        raise NotReady(opened)
    with transaction.atomic():
        try:
            record = _locked(match.pk, number)
        except FairnessError:
            open_round(match, number)
            record = _locked(match.pk, number)
        if record.phase not in (DealRecord.Phase.READY, DealRecord.Phase.DEALT):
            raise NotReady(record)
        deck = fairdeal.order(
            sorted(cards, key=CARD_INDEX.__getitem__),  # the canonical order (docs/fairness.md)
            record.server_secret,
            record.values,
            purpose=kind,
            table=record.table,
            round_number=record.number,
        )
        if kind == "draw":
            record.draw = deck
        else:
            record.deck = deck
            record.phase = DealRecord.Phase.DEALT
        record.save(update_fields=["draw", "deck", "phase", "updated_at"])
    return {"type": kind, "deck": deck}
