"""Shelem bots (shelem4, shelem2): determinized Monte Carlo search on ``shelem_fast``.

Play: ``shelem_fast.from_view`` keeps what the seat saw (its hand, every
trick, the face-up column cards, voids, the put-aside's points) and
``determinize`` deals the rest; each world is played out by a heuristic
policy and scored by SH-10; the card with the best mean score difference
wins. The auction (SH-3) compares, on the same sampled worlds (the widow and
the other hands dealt so that every free bid heard is backed by a hand near
its amount), the seat's score as bidder at the next amount with its score
if the standing bid is played by the opponent who holds it; the put-aside
(SH-4) and sars (SH-5) compare candidates on common sampled worlds. R-2: a
bot never bids over its own partner.
"""

from __future__ import annotations

from games.engine import shelem_fast as sf
from games.engine.cards import CARD_INDEX
from games.engine.seats import team_of
from games.engine.shelem import WIDOW_BONUS, max_bid, side_scores

from .clock import Budget
from .rng import Rng

BIT = sf.BIT
KEYS = sf.KEYS
FOLLOW = sf.FOLLOW
SUIT_OF = sf.SUIT_OF
POINTS = sf.POINTS_OF
NO_SUIT = sf.NO_SUIT
AT = sf.AT
TEAM = sf.TEAM
SARS = sf.SARS
UNDECIDED = sf.UNDECIDED
POWER = sf.POWER_OF


def _idx(m: int):
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


# ------------------------------------------------------------ the playout policy


def _answer_src(fs, seat: int, pos: int) -> int:
    if fs.cols is None or pos < 2:
        return fs.hands[seat]
    src = 0
    for col in fs.cols[seat]:
        if col and col[-1] >= 0:
            src |= BIT[col[-1]]
    return src


def _lead_trump(fs, c: int) -> int:
    if fs.trump != UNDECIDED:
        return fs.trump
    if fs.jokers:
        return SARS if c >= 52 else SUIT_OF[c]
    return SARS if fs.sars else SUIT_OF[c]


def _keys_for(trump: int, lead: int):
    led = SUIT_OF[lead] if lead < 52 else (trump if trump >= 0 else NO_SUIT)
    return KEYS[trump + 2][led]


def _opp_max(fs, trump: int, lead: int, keys, pos: int, me_team: int) -> int:
    """The best key the opponents still to play this trick can reach."""
    n = fs.n
    seats = AT[n][fs.leader]
    follow = FOLLOW[trump + 2][lead]
    team = TEAM[n]
    top = 0
    for q in range(pos + 1, 4):
        s = seats[q]
        if team[s] == me_team:
            continue
        src = _answer_src(fs, s, q)
        m = src & follow if follow else src
        for c in _idx(m or src):
            if keys[c] > top:
                top = keys[c]
    return top


def policy(fs) -> int:
    legal = sf.legal_mask(fs)
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    n = fs.n
    me = fs.turn
    my_team = TEAM[n][me]
    trick = fs.trick
    if not trick:
        return _lead(fs, legal, my_team)
    trump = fs.trump
    lead = trick[0]
    keys = _keys_for(trump, lead)
    best_pos = 0
    for q in range(1, len(trick)):
        if keys[trick[q]] > keys[trick[best_pos]]:
            best_pos = q
    best_key = keys[trick[best_pos]]
    best_seat = AT[n][fs.leader][best_pos]
    opp = _opp_max(fs, trump, lead, keys, len(trick), my_team)
    if TEAM[n][best_seat] == my_team and opp <= best_key:
        return _smear(legal)
    safe = [c for c in _idx(legal) if keys[c] > best_key and keys[c] > opp]
    if safe:
        pointed = [c for c in safe if POINTS[c] and c < 52]
        if pointed:
            return max(pointed, key=lambda c: (POINTS[c], -keys[c]))
        return min(safe, key=lambda c: keys[c])
    return _dump(legal)


def _smear(legal: int) -> int:
    """Points to the partner's sure trick: the richest plain card, else the cheapest card."""
    best, key = -1, None
    for c in _idx(legal):
        if c >= 52:
            continue
        k = (POINTS[c], -POWER[c])
        if key is None or k > key:
            best, key = c, k
    return best if best >= 0 else _dump(legal)


def _dump(legal: int) -> int:
    best, key = -1, None
    for c in _idx(legal):
        k = (POINTS[c], c >= 52, POWER[c])
        if key is None or k < key:
            best, key = c, k
    return best


