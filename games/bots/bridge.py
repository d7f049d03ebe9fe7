"""Bridge bot: a natural bidding system written as rules, card play by sampled double dummy.

Bidding (B-2), from the seat's own hand and the calls so far:
- openings: 1NT 15-17 balanced, 2NT 20-21 balanced, 2C with 22+, one of a
  suit with 12+ (a five-card major first, else the longer minor), weak twos
  (six cards, 6-10), three-level preempts (seven cards, 5-10);
- over the opponents' opening: a takeout double (12+, short in their suit),
  1NT (15-18 balanced), a natural overcall (five cards, 8-16);
- responses: to 1NT Stayman (2C with a four-card major and 8+), weak
  sign-offs, invitations and games; to one of a suit raises, new suits and
  notrump by points; to a takeout double the best unbid suit;
- later: the partnership's points and fit estimated from the calls decide
  the part score, game or slam; Blackwood 4NT (answers 5C 0/4, 5D 1, 5H 2,
  5S 3 aces) before a slam.

Card play: deals consistent with everything the seat saw (its hand, dummy,
every card played, voids) are sampled and solved double dummy by ``endplay``
(DDS) when it is installed; the card with the most tricks on average is
played. Without ``endplay`` the samples are played out by a simple policy.
"""

from __future__ import annotations

from games.engine.bridge import BID_INDEX, BIDS
from games.engine.cards import DECK52, SUITS
from games.engine.seats import partner, team_of

from .clock import Budget
from .rng import Rng

try:  # DDS through endplay: a maintained double-dummy solver, called through ``dds`` (one lock per process)
    from endplay.types import Deal, Denom, Player

    from .dds import HAVE_DDS, solve
except ImportError:  # pragma: no cover - without the optional solver
    HAVE_DDS = False

HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
ORDER = "SHDC"  # higher suits first


def hcp(hand) -> int:
    return sum(HCP.get(c[0], 0) for c in hand)


def lengths(hand) -> dict:
    out = dict.fromkeys(SUITS, 0)
    for c in hand:
        out[c[1]] += 1
    return out


def balanced(ln: dict) -> bool:
    shape = sorted(ln.values())
    return shape in ([3, 3, 3, 4], [2, 3, 4, 4], [2, 3, 3, 5])


def _legal_calls(view) -> set:
    return {a["call"] for a in view["legal"] if a["type"] == "call"}


def _bid(call: str, legal: set) -> str:
    return call if call in legal else "P"


def _cheapest(strain: str, legal: set, at_least: int = 1) -> str | None:
    for level in range(at_least, 8):
        call = f"{level}{strain}"
        if call in legal:
            return call
    return None


# ------------------------------------------------------------ the auction


def choose_call(view, seat, score_aware: bool = True) -> dict:
    """The seat's call. ``score_aware`` (the strong bot; not ``mc``, the arena's yardstick of before
    issue 38): the bids count the side's part-score below the line (B-5)."""
    legal = _legal_calls(view)
    hand = view["hand"]
    pts = hcp(hand)
    ln = lengths(hand)
    calls = view["calls"]
    mate = partner(seat, 4)
    mine = [c["call"] for c in calls if c["seat"] == seat]
    theirs = [c for c in calls if team_of(c["seat"], 4) != team_of(seat, 4) and c["call"][0].isdigit()]
    ours = [c for c in calls if c["seat"] == mate and c["call"][0].isdigit()]
    partner_calls = [c["call"] for c in calls if c["seat"] == mate]
    call = "P"
    if not mine and not ours and not theirs:
        call = _opening(pts, ln)
    elif not mine and not ours and theirs:
        if "X" in partner_calls:
            call = _advance_double(pts, ln, theirs, legal)
        else:
            call = _overcall(pts, ln, theirs, legal, len(theirs) == 1)
    elif ours and not [m for m in mine if m[0].isdigit() or m == "X"]:
        call = _respond(pts, ln, ours, theirs, legal, view)
        if score_aware:
            call = _respond_to_game(
                call, pts, ours, legal, _part_score(view, seat), _last_bid_ours(view, seat)
            )
    elif ours or mine:
        call = _rebid(pts, ln, mine, ours, partner_calls, legal, view, seat, score_aware)
    return {"type": "call", "call": _bid(call, legal)}


