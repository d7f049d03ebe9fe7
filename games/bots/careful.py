"""A careful rule-based Hokm player: a yardstick for the arena (issue 38), not a level of the tables.

It plays the way a sound club player plays by rule, from its own seat's view
only (its hand, the cards played, the voids shown, C-3): second hand low,
third hand high, win as cheaply as it can, lead from strength, let the
partner's winner stand, and count the trumps (draw them with the top trump
while the opponents may hold some; cash a top card only where no opponent
can cut it). It signals nothing and reads nothing it cannot know.

``choose(view, seat)`` returns one of ``view["legal"]`` (hokm4 and hokm2).
"""

from __future__ import annotations

from games.engine.cards import CARD_INDEX, SUITS
from games.engine.seats import next_seat, partner, team_of

HONOUR = {0: 4, 1: 3, 2: 2, 3: 1}  # A K Q J: the weight of a card in "strength"


def _idx(card: str) -> int:
    return CARD_INDEX[card]


def _suit(c: int) -> int:
    return c // 13


def _rank(c: int) -> int:
    """0 for an ace .. 12 for a two: lower is higher (C-1)."""
    return c % 13


class _Seen:
    """What the seat knows: its hand, every card gone, the voids shown, the cards still unseen."""

    def __init__(self, view: dict, seat: int):
        self.n = view["players"]
        self.seat = seat
        self.trump = SUITS.index(view["trump"]) if view.get("trump") in SUITS else -1
        self.hand = [_idx(c) for c in view["hand"]]
        gone = set()
        self.voids = {s: set() for s in range(1, self.n + 1)}
        tricks = [t["cards"] for t in view.get("past_tricks") or []] + [view.get("trick") or []]
        for t in tricks:
            if not t:
                continue
            led = _suit(_idx(t[0]["card"]))
            for x in t:
                c = _idx(x["card"])
                gone.add(c)
                if _suit(c) != led:
                    self.voids[x["seat"]].add(led)
        self.gone = gone
        mine = set(self.hand)
        middle = view.get("middle")
        self.known_elsewhere = {_idx(middle)} if middle else set()
        self.unseen = {c for c in range(52) if c not in gone and c not in mine}
        self.trick = [(x["seat"], _idx(x["card"])) for x in view.get("trick") or []]

    def higher_out(self, c: int) -> list[int]:
        """The cards of ``c``'s suit above it still unseen (somebody else may hold them)."""
        s = _suit(c)
        return [x for x in self.unseen if _suit(x) == s and x < c]

    def is_boss(self, c: int) -> bool:
        return not self.higher_out(c)

    def trumps_out(self) -> int:
        return sum(1 for x in self.unseen if _suit(x) == self.trump)

    def opponents(self) -> list[int]:
        me = team_of(self.seat, self.n)
        return [s for s in range(1, self.n + 1) if team_of(s, self.n) != me]

    def may_ruff(self, p: int, suit: int) -> bool:
        """Could seat ``p`` cut a lead of ``suit`` (shown void there, not shown void in trumps, trumps out)?"""
        if suit == self.trump or self.trumps_out() == 0:
            return False
        return suit in self.voids[p] and self.trump not in self.voids[p]


def _beats(c: int, best: int, trump: int) -> bool:
    if _suit(c) == _suit(best):
        return c < best
    return _suit(c) == trump


def _best(trick, trump):
    seat, best = trick[0]
    for s, c in trick[1:]:
        if _beats(c, best, trump):
            seat, best = s, c
    return seat, best


def _lowest(cards, trump):
    """The cheapest card: a plain card before a trump, the lowest rank, the shortest suit on a tie."""
    count = {}
    for c in cards:
        count[_suit(c)] = count.get(_suit(c), 0) + 1
    return min(cards, key=lambda c: (_suit(c) == trump, -_rank(c), count[_suit(c)]))


def _safe_against(seen: _Seen, card: int, best_after: int, later: list[int]) -> bool:
    """Will ``card`` (now winning) still win, whatever the later opponents hold, as far as the seat knows?"""
    led = _suit(seen.trick[0][1]) if seen.trick else _suit(card)
    trump = seen.trump
    for p in later:
        if _suit(card) == trump:
            if any(x < card for x in seen.unseen if _suit(x) == trump) and trump not in seen.voids[p]:
                return False
            continue
        if led in seen.voids[p]:
            if seen.may_ruff(p, led):
                return False
            continue
        if seen.higher_out(card):
            return False
    return True


def choose_card(view: dict, seat: int) -> dict:
    seen = _Seen(view, seat)
    legal = [_idx(a["card"]) for a in view["legal"] if a["type"] == "play"]
    if len(legal) == 1:
        return {"type": "play", "card": _name(legal[0])}
    card = _lead(seen, legal) if not seen.trick else _follow(seen, legal)
    return {"type": "play", "card": _name(card)}


