"""deal-v1 in Python (F-5, F-6): the definition, the shared vectors, the refusals, no bias."""

from __future__ import annotations

import ast
import hashlib
import hmac
import json
from collections import Counter
from pathlib import Path

import pytest

from games import fairdeal
from games.engine.cards import DECK52
from games.fairdeal import FairnessError

from . import vectors

SECRET = "ab" * 32
VALUES = ["01" * 32, "fe" * 32, "00" * 32, "ff" * 32]


def test_f5_vectors_file_is_what_the_generator_makes():
    assert vectors.PATH.read_text() == vectors.dump(vectors.build())


@pytest.mark.parametrize(
    "case",
    json.loads(vectors.PATH.read_text())["cases"],
    ids=lambda c: f"{c['seats']}x{len(c['cards'])}-{c['purpose']}-r{c['round']}",
)
def test_f5_python_reproduces_every_vector(case):
    deck = fairdeal.order(
        case["cards"],
        case["server_secret"],
        case["values"],
        purpose=case["purpose"],
        table=case["table"],
        round_number=case["round"],
    )
    assert deck == case["deck"]
    assert sorted(deck) == sorted(case["cards"])
    assert [fairdeal.commitment(v) for v in case["values"]] == case["commitments"]
    assert fairdeal.commitment(case["server_secret"]) == case["server_commitment"]


def test_f5_stream_is_hmac_sha256_counter_blocks_as_documented():
    # Written from docs/fairness.md, not from the module: key = secret || values, message = prefix || uint32be(i).
    key = bytes.fromhex(SECRET) + b"".join(bytes.fromhex(v) for v in VALUES)
    expected = b"".join(
        hmac.new(key, b"deal-v1|deal|55|3|" + i.to_bytes(4, "big"), hashlib.sha256).digest() for i in range(3)
    )
    source = fairdeal.stream(SECRET, VALUES, "deal", "55", 3)
    assert bytes(next(source) for _ in range(96)) == expected


def test_f5_commitment_is_sha256_of_the_raw_bytes():
    assert fairdeal.commitment("00" * 32) == hashlib.sha256(bytes(32)).hexdigest()


def test_f4_substitute_is_hmac_of_the_server_secret_and_seat():
    expected = hmac.new(bytes.fromhex(SECRET), b"deal-v1|substitute|55|3|2", hashlib.sha256).hexdigest()
    assert fairdeal.substitute(SECRET, "55", 3, 2) == expected
    assert fairdeal.substitute(SECRET, "55", 3, 1) != expected
    assert fairdeal.substitute(SECRET, "55", 4, 2) != expected


def test_f6_draw_and_deal_are_separate_streams_and_rounds_differ():
    kw = {"table": "7"}
    deal1 = fairdeal.order(DECK52, SECRET, VALUES, purpose="deal", round_number=1, **kw)
    draw1 = fairdeal.order(DECK52, SECRET, VALUES, purpose="draw", round_number=1, **kw)
    deal2 = fairdeal.order(DECK52, SECRET, VALUES, purpose="deal", round_number=2, **kw)
    other_table = fairdeal.order(DECK52, SECRET, VALUES, purpose="deal", round_number=1, table="8")
    assert len({tuple(deal1), tuple(draw1), tuple(deal2), tuple(other_table)}) == 4


def test_f2_every_value_changes_the_deck():
    base = fairdeal.order(DECK52, SECRET, VALUES, purpose="deal", table="1", round_number=1)
    for seat in range(4):
        changed = list(VALUES)
        changed[seat] = "33" * 32
        assert fairdeal.order(DECK52, SECRET, changed, purpose="deal", table="1", round_number=1) != base
    assert fairdeal.order(DECK52, "cd" * 32, VALUES, purpose="deal", table="1", round_number=1) != base


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "ab" * 31,
        "ab" * 33,
        "AB" * 32,
        "zz" * 32,
        " " + "ab" * 31 + "a",
        12,
        None,
        b"ab" * 32,
        "0x" + "ab" * 31,
        "ab" * 32 + "\n",
    ],
)
def test_f1_values_of_the_wrong_form_are_refused(bad):
    with pytest.raises(FairnessError) as exc:
        fairdeal.order(DECK52, SECRET, [VALUES[0], bad], purpose="deal", table="1", round_number=1)
    assert exc.value.code == "bad_value"
    assert "64 lowercase hexadecimal" in exc.value.message
    with pytest.raises(FairnessError):
        fairdeal.commitment(bad)


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"purpose": "bid", "table": "1", "round_number": 1}, "bad_purpose"),
        ({"purpose": "deal", "table": "a|b", "round_number": 1}, "bad_table"),
        ({"purpose": "deal", "table": "", "round_number": 1}, "bad_table"),
        ({"purpose": "deal", "table": "1", "round_number": 0}, "bad_round"),
        ({"purpose": "deal", "table": "1", "round_number": True}, "bad_round"),
    ],
)
def test_context_of_the_wrong_form_is_refused(kwargs, code):
    with pytest.raises(FairnessError) as exc:
        fairdeal.order(DECK52, SECRET, VALUES, **kwargs)
    assert exc.value.code == code


def test_below_rejects_rather_than_folds():
    # Range 2**31 + 1: the limit is 2**31 + 1, so any x above it is refused, never taken modulo m.
    source = iter((2**32 - 1).to_bytes(4, "big") + (2**31 + 1).to_bytes(4, "big") + (5).to_bytes(4, "big"))
    assert fairdeal.below(source, 2**31 + 1) == 5