def _lead(fs, legal: int, my_team: int) -> int:
    boss, boss_key = -1, None
    for c in _idx(legal):
        trump = _lead_trump(fs, c)
        keys = _keys_for(trump, c)
        if keys[c] > _opp_max(fs, trump, c, keys, 0, my_team):
            k = (POINTS[c], c < 52, -POWER[c])
            if boss_key is None or k > boss_key:
                boss, boss_key = c, k
    if boss >= 0:
        return boss
    # low and pointless from the longest plain suit
    length = [0] * 5
    for c in _idx(fs.hands[fs.turn]):
        length[SUIT_OF[c]] += 1
    best, key = -1, None
    for c in _idx(legal):
        s = SUIT_OF[c]
        k = (POINTS[c], c >= 52, s == fs.trump, -length[s], POWER[c])
        if key is None or k < key:
            best, key = c, k
    return best


def playout(fs) -> None:
    play, pol = sf.play, policy
    while fs.done < 12:
        play(fs, pol(fs))


def _value(fs, side: int) -> float:
    sc = side_scores(TEAM[fs.n][fs.bidder], fs.bid, fs.points[TEAM[fs.n][fs.bidder]], fs.jokers)
    return float(sc[side] - sc[1 - side])


# ------------------------------------------------------------ whole-round worlds


def _world(n, jokers, hands, cols, bidder, bid, aside, sars):
    fs = sf.FastState(n, jokers)
    fs.hands = hands
    fs.cols = cols
    fs.sars = sars
    fs.leader = fs.turn = fs.bidder = bidder
    fs.bid = bid
    fs.points = [0, 0]
    fs.points[TEAM[n][bidder]] = WIDOW_BONUS + sum(POINTS[c] for c in _idx(aside))
    fs.aside_points = fs.points[TEAM[n][bidder]] - WIDOW_BONUS
    return fs


def _deal_unknown(rng, n, me, mine: int, jokers: bool):
    """Hands (and shelem2 columns) for everyone but ``me``'s hand, and the widow, at random."""
    deck = 54 if jokers else 52
    pool = [c for c in range(deck) if not mine >> c & 1]
    rng.shuffle(pool)
    hands = [0] * n
    hands[me] = mine
    k = 0
    for p in range(n):
        if p == me:
            continue
        for c in pool[k : k + 12]:
            hands[p] |= BIT[c]
        k += 12
    cols = None
    if n == 2:
        cols = []
        for _p in range(2):
            mine_cols = []
            for _j in range(3):
                mine_cols.append(pool[k : k + 4])
                k += 4
            cols.append(mine_cols)
    widow = 0
    for c in pool[k:]:
        widow |= BIT[c]
    return hands, cols, widow


def _aside_candidates(pool: int, k: int, jokers: bool) -> list[int]:
    """A few sensible put-asides of ``k`` cards from the 12 + widow cards."""
    cards = list(_idx(pool))
    length = [0] * 5
    has_ace = [False] * 5
    for c in cards:
        length[SUIT_OF[c]] += 1
        if c < 52 and c % 13 == 0:
            has_ace[SUIT_OF[c]] = True
    longest = max(range(4), key=lambda s: (length[s], -s))

    def take(key):
        chosen = sorted((c for c in cards if c < 52), key=key)[:k]
        m = 0
        for c in chosen:
            m |= BIT[c]
        return m

    out = []
    # the engine's style: pointless low cards, short suits first, keep the long suit
    out.append(take(lambda c: (POINTS[c] > 0, SUIT_OF[c] == longest, length[SUIT_OF[c]], POWER[c])))
    # void the short suits outright (aces kept)
    out.append(take(lambda c: (c % 13 == 0, SUIT_OF[c] == longest, length[SUIT_OF[c]], POWER[c])))
    # bank the loose points (tens and fives without their ace), then low cards
    out.append(
        take(
            lambda c: (
                not (POINTS[c] and c % 13 != 0 and not has_ace[SUIT_OF[c]]),
                SUIT_OF[c] == longest,
                POWER[c],
            )
        )
    )
    # the lowest cards outside the long suit
    out.append(take(lambda c: (SUIT_OF[c] == longest, POWER[c])))
    unique = []
    for m in out:
        if m not in unique and m.bit_count() == k:
            unique.append(m)
    return unique


def _mean(xs):
    return sum(xs) / len(xs) if xs else 0.0


# ------------------------------------------------------------ decisions


MARGIN = 10  # playouts know every card: a bidder's real take is lower
MIN_WORLDS = 12  # the auction is worth a few more worlds than the budget alone allows
SLACK = 10  # a bid of X is read as a hand worth at least X - SLACK


