"""The deck of a round, once every value is in (F-2, F-5)."""

from __future__ import annotations

from django.db import connection, transaction

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
    outer = connection.atomic_blocks[0] if connection.in_atomic_block else None
    held = match.__dict__.get(_HELD)
    # No savepoint (issue 39: two statements per call): nothing here is undone
    # alone; NotReady is raised after the block, so the caller's transaction
    # goes on.
    with transaction.atomic(savepoint=False):
        if held is not None and outer is not None and held[0] is outer and held[1].number == number:
            record = held[1]  # locked by this transaction's earlier call: the ace draw before the deal
        else:
            try:
                record = _locked(match.pk, number)
            except FairnessError:
                open_round(match, number)
                record = _locked(match.pk, number)
        ready = record.phase in READY_PHASES
        if ready:
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
    if not ready:
        raise NotReady(record)
    if outer is not None:
        match.__dict__[_HELD] = (outer, record)
    return {"type": kind, "deck": deck}


_HELD = "_fair_record_held"
"""``match.__dict__`` key: the record ``chance_action`` locked and wrote, with the
outermost atomic block it was locked in; the same transaction's next chance
action of that round (the deal after the ace draw) uses it without reading
it again (issue 39). Another transaction reads and locks it again."""
