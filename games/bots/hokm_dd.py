"""Hokm for four searched like bridge: perfect-information Monte Carlo with a double-dummy solver.

Hokm's card play is bridge's card play with a trump suit (C-3, C-4): four
hands of 13, follow suit, the highest trump or the highest card of the suit
led wins. So every world the seat samples (``hokm._Knowledge.deal``: voids,
the hakem long in his trump, what each card shown says) can be solved
exactly by DDS (``endplay``, already the bridge bot's solver), instead of
being played out by a rule-based policy.

The round ends as soon as a side has 7 tricks (H4-4), so out of 13 exactly
one side gets there: the side to act reaches 7 first exactly when it can
take ``need = 7 - its tricks`` of the tricks left. One *target* solve per
world (DDS's "which cards make at least ``need``": a zero-window search, far
cheaper than the most tricks) gives every card's win or loss in that world;
a second solve at ``need + 1`` (in a world won) or ``need - 1`` (in a world
lost) ranks the lines by a trick of margin. The card that wins in the most
worlds is played; with the table rule ``kot`` (H4-5) a world where a card
also takes every trick left while the other side has none counts once more.

The solver is a C library, called through ``dds`` (one lock for the whole
process: DDS is not safe from several threads at once); it holds nothing
between decisions but its own transposition tables. The search stops
at the level's number of worlds, at the budget (a solve is not started when
the last one's cost would overrun it), or once the leader is clearly ahead.
"""

from __future__ import annotations

from games.engine import hokm_fast as hf

from . import dds
from .clock import Budget, now
from .rng import Rng

HAVE_DDS = dds.HAVE_DDS

WIN = hf.TRICKS_TO_WIN
MARGIN = 0.15
"""A world's worth of a trick of margin (``need + 1`` made in a world won, ``need - 1`` in one lost)."""
KOT = 1.0
"""With the table rule ``kot`` (H4-5, a 7-0 counts 2): a world where the card takes every trick left."""
READ_PLAIN = False
"""Sample the worlds with ``hokm._Knowledge._plain_reads`` (the opponents read as ``plain_policy`` players)."""
CAREFUL_PRIOR = 1e-6
"""The careful player's card's bonus over the mean of the worlds: a tie-break only."""
SPEND = 0.85
"""The share of the decision's budget the worlds may use (a solve is not started past it)."""
MIN_WORLDS = 16
"""Worlds before the search may stop early on a clear leader."""

# a 13-bit suit pattern of the fast path (bit r: rank A..2 for r = 0..12) as DDS's holding (bit 14 - r)
_HOLDING = tuple(sum(1 << (14 - r) for r in range(13) if m >> r & 1) for m in range(8192))
_SHIFTS = (0, 13, 26, 39)


def applicable(view: dict) -> bool:
    """Can the seat's decision be solved double dummy?

    Hokm for four, in the play phase, without the table rules that are not
    bridge's card play: a card laid early (H4-X2) and a run led at once
    (H4-X3). The middle card of H4-X1 is a known card of the partner's hand,
    which the solver takes as it is.
    """
    if not HAVE_DDS or view.get("players") != 4 or view.get("phase") != "play":
        return False
    rules = view.get("rules") or {}
    if rules.get("early_play") or rules.get("lead_run"):
        return False
    return not view.get("run") and not any(view.get("early") or [])


def _deal(fs: hf.FastHokm):
    """The DDS deal of a fast state at a seat's turn (the current trick's cards given as played)."""
    d = dds.raw.deal()
    d.trump = fs.trump  # suits S H D C are 0..3 in both
    rc = d.remainCards
    for p in range(4):
        h = fs.hands[p]
        row = rc[p]
        for s in range(4):
            row[s] = _HOLDING[(h >> _SHIFTS[s]) & 0x1FFF]
    trick = fs.trick
    d.first = trick[0][0] if trick else fs.turn  # seats 0..3 follow each other like N E S W
    for i in range(3):
        if i < len(trick):
            c = trick[i][1]
            d.currentTrickSuit[i] = c // 13
            d.currentTrickRank[i] = 14 - c % 13
        else:
            d.currentTrickSuit[i] = 0
            d.currentTrickRank[i] = 0
    return d


def _winners(d, target: int) -> int:
    """The mask of the cards of the seat to act that make at least ``target`` tricks (``target`` >= 1)."""
    fut = dds.future_tricks(d, target)  # mode 1: a score even for a single card; under the process's DDS lock
    out = 0
    for i in range(fut.cards):
        if fut.score[i] < target:
            continue
        s = fut.suit[i]
        holding = (1 << fut.rank[i]) | fut.equals[i]
        for rank in range(2, 15):
            if holding >> rank & 1:
                out |= 1 << (13 * s + 14 - rank)
    return out


