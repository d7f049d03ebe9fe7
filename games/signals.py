"""Signals other apps listen to (the ledger records a match's end)."""

from django.dispatch import Signal

# Sent inside the transaction that ends a match (finished or left, L-3), with
# `match` (status FINISHED or ABANDONED). A receiver that raises rolls the
# whole action back, so the ledger and the match end commit together.
match_ended = Signal()
