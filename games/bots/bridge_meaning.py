"""What a call means in the bots' bridge system (issue 38): the reading of ``bridge.choose_call``.

``meaning(calls, index)`` reads the ``index``-th call of an auction (``calls``:
``[{"seat", "call"}]`` in order, as in a view) from the calls before it, the
way the bots' system (``bridge.py``) makes it, and returns
``(code, args)``: a code of ``CODES`` and small arguments (points, lengths,
a suit letter). The words are the caller's (translated); the bots read the
people's calls with the same meanings (``bridge._constraints``). Pure.
"""

from __future__ import annotations

from games.engine.seats import partner, team_of

CODES = (
    "pass",  # nothing to say
    "open_pass",  # a pass in the opening seat: fewer than 12 points, no preempt
    "nt",  # {lo, hi}: balanced, points
    "strong_2c",  # 22+ points, artificial, forcing
    "suit",  # {lo, hi, n, suit}: points and length in a suit
    "weak",  # {lo, hi, n, suit}: a weak two or a preempt
    "takeout",  # a takeout double: 12+, short in their suit
    "advance",  # {n, suit, lo}: answer to partner's takeout double
    "stayman",  # 2C over 1NT: 8+ and a four-card major
    "stayman_no",  # 2D: no four-card major
    "stayman_yes",  # {suit}: four cards in the major
    "signoff",  # {n, suit}: weak, to play
    "raise",  # {lo, hi, n, suit}: support for partner's suit
    "waiting",  # 2D over 2C: artificial
    "blackwood",  # 4NT: how many aces
    "aces",  # {aces}: the answer to Blackwood ("0 or 4" for 5C)
    "game",  # the contract, placed: to play
    "penalty",  # a double for penalties
    "redouble",  # we will make it
    "natural",  # {n, suit}: a natural bid
)


def _args(lo=None, hi=None, n=None, suit=None, **more) -> dict:
    out = {k: v for k, v in (("lo", lo), ("hi", hi), ("n", n), ("suit", suit)) if v is not None}
    out.update(more)
    return out


def meaning(calls: list[dict], index: int) -> tuple[str, dict]:
    """``(code, args)`` of ``calls[index]`` in the bots' system."""
    this = calls[index]
    seat, call = this["seat"], this["call"]
    before = calls[:index]
    mate = partner(seat, 4)
    mine = [c["call"] for c in before if c["seat"] == seat]
    partner_calls = [c["call"] for c in before if c["seat"] == mate]
    ours = [c["call"] for c in before if c["seat"] == mate and c["call"][0].isdigit()]
    theirs = [
        c["call"] for c in before if team_of(c["seat"], 4) != team_of(seat, 4) and c["call"][0].isdigit()
    ]
    level = int(call[0]) if call[0].isdigit() else 0
    strain = call[1:] if level else ""
    if call == "XX":
        return "redouble", {}
    if not mine and not ours and not theirs:
        return _opening(call, level, strain)
    if not mine and not ours and theirs:
        if "X" in partner_calls:
            if call == "P":
                return "pass", {}
            jump = level > int(theirs[-1][0]) + (0 if strain > theirs[-1][1:] else 1)
            return "advance", _args(n=4, suit=strain, lo=10 if jump else 0, hi=None if jump else 9)
        if call == "X":
            return ("takeout", {}) if len(theirs) == 1 else ("penalty", {})
        if call == "1NT":
            return "nt", _args(15, 18)
        if level and strain in "SHDC":
            return "suit", _args(8 if level == 1 else 11, 16, 5, strain)
        return "pass", {}
    if call == "X":
        return "penalty", {}
    if call == "P":
        return "pass", {}
    if ours and not [m for m in mine if m[0].isdigit() or m == "X"]:
        return _response(call, level, strain, ours[0])
    return _rebid(call, level, strain, mine, partner_calls)


def _opening(call, level, strain):
    if call == "P":
        return "open_pass", _args(0, 11)
    if call == "X":
        return "penalty", {}
    if call == "1NT":
        return "nt", _args(15, 17)
    if call == "2NT":
        return "nt", _args(20, 21)
    if call == "2C":
        return "strong_2c", _args(22)
    if level == 1:
        return "suit", _args(12, 21, 5 if strain in "SH" else 3, strain)
    if level == 2 and strain in "SHD":
        return "weak", _args(6, 10, 6, strain)
    if level == 3 and strain in "SHDC":
        return "weak", _args(5, 10, 7, strain)
    return "game", {}


def _response(call, level, strain, opening):
    if call == "4NT" and opening not in ("1NT", "2NT"):
        return "blackwood", {}
    if opening == "1NT":
        if call == "2C":
            return "stayman", _args(8, n=4)
        if call in ("2H", "2S"):
            return "signoff", _args(0, 7, 5, strain)
        if call in ("4H", "4S"):
            return "suit", _args(10, None, 6, strain)
        if call == "2NT":
            return "nt", _args(8, 9)
        if call == "3NT":
            return "nt", _args(10, 15)
        if call == "6NT":
            return "nt", _args(16, 19)
        if call == "7NT":
            return "nt", _args(20)
        return ("natural", _args(n=5, suit=strain)) if strain in "SHDC" else ("game", {})
    if opening == "2NT":
        if call == "3NT":
            return "nt", _args(5)
        return ("natural", _args(n=5, suit=strain)) if strain in "SHDC" else ("game", {})
    if opening == "2C":
        if call == "2D":
            return "waiting", _args(0, 7)
        return ("suit", _args(8, None, 4, strain)) if strain in "SHDC" else ("nt", _args(8))
    o_level, o_strain = int(opening[0]), opening[1:]
    if o_level >= 2:
        return (
            ("raise", _args(16, None, 3, o_strain)) if strain == o_strain or call == "3NT" else ("game", {})
        )
    if strain == o_strain and strain in "SH":
        lo, hi = {2: (6, 9), 3: (10, 12), 4: (13, None)}.get(level, (6, None))
        return "raise", _args(lo, hi, 4, strain)
    if strain == o_strain:
        return "raise", _args(6, 9, 5, strain)
    if strain == "NT":
        lo, hi = {1: (6, 10), 2: (11, 12), 3: (13, 15)}.get(level, (6, None))
        return "nt", _args(lo, hi)
    if level == 1:
        return "suit", _args(6, None, 4, strain)
    return "suit", _args(10, None, 5, strain)


def _rebid(call, level, strain, mine, partner_calls):
    if call == "4NT":
        return "blackwood", {}
    if partner_calls and partner_calls[-1] == "4NT" and mine and mine[-1] != "4NT" and level == 5:
        return "aces", {"aces": {"C": "0/4", "D": "1", "H": "2", "S": "3"}.get(strain, "?")}
    my_bids = [m for m in mine if m[0].isdigit()]
    if my_bids and my_bids[0] == "1NT" and partner_calls and partner_calls[-1] == "2C":
        return ("stayman_no", {}) if call == "2D" else ("stayman_yes", _args(n=4, suit=strain))
    if level >= 3 and (strain == "NT" or level >= 4):
        return "game", {}
    if strain in "SHDC":
        return "natural", _args(n=6 if strain in [m[1:] for m in my_bids] else 4, suit=strain)
    return "nt", _args(12, 14)