def _chi_square(counts: list[int], expected: float) -> float:
    return sum((c - expected) ** 2 / expected for c in counts)


def test_f5_shuffle_is_unbiased_every_card_every_position():
    """F-5: a 5-card deck over 12 000 seeds: each (card, position) cell near 1/5.

    The 25 cells have 16 degrees of freedom (rows and columns are fixed);
    chi-square above 39.25 has probability 0.001 under a fair shuffle. A
    modulo-biased or off-by-one Fisher-Yates fails by far (checked below).
    """
    cards = ["A", "B", "C", "D", "E"]
    runs = 12_000
    counts = Counter()
    perms = Counter()
    for seed in range(runs):
        value = hashlib.sha256(f"seed {seed}".encode()).hexdigest()
        deck = fairdeal.order(cards, SECRET, [value], purpose="deal", table="stat", round_number=1)
        perms[tuple(deck)] += 1
        for position, card in enumerate(deck):
            counts[card, position] += 1
    cells = [counts[c, p] for c in cards for p in range(5)]
    assert _chi_square(cells, runs / 5) < 39.25
    # All 120 orders appear, none far from 100 (119 degrees of freedom: 0.001 at 173.6).
    assert len(perms) == 120
    assert _chi_square(list(perms.values()), runs / 120) < 173.6


def test_the_chi_square_bound_catches_a_biased_shuffle():
    """The statistic above can fail: the naive "swap with any position" shuffle is biased."""
    cards = ["A", "B", "C", "D", "E"]
    runs = 12_000
    perms = Counter()
    for seed in range(runs):
        source = fairdeal.stream(
            SECRET, [hashlib.sha256(f"seed {seed}".encode()).hexdigest()], "deal", "x", 1
        )
        deck = list(cards)
        for i in range(len(deck)):
            j = fairdeal.below(source, len(deck))
            deck[i], deck[j] = deck[j], deck[i]
        perms[tuple(deck)] += 1
    assert _chi_square([perms[p] for p in perms] + [0] * (120 - len(perms)), runs / 120) > 173.6


def test_fairdeal_is_pure():
    """No Django, no I/O, no `random` (like the engine)."""
    tree = ast.parse(Path(fairdeal.__file__).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported <= {"__future__", "hashlib", "hmac", "re", "collections"}


# --- the shared vectors, read without the module (F-5) ------------------------------------


def _docs_deck(cards, secret, values, purpose, table, round_number):
    """deal-v1 written again from docs/fairness.md alone (no games.fairdeal): the
    vectors must not merely be what the module happens to compute."""
    key = bytes.fromhex(secret) + b"".join(bytes.fromhex(v) for v in values)
    prefix = f"deal-v1|{purpose}|{table}|{round_number}|".encode("ascii")
    buffer, counter = b"", 0

    def uint32():
        nonlocal buffer, counter
        while len(buffer) < 4:
            buffer += hmac.new(key, prefix + counter.to_bytes(4, "big"), hashlib.sha256).digest()
            counter += 1
        x, buffer = int.from_bytes(buffer[:4], "big"), buffer[4:]
        return x

    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        m = i + 1
        limit = 2**32 - (2**32 % m)
        while (x := uint32()) >= limit:
            pass
        j = x % m
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize(
    "case",
    json.loads(vectors.PATH.read_text())["cases"],
    ids=lambda c: f"{c['seats']}x{len(c['cards'])}-{c['purpose']}-r{c['round']}",
)
def test_f5_the_documented_algorithm_read_independently_gives_every_vector(case):
    deck = _docs_deck(
        case["cards"], case["server_secret"], case["values"], case["purpose"], case["table"], case["round"]
    )
    assert deck == case["deck"]
    key = bytes.fromhex(case["server_secret"])
    for seat, expected in enumerate(case["substitutes"], start=1):
        message = f"deal-v1|substitute|{case['table']}|{case['round']}|{seat}".encode()
        assert hmac.new(key, message, hashlib.sha256).hexdigest() == expected  # F-4
    source = fairdeal.stream(
        case["server_secret"], case["values"], case["purpose"], case["table"], case["round"]
    )
    assert bytes(next(source) for _ in range(64)).hex() == case["stream_head"]
    assert [
        fairdeal.substitute(case["server_secret"], case["table"], case["round"], s)
        for s in range(1, case["seats"] + 1)
    ] == case["substitutes"]


def test_f5_python_reproduces_the_draw_vectors_and_they_catch_modulo_folding():
    """The ``draws`` vectors pin the rejection step: folding ``x mod m`` without
    rejecting (the modulo-biased draw) gives other numbers for m = 2**31 + 1."""
    data = json.loads(vectors.PATH.read_text())
    folded_differs = False
    for d in data["draws"]:
        source = fairdeal.stream(d["server_secret"], d["values"], d["purpose"], d["table"], d["round"])
        assert [fairdeal.below(source, d["m"]) for _ in d["expected"]] == d["expected"]
        raw = fairdeal.stream(d["server_secret"], d["values"], d["purpose"], d["table"], d["round"])
        folded = [int.from_bytes(bytes(next(raw) for _ in range(4)), "big") % d["m"] for _ in d["expected"]]
        folded_differs |= folded != d["expected"]
    assert folded_differs
    assert {c["seats"] for c in data["cases"]} >= {2, 4} and {len(c["cards"]) for c in data["cases"]} == {
        50,
        52,
        54,
    }