def _opening(pts, ln) -> str:
    bal = balanced(ln)
    if pts >= 22:
        return "2C"
    if 20 <= pts <= 21 and bal:
        return "2NT"
    if 15 <= pts <= 17 and bal:
        return "1NT"
    if pts >= 12:
        for s in ("S", "H"):
            if ln[s] >= 5 and ln[s] >= max(ln.values()) - 0:
                return "1" + s
        for s in ("S", "H"):
            if ln[s] >= 5:
                return "1" + s
        return "1D" if ln["D"] >= 4 and ln["D"] >= ln["C"] else "1C"
    for s in ("S", "H", "D"):
        if ln[s] == 6 and 6 <= pts <= 10:
            return "2" + s
    for s in ORDER:
        if ln[s] >= 7 and 5 <= pts <= 10:
            return "3" + s
    return "P"


def _overcall(pts, ln, theirs, legal, single) -> str:
    their_suit = theirs[-1]["call"][1:]
    if single and their_suit in SUITS and pts >= 12 and ln[their_suit] <= 2:
        if all(ln[s] >= 3 for s in SUITS if s != their_suit) or pts >= 17:
            return "X"  # takeout
    if single and 15 <= pts <= 18 and balanced(ln) and "1NT" in legal:
        return "1NT"
    best = max((s for s in ORDER if s != their_suit), key=lambda s: ln[s])
    if ln[best] >= 5 and 8 <= pts <= 16:
        call = _cheapest(best, legal)
        if call and (call[0] == "1" or pts >= 11):
            return call
    return "P"


def _advance_double(pts, ln, theirs, legal) -> str:
    their_suit = theirs[-1]["call"][1:]
    best = max((s for s in ORDER if s != their_suit), key=lambda s: (ln[s], s in "SH"))
    call = _cheapest(best, legal)
    if call is None:
        return "P"
    if pts >= 10 and ln[best] >= 4:
        jump = f"{int(call[0]) + 1}{best}"
        if jump in legal:
            return jump
    return call


def _respond(pts, ln, ours, theirs, legal, view) -> str:
    opening = ours[0]["call"]
    level, strain = int(opening[0]), opening[1:]
    if opening == "1NT":
        if pts >= 8 and (ln["H"] == 4 or ln["S"] == 4) and "2C" in legal:
            return "2C"  # Stayman
        for s in ("S", "H"):
            if ln[s] >= 6 and pts >= 10:
                return "4" + s
            if ln[s] >= 5 and pts <= 7:
                return "2" + s
        if pts >= 16:
            return "6NT" if pts <= 19 else "7NT"
        if pts >= 10:
            return "3NT"
        if pts >= 8:
            return "2NT"
        return "P"
    if opening == "2NT":
        return "3NT" if pts >= 5 else "P"
    if opening == "2C":
        return "2D" if pts < 8 else _cheapest(max(ORDER, key=lambda s: ln[s]), legal) or "2D"
    if level >= 2:  # a weak two or a preempt: game with support and values
        if strain in SUITS and ln[strain] >= 3 and pts >= 16:
            return ("4" + strain) if strain in "SH" else "3NT"
        return "P"
    if pts < 6:
        return "P"
    if strain in ("S", "H") and ln[strain] >= 4:  # raises of a major
        if pts >= 13:
            return "4" + strain
        if pts >= 10:
            return "3" + strain
        return _cheapest(strain, legal) or "P"
    for s in reversed(ORDER):  # new suits up the line at the one level
        if s != strain and ln[s] >= 4 and f"1{s}" in legal and (s in "SH" or pts >= 10):
            return f"1{s}"
    best = max((s for s in ORDER if s != strain), key=lambda s: ln[s])
    if pts >= 10 and ln[best] >= 5:
        call = _cheapest(best, legal)
        if call and call[0] == "2":
            return call
    if strain in ("D", "C") and ln[strain] >= 5 and pts <= 9:
        return _cheapest(strain, legal) or "P"
    if pts >= 13 and balanced(ln):
        return "3NT"
    if pts >= 11 and balanced(ln):
        return "2NT"
    return "1NT" if "1NT" in legal else "P"


