"""What the play service announces; other apps listen (games imports none of them).

Inside the transaction of the action (a receiver that raises rolls the whole
action back, so what it writes commits together with the move):

- ``match_ended(match)``: the match is over (status FINISHED, or ABANDONED
  after a confirmed leave, L-3). The ledger records it; rooms frees the room.

After the transaction committed (never inside it):

- ``version_committed(frames)``: one accepted version, with the frames built
  for it inside the transaction (``games.frames.Frames``); rooms sends each
  viewer class its own. A receiver's failure is logged and never stops the
  deadline from being armed. Rooms also follows two events of it: a
  ``swap_seats`` (H4-X6: its seats follow the match's players) and a
  ``tea_poured`` (H4-X4: the room's story moves on to the next chapter).
  games never uses what a receiver returns.
- ``fair_changed(record)``: a round's fair deal record (``games.models.DealRecord``)
  was opened or moved on (a fingerprint, a value, a substitution; F-1..F-4);
  rooms sends its public state (``games.fairness.public_state``: never a
  value, never the server's secret) to everyone at the table.
"""

from django.dispatch import Signal

match_ended = Signal()
version_committed = Signal()
fair_changed = Signal()