def _name(c: int) -> str:
    from games.engine.hokm_fast import CARDS

    return CARDS[c]


def _lead(seen: _Seen, legal: list[int]) -> int:
    trump = seen.trump
    opps = seen.opponents()
    trumps = sorted(c for c in legal if _suit(c) == trump)
    out = seen.trumps_out()
    # count trumps: draw them with the top trump while an opponent may still hold one
    if trumps and out and seen.is_boss(trumps[0]):
        if any(trump not in seen.voids[p] for p in opps) and len(trumps) >= 2:
            return trumps[0]
    # cash a top card of a plain suit no opponent can cut, the longest suit first
    by_suit = {}
    for c in legal:
        by_suit.setdefault(_suit(c), []).append(c)
    cash = [
        min(cs)
        for s, cs in by_suit.items()
        if s != trump and seen.is_boss(min(cs)) and not any(seen.may_ruff(p, s) for p in opps)
    ]
    if cash:
        return max(cash, key=lambda c: (len(by_suit[_suit(c)]), -_rank(c)))
    # lead from strength: the plain suit with the most length and honours, no suit an opponent cuts
    plain = [s for s in by_suit if s != trump]
    safe = [s for s in plain if not any(seen.may_ruff(p, s) for p in opps)] or plain
    if safe:
        s = max(safe, key=lambda s: (len(by_suit[s]) + sum(HONOUR.get(_rank(c), 0) for c in by_suit[s]), -s))
        cs = sorted(by_suit[s])
        if len(cs) >= 2 and _rank(cs[0]) + 1 == _rank(cs[1]) and _rank(cs[0]) <= 2:
            return cs[0]  # the top of a touching honour sequence
        return cs[-1]
    return trumps[-1] if trumps else max(legal)


def _follow(seen: _Seen, legal: list[int]) -> int:
    n = seen.n
    trump = seen.trump
    trick = seen.trick
    seat = seen.seat
    led = _suit(trick[0][1])
    best_seat, best = _best(trick, trump)
    later = []
    s = next_seat(seat, n)
    while len(later) < n - 1 - len(trick):
        later.append(s)
        s = next_seat(s, n)
    later_opps = [p for p in later if team_of(p, n) != team_of(seat, n)]
    mate_wins = n == 4 and best_seat == partner(seat, 4)
    winners = sorted((c for c in legal if _beats(c, best, trump)), key=lambda c: (_suit(c) == trump, -c))
    following = any(_suit(c) == led for c in legal)
    # keep the partner's winner: it stands when no later opponent can beat it
    if mate_wins and (not later_opps or _safe_against(seen, best, best, later_opps)):
        return _lowest(legal, trump)
    if not winners:
        return _lowest(legal, trump)
    if not later_opps:
        return winners[0]  # last to play for the side: the cheapest winner
    position = len(trick)  # 1: second hand, 2: third hand
    if position == 1 and n == 4:
        # second hand low, unless a sure winner is cheap or the lead is an honour to cover
        sure = [c for c in winners if _safe_against(seen, c, c, later_opps)]
        if sure and (_suit(sure[0]) != trump or not following):
            return sure[0]
        if following and _rank(best) <= 3:
            return winners[0]  # cover an honour
        if not following and winners and seen.is_boss(best):
            return winners[0]  # ruff a top card low
        return _lowest(legal, trump)
    # third hand high: the cheapest card that wins for sure, else the highest winner
    sure = [c for c in winners if _safe_against(seen, c, c, later_opps)]
    if sure:
        return sure[0]
    if mate_wins:
        return _lowest(legal, trump)
    return min(winners) if following else winners[0]


def choose_trump(view: dict) -> dict:
    """The suit with the most cards and honours of the hakem's first five (H4-2, H2-3)."""
    hand = [_idx(c) for c in view["hand"]]
    suits = [a["suit"] for a in view["legal"] if a["type"] == "trump" and a["suit"] in SUITS]

    def strength(suit):
        s = SUITS.index(suit)
        cs = [c for c in hand if _suit(c) == s]
        return (len(cs) * 3 + sum(HONOUR.get(_rank(c), 0) for c in cs), -SUITS.index(suit))

    return {"type": "trump", "suit": max(suits, key=strength)}


def choose_draft(view: dict) -> dict:
    """H2-4: keep a trump or a ten or better, refuse the rest."""
    c = _idx(view["draft_card"])
    trump = SUITS.index(view["trump"])
    return {"type": "draft", "take": _suit(c) == trump or _rank(c) <= 4}


def choose(view: dict, seat: int) -> dict:
    phase = view["phase"]
    legal = view["legal"]
    if phase == "play" and any(a["type"] == "play" for a in legal):
        return choose_card(view, seat)
    if phase == "trump" and any(a["type"] == "trump" for a in legal):
        return choose_trump(view)
    if phase == "draft":
        return choose_draft(view)
    return legal[0]
