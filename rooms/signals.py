"""What rooms announces; apps above it listen (rooms imports none of them).

- ``room_changed(room_id)``: after the commit of a room action that moved its
  seats or status (sit, stand, ready, bots, start, rematch, leave, close).
  Never sent for a move at the table. The lobby (playnow) marks itself
  stale on it (M-5).
"""

from django.dispatch import Signal

room_changed = Signal()