def _strength(mask: int, jokers: bool) -> int:
    """What a hand hopes to take as bidder, the natural count: honours, length, jokers."""
    total = 0
    length = [0] * 4
    for c in _idx(mask):
        if c >= 52:
            total += 25 if c == 52 else 20
            continue
        length[SUIT_OF[c]] += 1
        total += (12, 6, 3, 0, 3)[c % 13] if c % 13 < 5 else 0
    total += 6 * max(0, max(length) - 3)
    return (60 + total) * (200 if jokers else 165) // 165


def _shown(view) -> list[int]:
    """For each seat (0-based), the least hand value its bids show (0: nothing shown)."""
    n = view["players"]
    bids = view.get("bids") or [None] * n
    first = view.get("first_bidder")
    out = [0] * n
    for p in range(n):
        b = bids[p]
        if not isinstance(b, int):
            continue
        if p + 1 == first and b == 100:
            continue  # the first bidder must bid (SH-3): 100 shows nothing
        out[p] = b - SLACK
    return out


def _auction_worlds(view, seat, rng, jokers):
    """Deals of the unseen cards in which every other bidder holds what its bids show."""
    n = view["players"]
    me = seat - 1
    mine = sf.mask_of(view["hand"])
    shown = _shown(view)
    dealt = None
    for _try in range(25):
        dealt = _deal_unknown(rng, n, me, mine, jokers)
        hands = dealt[0]
        if all(not shown[p] or _strength(hands[p], jokers) >= shown[p] for p in range(n) if p != me):
            break
    return dealt


def _take(n, jokers, hands, cols, who, pool, k):
    """The points ``who``'s side takes as bidder with ``pool`` (hand and widow): put-aside, best of sars."""
    aside = _aside_candidates(pool, k, jokers)[0]
    h = list(hands)
    h[who] = pool & ~aside
    best = 0
    side = TEAM[n][who]
    for sars in (False, True) if not jokers else (False,):
        fs = _world(
            n, jokers, list(h), [[list(c) for c in p] for p in cols] if cols else None, who, 0, aside, sars
        )
        playout(fs)
        best = max(best, fs.points[side])
    return best


MATCH_WORTH = 1.0
"""SH-11 near the cap: a round that ends the match is worth ``MATCH_WORTH`` times the cap more (won) or less
(lost) than its points. A side near the cap wins by defending (the points it takes are its own) and can lose it
by a failed bid; a side near minus the cap loses the match by a failed bid. Far from the cap nothing changes."""


def _match_worth(sc, side: int, totals, cap: int) -> float:
    """The round's score difference for ``side``, plus the match's worth when the round ends it (SH-11)."""
    worth = float(sc[side] - sc[1 - side])
    if not cap:
        return worth
    mine, theirs = totals[side] + sc[side], totals[1 - side] + sc[1 - side]
    if (max(mine, theirs) >= cap or min(mine, theirs) <= -cap) and mine != theirs:
        worth += MATCH_WORTH * cap * (1 if mine > theirs else -1)
    return worth


def choose_bid(view, seat, samples, budget, rng) -> dict:
    """SH-3: bid the next amount when playing it is worth more than defending what stands.

    Both sides of the comparison are sampled: in each world (the widow and the
    other hands dealt consistently with the bids heard) the seat's own take as
    bidder, and the take of the opponent who holds the high bid if the seat
    passes. R-2: never over the partner.
    """
    legal = view["legal"]
    bids = [a for a in legal if a["type"] == "bid"]
    can_pass = any(a["type"] == "pass" for a in legal)
    n = view["players"]
    high_bidder = view["high_bidder"]
    if can_pass and high_bidder is not None and high_bidder != seat:
        if team_of(high_bidder, n) == team_of(seat, n):
            return {"type": "pass"}  # never outbid the partner
    if not bids:
        return {"type": "pass"}
    if not can_pass:
        return bids[0]  # the first bidder must bid (SH-3)
    jokers = view["rules"]["jokers"]
    me = seat - 1
    side = TEAM[n][me]
    mine = sf.mask_of(view["hand"])
    k = view["widow_count"] or (6 if jokers else 4)
    amount = bids[0]["amount"]
    high = view["high_bid"]
    them = high_bidder - 1 if high_bidder is not None else None
    totals = list((view.get("score") or {}).get("totals") or [0, 0])
    cap = (view.get("rules") or {}).get("cap") or 0
    bid_total = 0.0
    pass_total = 0.0
    done = 0
    while done < samples and not (done >= MIN_WORLDS and budget.over()):
        hands, cols, widow = _auction_worlds(view, seat, rng, jokers)
        mine_take = _take(n, jokers, hands, cols, me, mine | widow, k) - MARGIN
        sc = side_scores(side, amount, mine_take, jokers)
        bid_total += _match_worth(sc, side, totals, cap)
        if them is not None:
            their_take = _take(n, jokers, hands, cols, them, hands[them] | widow, k) - MARGIN
            sc = side_scores(1 - side, high, their_take, jokers)
            pass_total += _match_worth(sc, side, totals, cap)
        done += 1
    if amount <= max_bid(jokers) and bid_total > pass_total:
        return bids[0]
    return {"type": "pass"}


