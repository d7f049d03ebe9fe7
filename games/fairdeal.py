"""The deal nobody controls: the shuffle algorithm ``deal-v1`` (F-1..F-6).

Pure: no Django, no I/O, no ``random``. The browser has the same algorithm
in ``static/js/fairdeal.js``; ``tests/fairness/vectors.json`` holds the
shared test vectors and ``docs/fairness.md`` the exact definition:

- every input value (the server's secret, each seat's value) is 32 bytes,
  written as exactly 64 lowercase hex digits; anything else is refused;
- a commitment is the lowercase hex SHA-256 of the value's 32 raw bytes;
- key = server secret bytes || seat 1 value bytes || ... || seat n value bytes;
- block i = HMAC-SHA256(key, "deal-v1|<purpose>|<table>|<round>|" || uint32be(i)),
  i = 0, 1, 2, ...; the stream is block 0 || block 1 || ...;
- a draw below m takes the next 4 stream bytes as a big-endian uint32 x,
  rejects x >= 2**32 - (2**32 mod m) and returns x mod m otherwise;
- Fisher-Yates: for i = len - 1 down to 1, j = draw below i + 1, swap d[i], d[j].

The purpose is ``"deal"`` or ``"draw"``: the ace draw has its own stream (F-6).
A seat that never answered gets the substitute value
HMAC-SHA256(server secret, "deal-v1|substitute|<table>|<round>|<seat>"),
fixed as soon as the server's secret is committed (F-4).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterator, Sequence

ALGORITHM = "deal-v1"
PURPOSES = ("deal", "draw")
VALUE_BYTES = 32
VALUE_HEX = 2 * VALUE_BYTES

_HEX = re.compile(f"[0-9a-f]{{{VALUE_HEX}}}")
_TABLE = re.compile(r"[0-9A-Za-z_.:-]{1,64}")
_U32 = 1 << 32


class FairnessError(ValueError):
    """A refused input, with a code a client can read (like IllegalAction)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def check_value(value, what: str = "value") -> bytes:
    """The 32 raw bytes of ``value`` (64 lowercase hex digits), else FairnessError."""
    if not isinstance(value, str) or not _HEX.fullmatch(value):
        raise FairnessError(
            "bad_value", f"The {what} must be exactly {VALUE_HEX} lowercase hexadecimal digits."
        )
    return bytes.fromhex(value)


def commitment(value: str) -> str:
    """The SHA-256 fingerprint (lowercase hex) of a value's raw bytes (F-1)."""
    return hashlib.sha256(check_value(value)).hexdigest()


def check_commitment(value) -> str:
    """A commitment is itself 64 lowercase hex digits."""
    check_value(value, "commitment")
    return value


def _check_context(purpose: str, table: str, round_number: int) -> None:
    if purpose not in PURPOSES:
        raise FairnessError("bad_purpose", f"The purpose must be one of {', '.join(PURPOSES)}.")
    if not isinstance(table, str) or not _TABLE.fullmatch(table):
        raise FairnessError("bad_table", "The table must be 1 to 64 of the characters 0-9 A-Z a-z _ . : -.")
    if type(round_number) is not int or round_number < 1:
        raise FairnessError("bad_round", "The round number must be a whole number of at least 1.")


def _prefix(purpose: str, table: str, round_number: int) -> bytes:
    return f"{ALGORITHM}|{purpose}|{table}|{round_number}|".encode("ascii")


def stream(
    server_secret: str, values: Sequence[str], purpose: str, table: str, round_number: int
) -> Iterator[int]:
    """The byte stream of one (purpose, table, round): HMAC-SHA256 counter blocks."""
    _check_context(purpose, table, round_number)
    if not values:
        raise FairnessError("bad_value", "At least one seat's value is needed.")
    key = check_value(server_secret, "server secret") + b"".join(
        check_value(v, f"value of seat {i}") for i, v in enumerate(values, start=1)
    )
    prefix = _prefix(purpose, table, round_number)
    counter = 0
    while True:
        if counter >= _U32:  # pragma: no cover - 2**32 blocks of 32 bytes
            raise FairnessError("stream_exhausted", "The stream ran out.")
        yield from hmac.new(key, prefix + counter.to_bytes(4, "big"), hashlib.sha256).digest()
        counter += 1


def below(source: Iterator[int], m: int) -> int:
    """A uniform integer in [0, m) from ``source``, by rejection (no modulo bias)."""
    if not 1 <= m <= _U32:
        raise FairnessError("bad_range", "A draw must be below a number from 1 to 2**32.")
    limit = _U32 - (_U32 % m)
    while True:
        x = int.from_bytes(bytes(next(source) for _ in range(4)), "big")
        if x < limit:
            return x % m


def shuffle(cards: Sequence[str], source: Iterator[int]) -> list[str]:
    """Fisher-Yates (Durstenfeld): a new list, ``cards`` untouched."""
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        j = below(source, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def order(
    cards: Sequence[str],
    server_secret: str,
    values: Sequence[str],
    *,
    purpose: str,
    table: str,
    round_number: int,
) -> list[str]:
    """The deck of one round (purpose ``deal``) or of the ace draw (``draw``).

    ``values`` are every seat's value in seat order (seat 1 first), the
    substitutes already in place.
    """
    return shuffle(cards, stream(server_secret, values, purpose, table, round_number))


def substitute(server_secret: str, table: str, round_number: int, seat: int) -> str:
    """The value of a seat that did not answer in time (F-4), fixed by the server's secret."""
    _check_context("deal", table, round_number)
    if type(seat) is not int or seat < 1:
        raise FairnessError("bad_seat", "A seat is a whole number of at least 1.")
    message = f"{ALGORITHM}|substitute|{table}|{round_number}|{seat}".encode("ascii")
    return hmac.new(check_value(server_secret, "server secret"), message, hashlib.sha256).hexdigest()


__all__ = [
    "ALGORITHM",
    "PURPOSES",
    "VALUE_HEX",
    "FairnessError",
    "below",
    "check_commitment",
    "check_value",
    "commitment",
    "order",
    "shuffle",
    "stream",
    "substitute",
]
