"""Shelem's fast path for bots: cards as bits (``cards.CARD_INDEX``), seats as 0-based indices.

The rules are those of ``shelem.py`` (SH-5..SH-9, S2-2..S2-6); the public API
stays the reference and tests check that both agree on random games.

- ``random_rounds(name, count, rng)`` plays whole random rounds (deal, random
  legal auction, widow and random put-aside, random sars, random legal cards):
  the benchmark's fast path.
- For a bot's search: ``from_view`` builds a ``FastState`` from what one seat
  sees (``SHELEM4.view(state, seat)``: unseen cards go to ``unknown``);
  ``determinize`` deals those at random; ``legal_mask``, ``play``, ``rollout``
  and ``copy`` search from there. ``full_state`` reads a whole engine state
  (every hand known), for tests and analysis only.

Card index i < 52 has suit ``i // 13`` (S H D C) and rank ``A..2`` as ``i % 13``
0..12; 52 is the red joker, 53 the black. Trump is -2 while the round's first
card is still to come, -1 in sars, else a suit index.
"""

from __future__ import annotations

from .cards import CARD_INDEX, DECK54, POWER, SUITS
from .seats import next_seat, team_of
from .shelem import CARD_POINTS, TRICK_POINTS, TRICKS_PER_ROUND, WIDOW_BONUS, round_total, side_scores

DEFAULT_JOKERS = "alternate"
"""Jokers in ``random_rounds`` when not given: False, True, or "alternate" (off, on, off, ...)."""

RJ = CARD_INDEX["RJ"]
BJ = CARD_INDEX["BJ"]
UNDECIDED = -2
SARS = -1
NO_SUIT = 4  # the "suit" of a joker