def choose_discard(view, seat, samples, budget, rng) -> dict:
    n = view["players"]
    me = seat - 1
    jokers = view["rules"]["jokers"]
    pool = sf.mask_of(view["hand"])  # hand and widow together (SH-4)
    k = len(view["widow"] or []) or view["legal"][0].get("count", 4)
    cands = _aside_candidates(pool, k, jokers)
    if len(cands) == 1:
        return {"type": "discard", "cards": sf.cards_of(cands[0])}
    side = TEAM[n][me]
    bid = view["bid"]
    totals = [0.0] * len(cands)
    done = 0
    seen = pool
    while done < samples and not (done >= 2 and budget.over()):
        hands, cols = _deal_others(rng, n, me, seen, jokers)
        for i, aside in enumerate(cands):
            best = None
            for sars in (False, True) if not jokers else (False,):
                h = list(hands)
                h[me] = pool & ~aside
                fs = _world(
                    n, jokers, h, [[list(c) for c in p] for p in cols] if cols else None, me, bid, aside, sars
                )
                playout(fs)
                v = _value(fs, side)
                best = v if best is None else max(best, v)
            totals[i] += best
        done += 1
    best = max(range(len(cands)), key=lambda i: totals[i])
    return {"type": "discard", "cards": sf.cards_of(cands[best])}


def _deal_others(rng, n, me, seen: int, jokers: bool):
    """The other hands (and shelem2 columns) from the cards ``me`` has not seen; the rest is out."""
    unknown = [c for c in range(54 if jokers else 52) if not seen >> c & 1]
    rng.shuffle(unknown)
    hands = [0] * n
    k = 0
    for p in range(n):
        if p == me:
            continue
        for c in unknown[k : k + 12]:
            hands[p] |= BIT[c]
        k += 12
    cols = None
    if n == 2:
        cols = [[unknown[k + 12 * p + 4 * j : k + 12 * p + 4 * j + 4] for j in range(3)] for p in range(2)]
    return hands, cols


def choose_sars(view, seat, samples, budget, rng) -> dict:
    """SH-5 without jokers: sars or trump by the first card, by sampled play."""
    n = view["players"]
    me = seat - 1
    mine = sf.mask_of(view["hand"])
    side = TEAM[n][me]
    bid = view["bid"]
    aside_points = view["score"]["points"][side] - WIDOW_BONUS
    totals = [0.0, 0.0]
    done = 0
    while done < samples and not (done >= 2 and budget.over()):
        hands, cols = _deal_others(rng, n, me, mine, False)
        hands[me] = mine
        for i, sars in enumerate((True, False)):
            fs = _world(
                n,
                False,
                list(hands),
                [[list(c) for c in p] for p in cols] if cols else None,
                me,
                bid,
                0,
                sars,
            )
            fs.points[side] += aside_points
            playout(fs)
            totals[i] += _value(fs, side)
        done += 1
    return {"type": "sars", "sars": totals[0] > totals[1]}


def choose_card(view, seat, samples, budget, rng) -> dict:
    plays = [a for a in view["legal"] if a["type"] == "play"]
    if len(plays) == 1:
        return plays[0]
    base = sf.from_view(view)
    side = TEAM[view["players"]][seat - 1]
    cards = [CARD_INDEX[a["card"]] for a in plays]
    totals = [0.0] * len(cards)
    done = 0
    while done < samples and not (done >= 2 and budget.over()):
        try:
            world = sf.determinize(base, rng)
        except ValueError:
            break
        for i, c in enumerate(cards):
            fs = sf.copy(world)
            fs.cols = [[list(x) for x in p] for p in world.cols] if world.cols is not None else None
            sf.play(fs, c)
            playout(fs)
            totals[i] += _value(fs, side)
        done += 1
    best = max(range(len(cards)), key=lambda i: totals[i])
    return plays[best]


def choose(view: dict, seat: int, samples: int, budget: Budget, rng: Rng, level: str) -> dict:
    phase = view["phase"]
    if phase == "bidding":
        return choose_bid(view, seat, max(6, samples // 2), budget, rng)
    if phase == "discard":
        return choose_discard(view, seat, samples, budget, rng)
    if phase == "sars":
        return choose_sars(view, seat, samples, budget, rng)
    if phase == "play":
        return choose_card(view, seat, samples, budget, rng)
    return view["legal"][0]
