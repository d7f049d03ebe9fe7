"""A player who is gone (L-7): the clock's moves in a row, and the stand-in.

L-5: a disconnected player is not leaving; his turn clock runs and a legal
move is made for him when it runs out. L-7 (a decision of the rule book):
after two of his moves in a row were made by the clock while he was
disconnected, his turns get a short clock (``seconds()``, 5 s) and the move
made for him is the normal bot's choice, until he is connected again; his
tablemates see that a stand-in plays for him. Still no leave, no penalty.

``Match.gone`` keeps, per seat, how many of his moves in a row the clock
made while he was disconnected (seats at 0 are not kept). It changes only
under the match row's lock, with the version of the move it counts:

- the clock's move at a person's seat (``services.expire``) asks the
  presence store whether he is connected (``connected``): counted up when
  he is not, dropped when he is;
- his own move drops it (``acted``; the plain path leaves a counted seat to
  the locked path, ``transition.decide``);
- his socket coming back (``services.came_back``, from the table's
  greeting) drops it, and if the stand-in was playing, that is a version of
  its own: his full clock at once, the badge off for everyone.

Whether he is connected is read from the presence store (infra/presence.py),
the one the table's heartbeats write: a socket closed is gone at once, a
tab that died without closing after ``PRESENCE_TTL`` seconds.
"""

from __future__ import annotations

import logging

from django.conf import settings

from infra import presence

log = logging.getLogger(__name__)

AFTER = 2
"""The clock's moves in a row while disconnected after which the stand-in plays (L-7)."""

DEFAULT_SECONDS = 5.0
DEFAULT_LEVEL = "normal"


def seconds() -> float:
    """The stand-in's turn clock (L-7: 5 s), scaled like every turn (``TURN_SCALE``)."""
    table = settings.TABLE
    return float(table.get("STAND_IN_SECONDS", DEFAULT_SECONDS)) * float(table.get("TURN_SCALE", 1))


def level() -> str:
    """The bot level whose choice the stand-in plays (L-7: the normal bot)."""
    return str(settings.TABLE.get("STAND_IN_LEVEL", DEFAULT_LEVEL))


def counted(gone: dict | None, seat: int) -> int:
    """``seat``'s clock moves in a row while gone, from a match row's ``gone``."""
    return int((gone or {}).get(str(seat), 0))


def count(match, seat: int) -> int:
    return counted(match.gone, seat)


def active(match, seat: int) -> bool:
    """Whether the stand-in plays ``seat``'s turns (L-7)."""
    return count(match, seat) >= AFTER


def seats(match) -> list[int]:
    """The seats a stand-in plays for, for the state frames (every viewer: public knowledge)."""
    return sorted(int(s) for s, n in (match.gone or {}).items() if int(n) >= AFTER)


def _set(match, seat: int, n: int) -> None:
    gone = {k: v for k, v in (match.gone or {}).items() if k != str(seat)}
    if n > 0:
        gone[str(seat)] = n
    match.gone = gone


def clock_moved(match, seat: int, disconnected: bool) -> None:
    """The clock made ``seat``'s move: one more in the row while he was
    disconnected, else the row is broken (a connected player who let his
    clock run out is slow, not gone)."""
    _set(match, seat, min(count(match, seat) + 1, 999) if disconnected else 0)


def acted(match, seat: int) -> None:
    """He made a move himself: he is there."""
    if str(seat) in (match.gone or {}):
        _set(match, seat, 0)


def swapped(match, a: int, b: int) -> None:
    """H4-X6: the players of seats ``a`` and ``b`` changed seats; their rows follow them."""
    gone = match.gone or {}
    if str(a) not in gone and str(b) not in gone:
        return
    moved = {k: v for k, v in gone.items() if k not in (str(a), str(b))}
    if str(a) in gone:
        moved[str(b)] = gone[str(a)]
    if str(b) in gone:
        moved[str(a)] = gone[str(b)]
    match.gone = moved


def connected(match, seat: int) -> bool:
    """Whether the person at ``seat`` has a live connection to the match's
    table (a heartbeat within ``PRESENCE_TTL``; a socket that closed is gone
    at once). One read of the room's code and one of the presence store: on
    the clock's moves only, never on a person's. A store that cannot be read
    (Redis restarting) counts him connected: the clock's plain move (L-5)
    goes on from the database alone, and no stand-in starts on a guess."""
    player = match.player_at(seat) or {}
    user_id = player.get("user_id")
    if user_id is None or player.get("bot"):
        return True
    who = f"u:{user_id}"
    try:
        entries = presence.store().entries(match.room.code)
    except Exception:  # noqa: BLE001 - the presence store is down; the clock must not be
        log.warning("presence unreadable for match %s: seat %s counted connected", match.pk, seat)
        return True
    return any(entry_who == who for _t, entry_who, _seat in entries)