BIT = [1 << i for i in range(54)]
SUIT_MASK = [sum(BIT[i] for i in range(13 * s, 13 * s + 13)) for s in range(4)]
JOKER_MASK = BIT[RJ] | BIT[BJ]
SUIT_OF = [i // 13 if i < 52 else NO_SUIT for i in range(54)]
POWER_OF = [POWER[c] for c in DECK54]
POINTS_OF = [CARD_POINTS[c] for c in DECK54]
IS_ACE = [c[0] == "A" for c in DECK54]
CARD_OF = list(DECK54)
# Follow masks (C-3, SH-7): FOLLOW[trump + 2][card led]; 0 means "no suit: anything".
FOLLOW = [
    [
        (SUIT_MASK[t] | JOKER_MASK if t >= 0 else 0)
        if i >= 52
        else SUIT_MASK[SUIT_OF[i]] | (JOKER_MASK if SUIT_OF[i] == t else 0)
        for i in range(54)
    ]
    for t in (UNDECIDED, SARS, 0, 1, 2, 3)
]

# Trick keys (C-4, SH-7): KEYS[trump + 2][suit led][card]; the highest key wins.
KEYS = [
    [
        [
            100 + POWER_OF[i]
            if i >= 52
            else 50 + POWER_OF[i]
            if SUIT_OF[i] == t
            else POWER_OF[i]
            if SUIT_OF[i] == led
            else 0
            for i in range(54)
        ]
        for led in range(5)
    ]
    for t in (UNDECIDED, SARS, 0, 1, 2, 3)
]
FROM_HAND = {4: (True, True, True, True), 2: (True, True, False, False)}  # S2-2/S2-4: then columns

# Seat tables from seats.py (0-based indices): no seat arithmetic here.
NEXT = {n: [next_seat(s + 1, n) - 1 for s in range(n)] for n in (2, 4)}
TEAM = {n: [team_of(s + 1, n) for s in range(n)] for n in (2, 4)}
AT = {n: [[next_seat(s + 1, n, k) - 1 for k in range(4)] for s in range(n)] for n in (2, 4)}
FIRST_ACE_SEAT = {n: [next_seat(1, n, i) - 1 for i in range(54)] for n in (2, 4)}
# D-4: the seat index (from the first bidder's) of the k-th card of d[0:48].
DEAL4 = [[next_seat(first + 1, 4, k // 4) - 1 for k in range(48)] for first in range(4)]


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= BIT[CARD_INDEX[c]]
    return m


def cards_of(mask: int) -> list[str]:
    out = []
    while mask:
        low = mask & -mask
        out.append(CARD_OF[low.bit_length() - 1])
        mask ^= low
    return out


def mask_points(mask: int) -> int:
    return sum(POINTS_OF[i] for i in _indices(mask))


def _indices(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _pick(mask: int, random) -> int:
    """A uniformly random set bit's index (inlined in ``random_round``)."""
    k = int(random() * mask.bit_count())
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


def trick_winner(cards, trump: int) -> int:
    """Position in ``cards`` (order played) of the winner (C-4, SH-7)."""
    lead = cards[0]
    keys = KEYS[trump + 2][SUIT_OF[lead] if lead < 52 else (trump if trump >= 0 else NO_SUIT)]
    best = 0
    for pos in range(1, len(cards)):
        if keys[cards[pos]] > keys[cards[best]]:
            best = pos
    return best


# -- whole random rounds (the benchmark) ------------------------------------


def random_rounds(name: str, count: int, rng, jokers=None) -> int:
    """Play ``count`` random rounds of shelem4/shelem2; returns the sum of the bidder sides' points."""
    n = 4 if name == "shelem4" else 2
    if name not in ("shelem4", "shelem2"):
        raise ValueError(f"not a shelem game: {name!r}")
    mode = DEFAULT_JOKERS if jokers is None else jokers
    total = 0
    for r in range(count):
        with_jokers = bool(r & 1) if mode == "alternate" else bool(mode)
        _bid, side, points, _trump = random_round(n, with_jokers, rng)
        total += points[side]
    return total


def random_round(n: int, jokers: bool, rng, record: list | None = None):
    """One random round; returns (bid, bidder's side, points per side, trump).

    With ``record`` (a list), appends ``(seat or 0, action)`` pairs in the
    public API's form, so a test can replay the round through ``shelem.py``.
    """
    random = rng.random
    deck = sorted(range(54 if jokers else 52), key=lambda _: random())
    if record is not None:
        record.append((0, {"type": "deal", "deck": [CARD_OF[c] for c in deck]}))
    i = 0
    while not IS_ACE[deck[i]]:
        i += 1
    first = FIRST_ACE_SEAT[n][i]  # D-4 / D-5
    nxt = NEXT[n]
    hands = [0] * n
    cols = None
    if n == 4:
        for seat, c in zip(DEAL4[first], deck, strict=False):  # d[48:] is the widow
            hands[seat] |= BIT[c]
    else:
        other = nxt[first]
        for c in deck[0:12]:
            hands[first] |= BIT[c]
        for c in deck[12:24]:
            hands[other] |= BIT[c]
        cols = [None, None]
        cols[first] = [deck[24 + 4 * j : 28 + 4 * j][::-1] for j in range(3)]  # top card last
        cols[other] = [deck[36 + 4 * j : 40 + 4 * j][::-1] for j in range(3)]
    widow = 0
    for c in deck[48:]:
        widow |= BIT[c]

    # SH-3: a random legal auction.
    top = 200 if jokers else 165
    high = 0
    bidder = p = first
    left = n
    passed = [False] * n
    while True:
        low = high + 5 if high else 100
        bids = (top - low) // 5 + 1
        k = int(random() * (bids + (1 if high else 0)))
        if k < bids:
            high = low + 5 * k
            bidder = p
            if record is not None:
                record.append((p + 1, {"type": "bid", "amount": high}))
            if high == top:
                break
        else:
            passed[p] = True
            left -= 1
            if record is not None:
                record.append((p + 1, {"type": "pass"}))
            if left == 1:
                break
        p = nxt[p]
        while passed[p]:
            p = nxt[p]

    # SH-4: the widow, and a random put-aside.
    team = TEAM[n]
    pool = hands[bidder] | widow
    aside = 0
    for _ in range(len(deck) - 48):
        c = _pick(pool, random)
        pool ^= BIT[c]
        aside |= BIT[c]
    hands[bidder] = pool
    points = [0, 0]
    points[team[bidder]] = WIDOW_BONUS + mask_points(aside)
    if record is not None:
        record.append((bidder + 1, {"type": "discard", "cards": cards_of(aside)}))
    sars = False
    if not jokers:
        sars = random() < 0.5
        if record is not None:
            record.append((bidder + 1, {"type": "sars", "sars": sars}))

    # SH-5..SH-9 / S2-2..S2-6: random legal cards (the pick of _pick, inlined for speed).
    leader = bidder
    trump = UNDECIDED
    at = AT[n]
    from_hand = FROM_HAND[n]
    for t in range(TRICKS_PER_ROUND):
        seats = at[leader]
        won = TRICK_POINTS
        best_pos = best_key = 0
        follow = other = 0
        keys = KEYS[0][0]
        for pos in range(4):
            p = seats[pos]
            if from_hand[pos]:
                src = hands[p]
            else:
                src = 0
                for col in cols[p]:
                    if col:
                        src |= BIT[col[-1]]
            if pos == 0:
                m = src
                k = int(random() * m.bit_count())
                while k:
                    m &= m - 1
                    k -= 1
                c = (m & -m).bit_length() - 1
                if t == 0:
                    if jokers:
                        trump = SARS if c >= 52 else SUIT_OF[c]
                    else:
                        trump = SARS if sars else SUIT_OF[c]
                    if c >= 52:
                        other = BIT[c ^ 1]  # SH-8: the other joker
                follow = FOLLOW[trump + 2][c]
                keys = KEYS[trump + 2][SUIT_OF[c] if c < 52 else (trump if trump >= 0 else NO_SUIT)]
            elif other and p != leader and src & other:
                c = other.bit_length() - 1
            else:
                m = (src & follow) or src
                k = int(random() * m.bit_count())
                while k:
                    m &= m - 1
                    k -= 1
                c = (m & -m).bit_length() - 1
            if record is not None:
                record.append((p + 1, {"type": "play", "card": CARD_OF[c]}))
            if from_hand[pos]:
                hands[p] ^= BIT[c]
            else:
                for col in cols[p]:
                    if col and col[-1] == c:
                        col.pop()
                        break
            won += POINTS_OF[c]
            if keys[c] > best_key:
                best_key = keys[c]
                best_pos = pos
        leader = seats[best_pos]
        points[team[leader]] += won
    return high, team[bidder], points, trump


# -- a compact state for a bot's search ---------------------------------------


class FastState:
    """The play phase of one round, from one seat's knowledge (or everybody's).

    ``hands[p]`` is a mask (0-based seats); ``cols[p]`` (shelem2) three lists,
    top card LAST, -1 for a face-down card the viewer cannot see; ``unknown``
    holds every card the viewer cannot place, ``counts[p]`` how many hand
    cards of seat p are among them, ``voids[p]`` the cards seat p's hand
    cannot hold (it did not follow suit), ``aside_points`` the put-aside's
    points (public: SH-4 adds them to the bidder's side).
    """

    __slots__ = (
        "n",
        "jokers",
        "hands",
        "cols",
        "trump",
        "sars",
        "leader",
        "turn",
        "trick",
        "done",
        "points",
        "bidder",
        "bid",
        "unknown",
        "counts",
        "voids",
        "aside_points",
    )

    def __init__(self, n: int, jokers: bool):
        self.n = n
        self.jokers = jokers
        self.hands = [0] * n
        self.cols = None
        self.trump = UNDECIDED
        self.sars = False
        self.leader = 0
        self.turn = 0
        self.trick: list[int] = []
        self.done = 0
        self.points = [0, 0]
        self.bidder = 0
        self.bid = 0
        self.unknown = 0
        self.counts = [0] * n
        self.voids = [0] * n
        self.aside_points = 0


def copy(fs: FastState) -> FastState:
    new = FastState.__new__(FastState)
    for slot in FastState.__slots__:
        setattr(new, slot, getattr(fs, slot))
    new.hands = list(fs.hands)
    new.cols = [[list(col) for col in mine] for mine in fs.cols] if fs.cols is not None else None
    new.trick = list(fs.trick)
    new.points = list(fs.points)
    new.counts = list(fs.counts)
    new.voids = list(fs.voids)
    return new


def _sources(fs: FastState, p: int) -> int:
    if fs.cols is None or len(fs.trick) < 2:
        return fs.hands[p]
    src = 0
    for col in fs.cols[p]:
        if col and col[-1] >= 0:
            src |= BIT[col[-1]]
    return src


def legal_mask(fs: FastState) -> int:
    """The cards the seat to play may play now, as a mask."""
    p = fs.turn
    src = _sources(fs, p)
    trick = fs.trick
    if not trick:
        return src
    lead = trick[0]
    if lead >= 52 and fs.done == 0 and p != fs.leader and src & BIT[lead ^ 1]:
        return BIT[lead ^ 1]  # SH-8
    m = src & FOLLOW[fs.trump + 2][lead]
    return m or src


def play(fs: FastState, c: int) -> None:
    """Play card index ``c`` for the seat to play (mutates ``fs``; no legality check)."""
    p = fs.turn
    n = fs.n
    if fs.cols is None or len(fs.trick) < 2:
        fs.hands[p] &= ~BIT[c]
    else:
        for col in fs.cols[p]:
            if col and col[-1] == c:
                col.pop()
                break
    if fs.done == 0 and not fs.trick:
        if fs.jokers:
            fs.trump = SARS if c >= 52 else SUIT_OF[c]
        else:
            fs.trump = SARS if fs.sars else SUIT_OF[c]
    fs.trick.append(c)
    if len(fs.trick) < 4:
        fs.turn = NEXT[n][p]
        return
    winner = AT[n][fs.leader][trick_winner(fs.trick, fs.trump)]
    fs.points[TEAM[n][winner]] += TRICK_POINTS + sum(POINTS_OF[x] for x in fs.trick)
    fs.trick = []
    fs.done += 1
    fs.leader = fs.turn = winner


def round_done(fs: FastState) -> bool:
    return fs.done == TRICKS_PER_ROUND


def rollout(fs: FastState, rng) -> tuple[int, int]:
    """Random legal cards to the round's end from a fully known ``fs``; the points per side."""
    fs = copy(fs)
    random = rng.random
    while fs.done < TRICKS_PER_ROUND:
        play(fs, _pick(legal_mask(fs), random))
    return fs.points[0], fs.points[1]


def score(fs: FastState) -> tuple[int, int]:
    """The round's score per side once it is done (SH-10)."""
    side = TEAM[fs.n][fs.bidder]
    return tuple(side_scores(side, fs.bid, fs.points[side], fs.jokers))


def determinize(fs: FastState, rng, tries: int = 100) -> FastState:
    """A copy with the unknown cards dealt at random: to the other hands (respecting their
    voids), to face-down column slots, and the rest out of play as the put-aside, whose
    points must match ``aside_points``. Falls back to ignoring voids if they cannot be met."""
    pool = _indices(fs.unknown)
    slots = sum(c < 0 for mine in fs.cols for col in mine for c in col) if fs.cols is not None else 0
    k = len(pool) - sum(fs.counts) - slots
    for attempt in range(tries):
        rng.shuffle(pool)
        aside = _aside(pool, k, fs.aside_points)
        if aside is None:
            continue
        rest = [c for c in pool if not BIT[c] & aside]
        new = copy(fs)
        ok = True
        strict = attempt < tries - 1
        for p in sorted(range(fs.n), key=lambda p: -fs.voids[p].bit_count()):
            void = fs.voids[p] if strict else 0
            need = fs.counts[p]
            keep = []
            for c in rest:
                if need and not BIT[c] & void:
                    new.hands[p] |= BIT[c]
                    need -= 1
                else:
                    keep.append(c)
            rest = keep
            new.counts[p] = 0
            ok = ok and need == 0
        if not ok:
            continue
        if new.cols is not None:
            for mine in new.cols:
                for col in mine:
                    for i, c in enumerate(col):
                        if c < 0:
                            col[i] = rest.pop()
        new.unknown = 0  # what is left lies out of play (the put-aside cards)
        return new
    raise ValueError("no deal of the unknown cards fits what the seat knows")


def _aside(pool: list[int], k: int, points: int) -> int | None:
    """The first k cards of ``pool`` (in its order) whose points add up to ``points``, as a mask."""
    chosen: list[int] = []

    def search(start: int, left: int) -> bool:
        if len(chosen) == k:
            return left == 0
        for i in range(start, len(pool) - (k - len(chosen)) + 1):
            value = POINTS_OF[pool[i]]
            if value <= left:
                chosen.append(pool[i])
                if search(i + 1, left - value):
                    return True
                chosen.pop()
        return False

    if not search(0, points):
        return None
    mask = 0
    for c in chosen:
        mask |= BIT[c]
    return mask


def _common(fs: FastState, source: dict) -> None:
    n = fs.n
    if not source["tricks"] and not source["trick"]:
        fs.trump = UNDECIDED  # the round's first card is still to come (SH-5)
    elif source["trump"] is None:
        fs.trump = SARS
    else:
        fs.trump = SUITS.index(source["trump"])
    fs.sars = bool(source["sars"])
    fs.leader = source["leader"] - 1
    fs.trick = [CARD_INDEX[c] for c in _trick_cards(source["trick"])]
    fs.turn = AT[n][fs.leader][len(fs.trick)]
    fs.done = len(source["tricks"])
    fs.points = list(source["points"])
    fs.bidder = source["bidder"] - 1
    fs.bid = source["bid"]
    side = TEAM[n][fs.bidder]
    won = sum(t["points"] for t in source["tricks"] if TEAM[n][t["winner"] - 1] == side)
    fs.aside_points = fs.points[side] - WIDOW_BONUS - won
    # Voids: a hand card that did not follow the suit led (hand phase only in shelem2).
    tricks = [(t["leader"] - 1, [CARD_INDEX[c] for c in t["cards"]]) for t in source["tricks"]]
    tricks.append((fs.leader, fs.trick))
    for leader, cards in tricks:
        if not cards:
            continue
        follow = FOLLOW[fs.trump + 2][cards[0]]
        for pos in range(1, len(cards) if n == 4 else min(len(cards), 2)):
            if follow and not BIT[cards[pos]] & follow:
                fs.voids[AT[n][leader][pos]] |= follow


def _trick_cards(trick) -> list[str]:
    return [x["card"] if isinstance(x, dict) else x for x in trick]


def from_view(view: dict) -> FastState:
    """The play phase as the view's seat knows it (``view(state, seat)`` in phase "play")."""
    n = view["players"]
    me = view["viewer"] - 1
    fs = FastState(n, view["rules"]["jokers"])
    _common(fs, {**view, "points": view["score"]["points"]})
    fs.hands[me] = mask_of(view["hand"])
    seen = fs.hands[me] | mask_of(c for t in view["tricks"] for c in t["cards"])
    seen |= mask_of(_trick_cards(view["trick"]))
    if n == 2:
        fs.cols = []
        for mine in view["columns"]:
            cols = []
            for col in mine:
                cards = [-1] * col["count"]
                if col["top"] is not None:
                    cards[-1] = CARD_INDEX[col["top"]]
                    seen |= BIT[cards[-1]]
                cols.append(cards)
            fs.cols.append(cols)
    deck = (1 << 54) - 1 if fs.jokers else (1 << 52) - 1
    fs.unknown = deck & ~seen
    fs.counts = [0 if p == me else view["hand_counts"][p] for p in range(n)]
    return fs


def full_state(state: dict) -> FastState:
    """The play phase with every card known (tests, analysis): never for a seat's bot."""
    n = len(state["hands"])
    fs = FastState(n, state["rules"]["jokers"])
    _common(fs, state)
    fs.hands = [mask_of(h) for h in state["hands"]]
    if n == 2:
        fs.cols = [[[CARD_INDEX[c] for c in reversed(col)] for col in mine] for mine in state["columns"]]
    return fs


__all__ = [
    "FastState",
    "copy",
    "determinize",
    "from_view",
    "full_state",
    "legal_mask",
    "play",
    "random_round",
    "random_rounds",
    "rollout",
    "round_total",
    "score",
    "trick_winner",
]