PROMISE = {"1NT": 16, "2NT": 20, "2C": 22, "3NT": 12}


def _partner_points(partner_calls) -> int:
    bids = [c for c in partner_calls if c[0].isdigit()]
    if not bids:
        return 0 if "X" not in partner_calls else 12
    first = bids[0]
    if first in PROMISE:
        return PROMISE[first]
    level = int(first[0])
    if level >= 2 and len(bids) == 1 and first[1:] in ("D", "H", "S"):
        return 10 if first[1:] != "C" else 13
    return 13 if len(bids) == 1 else 14


# the strong bot's bids count the part-score (the arena's ``--set bridge.SCORE_AWARE=False``: not)
SCORE_AWARE = True
SLAM_TRY = 16  # responder's points from which a part-score does not stop the auction at a game


def _respond_to_game(call: str, pts: int, ours, legal: set, part: int, ours_last: bool = True) -> str:
    """B-5: with a part-score below the line, the response bids no higher than the game needs.

    Partner's natural opening that already makes the game is passed (no slam
    try below ``SLAM_TRY`` points) unless the opponents bid over it (``ours_last``
    false: then the response is the clean sheet's); a raise or a notrump response above the
    lowest level that makes the game comes down to it (the tricks above it
    earn nothing but risk). Artificial calls (2C, Stayman) are left alone.
    """
    if not part or pts >= SLAM_TRY:
        return call
    opening = ours[0]["call"]
    if (
        ours_last
        and opening != "2C"
        and opening[1:] in TRICK_POINTS
        and int(opening[0]) >= _game_level(opening[1:], part)
    ):
        return "P"
    if not call[0].isdigit() or call == "2C" or call[1:] not in TRICK_POINTS:
        return call
    strain = call[1:]
    if strain not in (opening[1:], "NT"):
        return call  # a new suit: forcing, not a contract
    level = _game_level(strain, part)
    lower = f"{level}{strain}"
    if int(call[0]) > level and lower in legal:
        return lower
    return call


