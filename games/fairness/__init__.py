"""The deal nobody controls, on the server (F-1..F-6, docs/fairness.md).

The play service and the table's socket call these; the algorithm itself is
``games.fairdeal`` (pure). One ``DealRecord`` per round:

    open_round(match, number)        server secret made, its SHA-256 public; bots' values made
    commit(match_id, number, seat, c) a seat's fingerprint; the last one opens the reveal
    reveal(match_id, number, seat, v) a seat's value, checked against its fingerprint
    substitute_missing(...)           after the wait: every seat still silent gets its substitute
    chance_action(match, number, kind, cards)   the deck, once every value is in
    public_record(round)              everything a browser needs to re-check, after the round only

A seat's answer is written back only if the record is still what it read
(compare and swap, one statement); the clock's substitution and the deal
lock the record row (``select_for_update``). Either way a reveal and the
clock's substitution for the same seat cannot both win.

The package: ``records`` (the record's life), ``loop`` (answers on the
event loop), ``deck`` (the deck), ``view`` (what browsers may see).
"""

from ..fairdeal import FairnessError
from .deck import chance_action
from .loop import Answer, _answering, _writers, answer_on_loop
from .records import (
    DEFAULT_WAIT_SECONDS,
    NotReady,
    _read,
    announce_now,
    commit,
    due,
    new_record,
    open_round,
    reveal,
    substitute_missing,
    table_nonce,
    wait_seconds,
)
from .view import (
    public_record,
    public_record_of,
    public_record_on_loop,
    public_state,
    round_ended,
    value_seat,
)

__all__ = [
    "DEFAULT_WAIT_SECONDS",
    "FairnessError",
    "Answer",
    "NotReady",
    "_answering",
    "_read",
    "_writers",
    "announce_now",
    "answer_on_loop",
    "chance_action",
    "commit",
    "due",
    "new_record",
    "open_round",
    "public_record",
    "public_record_of",
    "public_record_on_loop",
    "public_state",
    "reveal",
    "round_ended",
    "substitute_missing",
    "table_nonce",
    "value_seat",
    "wait_seconds",
]
