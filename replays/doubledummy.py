"""The double-dummy table of a finished bridge deal, from Bo Haglund's DDS
through the ``endplay`` package: how many tricks each declarer can take in
each strain when everyone sees every card. Shown only for a deal played to
its end, whose four hands are all public by then."""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)

STRAINS = ("C", "D", "H", "S", "NT")
SUITS = "SHDC"  # the order of a PBN hand: spades, hearts, diamonds, clubs


def pbn(hands: list[list[str]]) -> str:
    """'N:AKQ.JT9.876.5432 ...' from the hands of seats 1..4 (N E S W, B-1)."""
    parts = []
    for hand in hands:
        holding = {s: "" for s in SUITS}
        for rank in "AKQJT98765432":
            for card in hand:
                if card[0] == rank:
                    holding[card[1]] += rank
        parts.append(".".join(holding[s] for s in SUITS))
    return "N:" + " ".join(parts)


def table(hands: list[list[str]]) -> dict | None:
    """{"C": [tricks for N, E, S, W], ..., "NT": [...]} or None when the solver is missing."""
    try:
        from endplay.types import Deal, Denom, Player

        from games.bots.dds import HAVE_DDS, dd_table  # the process's one DDS lock (not thread-safe)
    except ImportError:  # the solver is an optional extra
        return None
    if not HAVE_DDS:
        return None
    if len(hands) != 4 or any(len(h) != 13 for h in hands):
        return None
    try:
        result = dd_table(Deal(pbn(hands)))
    except Exception:  # noqa: BLE001 - a solver failure must not stop the replay
        log.exception("double-dummy solver failed")
        return None
    denoms = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts, "S": Denom.spades, "NT": Denom.nt}
    players = (Player.north, Player.east, Player.south, Player.west)
    return {strain: [int(result[denoms[strain], p]) for p in players] for strain in STRAINS}