def _rebid(pts, ln, mine, ours, partner_calls, legal, view, seat, score_aware: bool = True) -> str:
    calls = [c["call"] for c in view["calls"]]
    last = calls[-1] if calls else "P"
    # Blackwood: answer partner's 4NT with the aces held
    if partner_calls and partner_calls[-1] == "4NT" and mine and mine[-1] != "4NT":
        aces = sum(1 for c in view["hand"] if c[0] == "A")
        return {0: "5C", 4: "5C", 1: "5D", 2: "5H", 3: "5S"}[aces]
    if mine and mine[-1] == "4NT" and partner_calls and partner_calls[-1][:1] == "5":
        shown = {"5C": 0, "5D": 1, "5H": 2, "5S": 3}.get(partner_calls[-1], 0)
        aces = sum(1 for c in view["hand"] if c[0] == "A") + shown
        if shown == 0 and sum(1 for c in view["hand"] if c[0] == "A") >= 1:
            aces = sum(1 for c in view["hand"] if c[0] == "A") + 4 if False else aces
        fit = _fit(ln, partner_calls, mine)
        target = f"6{fit}" if aces >= 3 else f"5{fit}"
        return target if target in legal else "P"
    # Stayman's answer and the responder's follow-up
    if mine and mine[0] == "1NT" and partner_calls and partner_calls[-1] == "2C" and last != "X":
        for s in ("H", "S"):
            if ln[s] >= 4:
                return "2" + s
        return "2D"
    if mine and mine[-1] == "2C" and len(mine) == 1 and partner_calls and partner_calls[0] == "1NT":
        answer = partner_calls[-1]
        if answer in ("2H", "2S") and ln[answer[1]] >= 4:
            return ("4" + answer[1]) if pts >= 10 else ("3" + answer[1])
        return "3NT" if pts >= 10 else "2NT"
    partner_bids = [c for c in partner_calls if c[0].isdigit()]
    if (
        partner_bids
        and partner_bids[-1] in ("3NT", "4H", "4S", "5C", "5D")
        or any(b[0] in "67" for b in partner_bids)
    ):
        return "P"  # partner placed the contract
    my_bids = [m for m in mine if m[0].isdigit()]
    if my_bids and my_bids[0] in ("1NT", "2NT"):
        return "P"  # the notrump opener has described his hand; responder is captain
    ours_pts = pts + _partner_points(partner_calls)
    fit = _fit(ln, partner_calls, mine)
    if not fit:
        return "P"
    strain = fit
    if ours_pts >= 33 and "4NT" in legal and "4NT" not in mine and strain != "NT":
        return "4NT"
    if ours_pts >= 33:
        target = f"6{strain}"
    elif ours_pts >= 25:
        target = "3NT" if strain in ("C", "D", "NT") else f"4{strain}"
    elif ours_pts >= 23 and strain in ("H", "S"):
        target = f"3{strain}"
    else:
        target = None
    part = _part_score(view, seat) if score_aware else 0
    blind = target
    if part and strain in ("S", "H", "D", "C", "NT") and ours_pts < 33:
        # rubber bridge (B-5): a part-score below the line makes a lower contract a game
        level = _game_level(strain, part)
        if ours_pts >= 25 or (ours_pts >= 20 and level <= 3):
            target = f"{level}{strain}"
    if target and target in legal:
        return target
    if part and target:
        if _last_bid_ours(view, seat):
            return "P"  # the game is already bid
        # the opponents bid over our game: bid on as a clean sheet would, in our strain no higher
        if blind in legal:
            return blind
        call = _cheapest(strain, legal)
        return call if call and blind and BID_INDEX[call] <= BID_INDEX[blind] else "P"
    if target is None and mine and partner_calls:
        # part score: show a six-card suit or a second suit once, otherwise pass
        my_bids = [m for m in mine if m[0].isdigit()]
        if len(my_bids) == 1 and pts >= 12:
            own = my_bids[0][1:]
            if own in SUITS and ln[own] >= 6:
                return _cheapest(own, legal, 2) or "P"
            second = max((s for s in ORDER if s != own), key=lambda s: ln[s])
            if ln[second] >= 4:
                call = _cheapest(second, legal)
                if call and int(call[0]) <= 2:
                    return call
            if balanced(ln) and partner_calls[-1][:1] == "1":
                return _cheapest("NT", legal) or "P"
    return "P"


TRICK_POINTS = {"C": 20, "D": 20, "H": 30, "S": 30, "NT": 30}


def _last_bid_ours(view, seat) -> bool:
    """Is the auction's last bid (not a pass or a double) our side's?"""
    bids = [c for c in view["calls"] if c["call"][0].isdigit()]
    return bool(bids) and team_of(bids[-1]["seat"], 4) == team_of(seat, 4)


def _part_score(view, seat) -> int:
    """The points below the line of the seat's side in the current game (B-5), from the view's score."""
    below = ((view.get("score") or {}).get("below")) or [[], []]
    return sum(int(e.get("points", 0)) for e in below[team_of(seat, 4)])


def _game_level(strain: str, part: int) -> int:
    """The lowest level of ``strain`` whose trick points bring ``part`` to a game (100, B-5)."""
    for level in range(1, 8):
        points = TRICK_POINTS[strain] * level + (10 if strain == "NT" else 0)
        if part + points >= 100:
            return level
    return 7


def _fit(ln, partner_calls, mine) -> str | None:
    """The strain the partnership should play: a known 8-card fit, else notrump, else our longest suit."""
    for call in reversed(partner_calls):
        if call[0].isdigit():
            s = call[1:]
            if s in SUITS and ln[s] >= (3 if call[0] in "1" and s in "SH" else 3):
                return s
            break
    my_suits = [m[1:] for m in mine if m[0].isdigit() and m[1:] in SUITS]
    for s in my_suits:
        if ln[s] >= 6:
            return s
    if any(c.endswith("NT") for c in partner_calls + mine):
        return "NT"
    if my_suits or partner_calls:
        return "NT" if max(ln.values()) <= 5 else max(ORDER, key=lambda s: ln[s])
    return None