def world_values(fs: hf.FastHokm, cards: list[int], side: int, kot: bool) -> list[float]:
    """Each card's worth in one fully known world (the seat to act is ``fs.turn``, of ``side``)."""
    left = 13 - fs.tricks[0] - fs.tricks[1]
    need = WIN - fs.tricks[side]
    d = _deal(fs)
    win = _winners(d, need)
    if win:
        more = _winners(d, need + 1) if need + 1 <= left and (MARGIN or kot) else win
        vals = [(1.0 + (MARGIN if more >> c & 1 else 0.0)) if win >> c & 1 else 0.0 for c in cards]
        if kot and fs.tricks[1 - side] == 0:
            sweep = more if need + 1 > left else _winners(d, left)
            vals = [v + (KOT if sweep >> c & 1 else 0.0) for v, c in zip(vals, cards, strict=True)]
        return vals
    if not MARGIN:
        return [0.0] * len(cards)
    less = _winners(d, need - 1) if need > 1 else 0
    return [0.0 if less >> c & 1 else -MARGIN for c in cards]


def search(know, cards: list[int], side: int, samples: int, budget: Budget, rng: Rng, prior=None) -> int:
    """The card of ``cards`` (touching cards already merged) with the best mean over sampled worlds."""
    kot = bool((know.view.get("rules") or {}).get("kot"))

    def row(_k):
        return world_values(know.fast(know.deal(rng), rng), cards, side, kot)

    return cards[pick(len(cards), row, samples, budget, prior)]


def pick(n: int, row, samples: int, budget: Budget, prior=None) -> int:
    """The index of the best of ``n`` candidates by their mean over worlds; ``row(k)``: their values in world k."""
    totals = [0.0] * n
    vals: list[list[float]] = [[] for _ in range(n)]
    done = 0
    last_cost = 0.0
    # the solver's last call may overrun: stop at SPEND of the budget, when the next world would not fit
    limit = None if budget._end is None else budget._start + (budget._end - budget._start) * SPEND
    while done < samples:
        if done >= 1 and limit is not None and now() + last_cost > limit:
            break
        t0 = now()
        values = row(done)
        last_cost = now() - t0
        for j, v in enumerate(values):
            totals[j] += v
            vals[j].append(v)
        done += 1
        if done >= MIN_WORLDS and done % 8 == 0 and _clear(vals, totals, done):
            break
    bonus = prior or {}
    return max(range(n), key=lambda j: (totals[j] / max(1, done) + bonus.get(j, 0.0), -j))


def _clear(vals, totals, done) -> bool:
    """Is the leader ahead of every other card by more than 2.5 standard errors (paired), or equal to all?"""
    lead = max(range(len(totals)), key=lambda j: totals[j])
    lv = vals[lead]
    for j in range(len(totals)):
        if j == lead:
            continue
        d = [a - b for a, b in zip(lv, vals[j], strict=True)]
        m = sum(d) / done
        var = sum((x - m) ** 2 for x in d) / (done - 1)
        if var == 0.0:
            continue  # the same difference in every world: behind for sure, or as good (the prior decides)
        if m * m * done <= 6.25 * var:
            return False
    return True


TRUMP_WORLDS = 400
"""The most sampled deals for the trump (H4-2); the budget stops it first."""
TRUMP_PRIOR = 0.004
"""A candidate trump's tie-break per point of ``hokm._suit_strength`` (cards plus honours)."""


def trump_values(hands: list[int], hakem: int, trumps: list[int]) -> list[float]:
    """Each trump's worth in one full deal (the hakem leads, H4-3): 1 when his side can take 7 tricks."""
    out = []
    fs = hf.FastHokm.__new__(hf.FastHokm)
    fs.hands, fs.turn, fs.trick = hands, hakem, []
    for t in trumps:
        fs.trump = t
        fut = dds.future_tricks(_deal(fs), WIN, 1, 1)  # one card that makes 7, if there is one
        out.append(1.0 if fut.cards and fut.score[0] >= WIN else 0.0)
    return out


def choose_trump(view: dict, seat: int, samples: int, budget: Budget, rng: Rng, cands: list, prior) -> dict:
    """H4-2 by double dummy: the trump that wins the round in the most sampled deals.

    The hakem sees five cards; the other 47 are dealt at random (his eight to
    come, 13 to each other seat). "middle" (H4-X1) names the suit of one of
    the partner's cards, drawn from the partner's sampled hand.
    """
    me = seat - 1
    mine = hf.cards_to_mask(view["hand"])
    pool = [c for c in range(52) if not mine >> c & 1]
    mate = (me + 2) % 4
    suits = "SHDC"

    def row(_k):
        cards = list(pool)
        rng.shuffle(cards)
        hands = [0, 0, 0, 0]
        hands[me] = mine
        k = 0
        for p in range(4):
            want = 13 - hands[p].bit_count()
            for c in cards[k : k + want]:
                hands[p] |= 1 << c
            k += want
        trumps = []
        for a in cands:
            if a["suit"] == "middle":
                m = hands[mate]
                bits = [c for c in range(52) if m >> c & 1]
                trumps.append(bits[rng.randrange(len(bits))] // 13)
            else:
                trumps.append(suits.index(a["suit"]))
        return trump_values(hands, me, trumps)

    return cands[pick(len(cands), row, min(samples, TRUMP_WORLDS), budget, prior)]
