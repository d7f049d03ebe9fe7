"""Seat arithmetic, in one place (C-2, B-1).

Seats are numbered 1..n in the order of play. In four-player games seats 1
and 3 are partners against 2 and 4; team 0 is {1, 3}, team 1 is {2, 4}. In
two-player games each seat is its own side: seat 1 is side 0, seat 2 side 1.
"""

from __future__ import annotations


def seats(n: int) -> list[int]:
    return list(range(1, n + 1))


def next_seat(seat: int, n: int, step: int = 1) -> int:
    """The seat that plays ``step`` turns after ``seat`` (wrapping)."""
    return (seat - 1 + step) % n + 1


def previous_seat(seat: int, n: int) -> int:
    return next_seat(seat, n, -1)


def in_order_from(seat: int, n: int) -> list[int]:
    """All seats in play order starting with ``seat``."""
    return [next_seat(seat, n, i) for i in range(n)]


def partner(seat: int, n: int = 4) -> int | None:
    """The partner across the table (four players); None with two players."""
    return next_seat(seat, n, 2) if n == 4 else None


def team_of(seat: int, n: int = 4) -> int:
    """The side of a seat: 0 or 1."""
    return (seat - 1) % 2


def team_seats(team: int, n: int = 4) -> list[int]:
    return [s for s in seats(n) if team_of(s, n) == team]


def clockwise_from(seat: int, n: int) -> list[int]:
    """Seats clockwise starting with ``seat``: the ace draw's order (H4-1, D-1)."""
    return [next_seat(seat, n, -i) for i in range(n)]