# ------------------------------------------------------------ the play


def _known(view, seat):
    """(hands known: seat -> set of cards, played cards, voids per seat, counts per seat)."""
    hands = {seat: set(view["hand"])}
    dummy = view["dummy"]
    if view["dummy_hand"] is not None:
        hands[dummy] = set(view["dummy_hand"])
    played = set()
    voids = {s: set() for s in (1, 2, 3, 4)}
    tricks = [t["cards"] for t in view.get("past_tricks") or []] + [view["trick"]]
    for t in tricks:
        if not t:
            continue
        led = t[0]["card"][1]
        for x in t:
            played.add(x["card"])
            if x["card"][1] != led:
                voids[x["seat"]].add(led)
    return hands, played, voids


def _constraints(view, seat) -> dict:
    """What each other seat's calls showed, read loosely: seat -> (least HCP, most HCP, {suit: least length}).

    Openings (1NT 15-17, 2NT 20-21, 2C 20+, one of a suit 11+ and four
    cards, weak twos and preempts), a pass in the opening seat (at most 12),
    a pass of the partner's opening (at most 8), overcalls (five cards) and
    any later natural suit bid (four cards). Loose on purpose: the system of
    a human or another bot is not quite ours.
    """
    out = {}
    opened = False
    first_call = {}
    opener_side = None
    for c in view["calls"]:
        s, call = c["seat"], c["call"]
        lo, hi, suits = out.get(s, (0, 37, {}))
        first = s not in first_call
        first_call.setdefault(s, call)
        strain = call[1:] if call[0].isdigit() else None
        if not opened:
            if call == "P":
                hi = min(hi, 12)
            elif strain is not None:
                opened = True
                opener_side = team_of(s, 4)
                if call == "1NT":
                    lo, hi = max(lo, 15), min(hi, 17)
                elif call == "2NT":
                    lo, hi = max(lo, 20), min(hi, 21)
                elif call == "2C":
                    lo = max(lo, 20)
                elif call[0] == "1":
                    lo = max(lo, 11)
                    suits[strain] = max(suits.get(strain, 0), 4 if strain in "SH" else 3)
                elif strain in SUITS:
                    hi = min(hi, 11)
                    suits[strain] = max(suits.get(strain, 0), 5 if call[0] == "2" else 6)
        elif strain is not None and strain in SUITS and call[0] in "1234":
            mate_calls = [x["call"] for x in view["calls"] if x["seat"] == partner(s, 4)]
            last_mate = mate_calls[-1] if mate_calls else None
            artificial = (call == "2C" and last_mate == "1NT") or (call == "2D" and last_mate == "2C")
            if not artificial and strain not in [m[1:] for m in mate_calls]:
                overcall = first and team_of(s, 4) != opener_side
                suits[strain] = max(suits.get(strain, 0), 5 if overcall else 4)
                lo = max(lo, 8 if overcall else 6)
        elif call == "P" and first and team_of(s, 4) == opener_side:
            hi = min(hi, 8)  # a pass of the partner's opening
        out[s] = (lo, hi, suits)
    return out


def _fits(hand, shown) -> bool:
    lo, hi, suits = shown
    pts = hcp(hand)
    if pts < lo or pts > hi:
        return False
    if suits:
        ln = lengths(hand)
        return all(ln[x] >= k for x, k in suits.items())
    return True


