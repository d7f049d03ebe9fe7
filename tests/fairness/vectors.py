"""The shared test vectors of deal-v1 (F-5): how vectors.json is made.

Run ``python -m tests.fairness.vectors`` to write the file again; the tests
check that the file matches this generator and that both implementations
(Python here, JavaScript in Chromium) reproduce every expected value.
Inputs are fixed (SHA-256 of labels), so the file never changes by itself.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from games import fairdeal
from games.engine.cards import DECK52, DECK54

PATH = Path(__file__).with_name("vectors.json")

DECKS = {50: list(DECK52[:50]), 52: list(DECK52), 54: list(DECK54)}
CASES = [
    # (seats, deck size, purpose, round, table)
    (4, 52, "deal", 1, "1"),
    (4, 52, "deal", 2, "1"),
    (4, 52, "draw", 1, "1"),
    (4, 54, "deal", 1, "77"),
    (4, 54, "deal", 13, "77"),
    (2, 52, "deal", 1, "9000"),
    (2, 52, "draw", 1, "9000"),
    (2, 54, "deal", 3, "table:x-1"),
    (2, 50, "deal", 1, "42"),
    (4, 50, "draw", 5, "42"),
    (3, 52, "deal", 100, "3p"),
    (1, 50, "deal", 1, "solo"),
]
# Large ranges exercise the rejection step (below 2**31 + 1 about half the draws are refused).
DRAWS = [(2**31 + 1, 40), (3, 40), (2**32, 8), (1, 4)]


def _hex(label: str) -> str:
    return hashlib.sha256(label.encode()).hexdigest()


def build() -> dict:
    cases = []
    for k, (seats, size, purpose, round_number, table) in enumerate(CASES):
        secret = _hex(f"server {k}")
        values = [_hex(f"seat {s} of case {k}") for s in range(1, seats + 1)]
        cases.append(
            {
                "seats": seats,
                "cards": DECKS[size],
                "purpose": purpose,
                "round": round_number,
                "table": table,
                "server_secret": secret,
                "server_commitment": fairdeal.commitment(secret),
                "values": values,
                "commitments": [fairdeal.commitment(v) for v in values],
                "substitutes": [
                    fairdeal.substitute(secret, table, round_number, s) for s in range(1, seats + 1)
                ],
                "stream_head": bytes(
                    next(s)
                    for s in [fairdeal.stream(secret, values, purpose, table, round_number)]
                    for _ in range(64)
                ).hex(),
                "deck": fairdeal.order(
                    DECKS[size], secret, values, purpose=purpose, table=table, round_number=round_number
                ),
            }
        )
    draws = []
    for k, (m, count) in enumerate(DRAWS):
        secret, values = _hex(f"draws {k}"), [_hex(f"draws value {k}")]
        source = fairdeal.stream(secret, values, "deal", "draws", 1)
        draws.append(
            {
                "server_secret": secret,
                "values": values,
                "purpose": "deal",
                "table": "draws",
                "round": 1,
                "m": m,
                "expected": [fairdeal.below(source, m) for _ in range(count)],
            }
        )
    return {"algorithm": fairdeal.ALGORITHM, "cases": cases, "draws": draws}


def dump(data: dict) -> str:
    """One case per line: small diffs, easy to read."""
    rows = lambda items: ",\n".join("  " + json.dumps(item) for item in items)  # noqa: E731
    return (
        f'{{"algorithm": {json.dumps(data["algorithm"])},\n'
        f' "cases": [\n{rows(data["cases"])}\n ],\n'
        f' "draws": [\n{rows(data["draws"])}\n ]}}\n'
    )


if __name__ == "__main__":
    PATH.write_text(dump(build()))
