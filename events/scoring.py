"""Scoring against the field (E-1): pure functions over a table of results.

``field`` is ``{deal number: {entrant: value}}``: each entrant's side's result
of each deal he played (higher is better). An entrant who did not play a
deal is not in that deal's field.
"""

from __future__ import annotations

IMP_TABLE = [20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900,
             1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000]  # fmt: skip
"""The standard IMP scale: a difference below IMP_TABLE[0] is 0 IMPs, ... 4000 and more is 24."""


def imps(difference: int) -> int:
    """International match points for a score difference (signed)."""
    size = abs(difference)
    won = sum(1 for edge in IMP_TABLE if size >= edge)
    return won if difference >= 0 else -won


def matchpoints(deal: dict) -> dict:
    """Per entrant: 2 for each other entrant whose result he beat, 1 for each
    tie, and the top (2 x (n - 1)); a field of one gets no top."""
    out = {}
    for who, value in deal.items():
        points = 0
        for other, theirs in deal.items():
            if other == who:
                continue
            points += 2 if value > theirs else 1 if value == theirs else 0
        out[who] = points
    return out


def matchpoint_totals(field: dict) -> dict:
    """Per entrant: the percentage of the match points he could have won on
    the deals he played (a lone entrant of a deal scores 50% on it)."""
    got: dict = {}
    top: dict = {}
    for deal in field.values():
        n = len(deal)
        for who, points in matchpoints(deal).items():
            got[who] = got.get(who, 0) + (points if n > 1 else 1)
            top[who] = top.get(who, 0) + (2 * (n - 1) if n > 1 else 2)
    return {who: round(100.0 * got[who] / top[who], 2) if top[who] else 0.0 for who in got}


def butler(deal: dict) -> dict:
    """IMPs against the field's average on one deal (Butler; the entrant's
    own result is left out of the average he is measured against)."""
    out = {}
    for who, value in deal.items():
        others = [v for o, v in deal.items() if o != who]
        if not others:
            out[who] = 0
            continue
        average = sum(others) / len(others)
        out[who] = imps(round(value - average))
    return out


def imps_totals(field: dict) -> dict:
    totals: dict = {}
    for deal in field.values():
        for who, got in butler(deal).items():
            totals[who] = totals.get(who, 0) + got
    return totals