def _sample(view, seat, rng: Rng, shown=None):
    hands, played, voids = _known(view, seat)
    counts = list(view["hand_counts"])
    trick = view["trick"]
    for x in trick:  # cards on the table count back into the hands for the solver
        counts[x["seat"] - 1] += 1
    gone = {s: [] for s in (1, 2, 3, 4)}  # the cards each seat has played this deal
    for t in [t["cards"] for t in view.get("past_tricks") or []] + [trick]:
        for x in t:
            gone[x["seat"]].append(x["card"])
    known = set().union(*hands.values())
    pool = [c for c in DECK52 if c not in known and c not in played]
    shown = shown or {}
    for attempt in range(300):
        rng.shuffle(pool)
        out = {s: set(h) for s, h in hands.items()}
        rest = list(pool)
        ok = True
        for s in sorted((s for s in (1, 2, 3, 4) if s not in hands), key=lambda s: -len(voids[s])):
            need = view["hand_counts"][s - 1]
            take, keep = [], []
            for c in rest:
                if len(take) < need and c[1] not in voids[s]:
                    take.append(c)
                else:
                    keep.append(c)
            if len(take) < need:
                ok = False
                break
            if attempt < 270 and s in shown and not _fits(take + gone[s], shown[s]):
                ok = False  # the calls say otherwise; the last tries keep only the voids
                break
            out[s] = set(take)
            rest = keep
        if ok:
            for x in trick:
                out[x["seat"]].add(x["card"])
            return out
    return None


def _pbn(hands) -> str:
    parts = []
    for s in (1, 2, 3, 4):
        suits = []
        for suit in "SHDC":
            ranks = [
                c[0] for c in sorted(hands[s], key=lambda c: "AKQJT98765432".index(c[0])) if c[1] == suit
            ]
            suits.append("".join(ranks))
        parts.append(".".join(suits))
    return "N:" + " ".join(parts)


SUIT_LETTER = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
DENOM = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "NT": "nt"}


RANKS = "23456789TJQKA"
LOW_TIES = True
"""Among the cards of equal total tricks over the worlds, play the lowest (issue 38): equal double dummy
in the sampled worlds, a low card keeps the high ones for what the worlds got wrong. ``mc`` (the strong bot
before it) took the first in name order."""


def choose_card(view, seat, samples, budget: Budget, rng: Rng, low_ties: bool = False) -> dict:
    plays = [a for a in view["legal"] if a["type"] == "play"]
    if len(plays) == 1 or not HAVE_DDS:
        return plays[0] if len(plays) == 1 else _simple_card(view, plays)
    cards = {a["card"] for a in plays}
    totals = dict.fromkeys(cards, 0)
    strain = view["contract"]["strain"]
    trick = view["trick"]
    first = trick[0]["seat"] if trick else view["next_hand"]
    done = 0
    shown = _constraints(view, seat)
    while done < samples and not (done >= 1 and budget.over()):
        hands = _sample(view, seat, rng, shown)
        if hands is None:
            break
        deal = Deal(_pbn(hands))
        deal.trump = getattr(Denom, DENOM[strain])
        deal.first = Player.find("NESW"[first - 1])
        for x in trick:
            deal.play(x["card"][1] + x["card"][0])
        for card, tricks in solve(deal):
            name = card.rank.abbr + SUIT_LETTER[card.suit.name]
            if name in totals:
                totals[name] += tricks
        done += 1
    if not done:
        return _simple_card(view, plays)
    if low_ties:
        best = max(sorted(totals), key=lambda c: (totals[c], -RANKS.index(c[0])))
    else:
        best = max(sorted(totals), key=lambda c: totals[c])
    return {"type": "play", "card": best}


def _simple_card(view, plays) -> dict:
    return plays[-1]


def choose(view: dict, seat: int, samples: int, budget: Budget, rng: Rng, level: str) -> dict:
    if view["phase"] == "auction":
        return choose_call(view, seat, score_aware=SCORE_AWARE and level != "mc")
    if view["phase"] == "play":
        # "mc": the strong bot as before issue 38's card-play change (arena yardstick)
        n = max(2, min(samples, 12 if level in ("strong", "mc") else 6))
        return choose_card(view, seat, n, budget, rng, low_ties=LOW_TIES and level == "strong")
    return view["legal"][0]


__all__ = ["BIDS", "BID_INDEX", "choose", "hcp"]
