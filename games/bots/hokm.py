"""Hokm bots (hokm4, hokm2): determinized Monte Carlo search on the engine's fast path.

Every decision starts from the seat's view only. The cards the seat has not
seen are dealt at random, consistently with what it saw (its own hand, every
card played this round, the voids shown by not following suit (C-3), the
cards a last hand showed it lacks by letting the other side's card stand
(C-4), a hakem long in his trump (H4-2, read loosely), the middle card of
H4-X1, a run of H4-X3, in hokm2 the first cards it refused in the draft);
each such deal is played out to the round's end (H4-4) by ``plain_policy``,
in which every seat plays from what it can see; the action with the best
average wins. Touching cards are searched once, and a candidate is dropped
as soon as it is clearly behind on the same worlds, so that close decisions
get the budget. The trump (H4-2, H2-3, with three times the budget) and the
hokm2 draft (H2-4) are decided the same way, from the cards still to come.
"""

from __future__ import annotations

from games.engine import hokm_fast as hf
from games.engine.cards import CARD_INDEX, SUITS
from games.engine.seats import partner

from . import careful, hokm_dd
from .clock import Budget
from .rng import Rng

BIT = hf.BIT
SUIT_OF = hf.SUIT_OF
SUIT_MASK = hf.SUIT_MASK
NEXT = hf.NEXT
TEAM = hf.TEAM
FULL = hf.FULL
WIN = hf.TRICKS_TO_WIN
MATE = tuple(partner(i + 1, 4) - 1 for i in range(4))
OTHER2 = NEXT[2]
TRUMP_BUDGET = 3.0
READ_PLAIN = True  # read the opponents' cards as if they played ``plain_policy`` (see ``_plain_reads``)
TRUMP_DD = False  # name hokm4's trump by double dummy at the strong level (``hokm_dd.choose_trump``): no gain measured
HAKEM_TRUMPS = 3  # the least trumps a hakem is dealt in the bot's samples


def _top(m: int) -> int:
    """The highest card of a one-suit mask (the lowest bit)."""
    return (m & -m).bit_length() - 1


def _low(m: int) -> int:
    """The lowest card of a one-suit mask (the highest bit)."""
    return m.bit_length() - 1


def _bits(m: int):
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def _beats(cands: int, best: int, trump: int) -> bool:
    """Does some card of ``cands`` beat ``best`` (C-4)? ``best`` is of the suit led or a trump."""
    bs = SUIT_OF[best]
    if cands & SUIT_MASK[bs] & ((1 << best) - 1):
        return True
    return bs != trump and bool(cands & SUIT_MASK[trump])


def _answers(hand: int, led: int) -> int:
    return hand & SUIT_MASK[led] or hand


# ------------------------------------------------------------ the playout policy


def policy(fs: hf.FastHokm) -> int:
    """A sensible card for the seat to act, knowing every hand (a playout's policy)."""
    legal = hf.legal_mask(fs)
    if not legal & (legal - 1):
        return _top(legal)
    if not fs.trick:
        return _lead(fs, legal)
    n = fs.n
    i = fs.turn
    side = TEAM[n]
    trump = fs.trump
    led = SUIT_OF[fs.trick[0][1]]
    best = fs.best
    hands = fs.hands
    opp_after = []
    s = NEXT[n][i]
    for _ in range(n - 1 - len(fs.trick)):
        if side[s] != side[i]:
            opp_after.append(_answers(hands[s], led))
        s = NEXT[n][s]
    if side[fs.best_seat] == side[i] and not any(_beats(a, best, trump) for a in opp_after):
        return _dump(legal, trump)
    bs = SUIT_OF[best]
    win = legal & SUIT_MASK[bs] & ((1 << best) - 1)
    if bs != trump:
        win |= legal & SUIT_MASK[trump]
    if win:
        # the cheapest winner the opponents still to play cannot beat: suit cards low first, then trumps
        order = []
        follow = win & ~SUIT_MASK[trump]
        for m in (follow, win & SUIT_MASK[trump]):
            order.extend(reversed(list(_bits(m))))
        for c in order:
            if not any(_beats(a, c, trump) for a in opp_after):
                return c
    return _dump(legal, trump)


def _dump(legal: int, trump: int) -> int:
    """The lowest card, not a trump if possible, from the shortest suit on equal ranks."""
    plain = legal & ~SUIT_MASK[trump]
    pool = plain or legal
    best, key = -1, None
    for s in range(4):
        m = pool & SUIT_MASK[s]
        if m:
            c = _low(m)
            k = (c % 13, -m.bit_count())
            if key is None or k > key:
                best, key = c, k
    return best


def _lead(fs: hf.FastHokm, legal: int) -> int:
    n = fs.n
    i = fs.turn
    side = TEAM[n]
    trump = fs.trump
    tm = SUIT_MASK[trump]
    hands = fs.hands
    opps = [hands[s] for s in range(n) if side[s] != side[i]]
    mate = hands[MATE[i]] if n == 4 else 0
    mine = hands[i] & legal
    opp_trumps = 0
    for h in opps:
        opp_trumps |= h & tm
    my_trumps = mine & tm
    # 1. draw trumps with the top trump
    if my_trumps and opp_trumps and _top(my_trumps) < _top(opp_trumps):
        return _top(my_trumps)
    # 2. cash a top card of a plain suit nobody can cut
    cash = -1
    cash_len = -1
    entry = -1
    for s in range(4):
        if s == trump:
            continue
        sm = SUIT_MASK[s]
        m = mine & sm
        if not m:
            continue
        safe = all((h & sm) or not (h & tm) for h in opps)
        if not safe:
            continue
        their = 0
        for h in opps:
            their |= h & sm
        c = _top(m)
        if not their or c < _top(their):
            if m.bit_count() > cash_len:
                cash, cash_len = c, m.bit_count()
        elif mate & sm and _top(mate & sm) < _top(their):
            entry = _low(m)
    if cash >= 0:
        return cash
    if entry >= 0:
        return entry
    # 3. low from the longest plain suit
    best, key = -1, None
    for s in range(4):
        if s == trump:
            continue
        m = mine & SUIT_MASK[s]
        if m:
            c = _low(m)
            k = (m.bit_count(), c % 13)
            if key is None or k > key:
                best, key = c, k
    if best >= 0:
        return best
    return _low(mine)


def plain_policy(fs: hf.FastHokm) -> int:
    """A card from what the seat itself can see (its hand and the trick), the way a table plays.

    Lead a plain ace, else the cheapest card; follow by letting the partner's
    winning card stand, else winning with the cheapest card that wins, else
    the cheapest card (plain suits before trumps, low before high).
    """
    legal = hf.legal_mask(fs)
    if not legal & (legal - 1):
        return _top(legal)
    trump = fs.trump
    tm = SUIT_MASK[trump]
    if not fs.trick:
        aces = legal & ACES & ~tm
        if aces:
            return _top(aces)
        return _cheapest(legal, tm)
    i = fs.turn
    n = fs.n
    if n == 4 and fs.best_seat == MATE[i]:
        return _cheapest(legal, tm)
    best = fs.best
    bs = SUIT_OF[best]
    win = legal & SUIT_MASK[bs] & ((1 << best) - 1)
    if bs != trump:
        win |= legal & tm
    if win:
        plain = win & ~tm
        return _low(plain & SUIT_MASK[bs]) if plain else _low(win)
    return _cheapest(legal, tm)


ACES = BIT[0] | BIT[13] | BIT[26] | BIT[39]


def _cheapest(legal: int, tm: int) -> int:
    """The lowest plain card (by rank, over the suits), else the lowest trump."""
    pool = legal & ~tm or legal
    best, rank = -1, -1
    for sh in (0, 13, 26, 39):
        m = (pool >> sh) & 0x1FFF
        if m:
            r = m.bit_length() - 1
            if r > rank:
                best, rank = sh + r, r
    return best


PLAYOUT = "plain"  # which policy plays the seats in a playout (see ``playout``)


def playout(fs: hf.FastHokm, me_side: int = -1) -> tuple[int, int]:
    """Play on (in place) to the round's end; the tricks per side.

    "plain" (the default): every seat plays ``plain_policy``, from what it
    can see. Measured in the duplicate arena, this models a table better than
    the full-sight ``policy`` does ("sight": everybody sees every card;
    "mixed": the seats of ``me_side`` see every card, the others play plain),
    and it is cheaper, so more worlds fit in a budget.
    """
    play = hf.play
    if PLAYOUT == "plain" or me_side < 0 and PLAYOUT == "mixed":
        while not fs.over:
            play(fs, plain_policy(fs))
    elif PLAYOUT == "sight":
        while not fs.over:
            play(fs, policy(fs))
    else:
        side = TEAM[fs.n]
        while not fs.over:
            play(fs, policy(fs) if side[fs.turn] == me_side else plain_policy(fs))
    return fs.tricks[0], fs.tricks[1]


TRICK_BONUS = 0.06
"""A playout's worth beyond won or lost, per trick of margin: it ranks the lines of a round
already won or lost, and it sharpens the pruning. Measured in the duplicate arena against
``auto_action`` (200 worlds, no wall-clock cut, paired on the same deals): 0 won 4 points fewer
rounds than 0.03 (200 deals); 0.06 won about one point more (400 deals, within the noise) and
decides faster."""


def _value(tricks, side) -> float:
    mine, theirs = tricks[side], tricks[1 - side]
    return (1.0 if mine >= WIN else 0.0) + TRICK_BONUS * (mine - theirs)


# ------------------------------------------------------------ what the seat knows


class _Knowledge:
    """The seat's view of a play-phase round as masks: what is known, what must be dealt."""

    def __init__(self, view: dict, seat: int, reads: bool = True):
        n = view["players"]
        me = seat - 1
        self.n = n
        self.me = me
        self.trump = view["trump"]
        t = SUITS.index(view["trump"])
        counts = list(view["hand_counts"])
        known = [0] * n
        early = view.get("early") or [False] * n
        self.early_unknown = [bool(early[p]) and p != me for p in range(n)]
        for p in range(n):
            if self.early_unknown[p]:
                counts[p] += 1
        known[me] = hf.cards_to_mask(view["hand"])
        my_early = view.get("my_early")
        self.my_early = my_early
        if my_early:
            known[me] |= BIT[CARD_INDEX[my_early]]
        middle = view.get("middle")
        if middle is not None and n == 4:
            mate = MATE[view["hakem"] - 1]
            known[mate] |= BIT[CARD_INDEX[middle]]
        run = view.get("run")
        self.run = run
        if run:
            known[run["seat"] - 1] |= hf.cards_to_mask(run["cards"])
            if run["seat"] - 1 != me:
                counts[run["seat"] - 1] += len(run["cards"])
        past = view.get("past_tricks") or []
        played = 0
        voids = [0] * n
        tricks = [[(x["seat"] - 1, CARD_INDEX[x["card"]]) for x in tr["cards"]] for tr in past]
        self.trick = [(x["seat"] - 1, CARD_INDEX[x["card"]]) for x in view["trick"]]
        for tr in tricks:
            for _, c in tr:
                played |= BIT[c]
        self.played_past = played
        for tr in tricks + [self.trick]:
            if not tr:
                continue
            led = SUIT_OF[tr[0][1]]
            for s, c in tr:
                played |= BIT[c]
                if SUIT_OF[c] != led:
                    voids[s] |= SUIT_MASK[led]
        for tr in tricks:
            self._last_hand(tr, voids, n, t)
        self.hard_voids = list(voids)
        rules = view.get("rules") or {}
        if reads and READ_PLAIN and not (rules.get("early_play") or rules.get("lead_run")):
            mine_side = TEAM[n][me]
            for tr in tricks + [self.trick]:
                self._plain_reads(tr, voids, n, t, mine_side)
        seen = played | known[me]
        for m in known:
            seen |= m
        self.pool = [c for c in range(52) if not seen >> c & 1]
        self.need = [0 if p == me else counts[p] - (known[p] & ~played).bit_count() for p in range(n)]
        self.known = known
        self.voids = voids
        self.t = t
        self.view = view
        # the hakem named the trump from his first five cards (H4-2): he is long in it, read loosely
        hk = view["hakem"] - 1
        self.hakem_trumps = -1
        if hk != me and view.get("middle") is None:
            gone = sum(1 for tr in tricks + [self.trick] for s, c in tr if s == hk and SUIT_OF[c] == t)
            self.hakem_trumps = max(0, HAKEM_TRUMPS - gone)
        self.hakem = hk

    @staticmethod
    def _last_hand(tr, voids, n, trump):
        """The last hand of a trick wins it when it can, against the other side (every trick counts).

        So if it let the other side's card stand, it held no card that beat it:
        no higher card of the suit led, or, void there, no (high enough) trump.
        These cards join the seat's ``voids`` (the cards it cannot hold).
        """
        if len(tr) != n:
            return
        side = TEAM[n]
        led = SUIT_OF[tr[0][1]]
        best_seat, best = tr[0]
        for s, c in tr[1 : n - 1]:
            if (SUIT_OF[c] == SUIT_OF[best] and c < best) or (SUIT_OF[c] == trump and SUIT_OF[best] != trump):
                best_seat, best = s, c
        last, card = tr[n - 1]
        if side[last] == side[best_seat]:
            return
        if (SUIT_OF[card] == SUIT_OF[best] and card < best) or (
            SUIT_OF[card] == trump and SUIT_OF[best] != trump
        ):
            return  # it won
        bs = SUIT_OF[best]
        if SUIT_OF[card] == led:
            if bs == led:
                voids[last] |= SUIT_MASK[led] & ((1 << best) - 1)
        elif bs == trump:
            voids[last] |= SUIT_MASK[trump] & ((1 << best) - 1)
        else:
            voids[last] |= SUIT_MASK[trump]

    @staticmethod
    def _plain_reads(tr, voids, n, trump, mine_side):
        """What the opponents' cards say if they play as ``plain_policy`` models them.

        A leader who led anything but a plain ace held none; a follower whose
        partner was not winning, and who did not win, held no card that won.
        """
        if not tr:
            return
        side = TEAM[n]
        lead_seat, lead = tr[0]
        plain_aces = ACES & ~SUIT_MASK[trump]
        if side[lead_seat] != mine_side and not (plain_aces & BIT[lead]):
            voids[lead_seat] |= plain_aces
        led = SUIT_OF[lead]
        best_seat, best = tr[0]
        for s, c in tr[1:]:
            beats = (SUIT_OF[c] == SUIT_OF[best] and c < best) or (
                SUIT_OF[c] == trump and SUIT_OF[best] != trump
            )
            if side[s] != mine_side and not (n == 4 and best_seat == MATE[s]) and not beats:
                bs = SUIT_OF[best]
                if SUIT_OF[c] == led:
                    if bs == led:
                        voids[s] |= SUIT_MASK[led] & ((1 << best) - 1)
                elif bs == trump:
                    voids[s] |= SUIT_MASK[trump] & ((1 << best) - 1)
                else:
                    voids[s] |= SUIT_MASK[trump]
            if beats:
                best_seat, best = s, c

    def deal(self, rng: Rng) -> list[int]:
        """Hands for every seat (0-based) with the unseen cards dealt at random, voids kept."""
        order = sorted((p for p in range(self.n) if p != self.me), key=lambda p: -self.voids[p].bit_count())
        pool = list(self.pool)
        for attempt in range(30):
            if self.n == 2 and DRAFTED:
                pool = _drafted_order(self.pool, self.t, rng)
            else:
                rng.shuffle(pool)
            hands = list(self.known)
            rest = pool
            ok = True
            for p in order:
                need = self.need[p]
                void = self.voids[p] if attempt < 15 else self.hard_voids[p] if attempt < 29 else 0
                keep = []
                m = 0
                for c in rest:
                    if need and not void >> c & 1:
                        m |= BIT[c]
                        need -= 1
                    else:
                        keep.append(c)
                rest = keep
                if need:
                    ok = False
                    break
                hands[p] |= m
            if ok and attempt < 20 and self.hakem_trumps > 0:
                ok = (hands[self.hakem] & SUIT_MASK[self.t]).bit_count() >= self.hakem_trumps
            if ok:
                return hands
        raise ValueError("no deal fits what the seat saw")

    def fast(self, hands: list[int], rng: Rng) -> hf.FastHokm:
        """A ``FastHokm`` at the seat's decision with these hands (the cards on the table replayed)."""
        v = self.view
        n = self.n
        fs = hf.FastHokm.__new__(hf.FastHokm)
        fs.n = n
        fs.trump = self.t
        fs.hakem = v["hakem"] - 1
        fs.tricks = list(v["score"]["tricks"])
        fs.over = False
        fs.played = self.played_past
        fs.early = [-1] * n
        run = self.run
        fs.run_seat = run["seat"] - 1 if run else -1
        fs.run = [CARD_INDEX[c] for c in run["cards"]] if run else []
        fs.hands = list(hands)
        fs.trick = []
        fs.best = fs.best_seat = -1
        fs.leader = v["leader"] - 1
        for s, c in self.trick:
            fs.hands[s] |= BIT[c]
            fs.turn = s
            hf.play(fs, c)
        fs.turn = v["turn"] - 1
        if self.trick:
            led = SUIT_MASK[SUIT_OF[self.trick[0][1]]]
            for p in range(n):
                if self.early_unknown[p]:
                    m = fs.hands[p]
                    fs.early[p] = hf._random_bit(m & led or m, rng.random)
            if self.my_early:
                fs.early[self.me] = CARD_INDEX[self.my_early]
        return fs


CARDS = hf.CARDS

DRAFT_WEIGHT = 3.6
"""hokm2 (H2-4): how much likelier a good card (a trump, or a ten or better:
what a drafter takes when he sees it) is to sit in a drafted hand than any
other unseen card. Measured over 400 deals drafted by ``auto_action`` on both
sides: when play starts the opponent holds 9.4 good cards of his 13; dealt
uniformly from the cards a seat has not seen he would hold 6.1, with this
weight 9.4 (the put-aside cards are the poorer for it)."""
DRAFTED = True
SECOND_UNIFORM = True
"""hokm2 draft (H2-4): the refused card's unseen second card is drawn uniformly from every unseen
card before the drafted hands are dealt (it was drawn from the cards the drafted hands left, the
poorer ones, which made refusing look worse than it is)."""


def _good(c: int, t: int) -> bool:
    return c % 13 <= 4 or SUIT_OF[c] == t


def _drafted_order(cards, t: int, rng: Rng | None = None, draws=None) -> list[int]:
    """``cards`` in a random order in which good cards come early ``DRAFT_WEIGHT``
    times as readily (Efraimidis and Spirakis's weighted sampling without
    replacement): the first k are k cards of a drafted hand. ``draws``: one
    uniform per card, given (the same world ordered for several trumps), else
    drawn from ``rng``."""
    inv = 1.0 / DRAFT_WEIGHT
    if draws is None:
        draws = [rng.random() for _ in cards]
    keyed = [(u**inv if _good(c, t) else u, c) for u, c in zip(draws, cards, strict=True)]
    keyed.sort(reverse=True)
    return [c for _, c in keyed]


# ------------------------------------------------------------ decisions


def _search(candidates, base, branch, samples: int, budget: Budget, side: int, prior=None):
    """The candidate with the best average value over common sampled worlds.

    ``base(k)`` draws the k-th world, ``branch(world, j)`` makes a fresh fast
    state of candidate ``j`` in it. The search stops at ``samples`` worlds or
    at the budget, and drops a candidate as soon as it is clearly worse than
    the leader (paired differences over the same worlds), so that clear
    decisions cost little and close ones get the budget. ``prior`` adds a small
    bonus per candidate (a heuristic that breaks near ties).
    """
    n = len(candidates)
    if n == 1:
        return candidates[0]
    alive = list(range(n))
    vals = [[] for _ in range(n)]
    done = 0
    while done < samples and not (done >= 2 and budget.over()):
        world = base(done)
        for j in alive:
            vals[j].append(_value(playout(branch(world, j), side), side))
        done += 1
        if done >= 12 and done % 6 == 0:
            alive = _prune(alive, vals, done, prior)
            if len(alive) == 1:
                break
    return candidates[_leader(alive, vals, prior)]


PRUNE_SE = 2.5  # a candidate this many standard errors behind the leader is dropped (``_prune``)


def _leader(alive, vals, prior):
    bonus = prior or {}
    return max(alive, key=lambda j: sum(vals[j]) / max(1, len(vals[j])) + bonus.get(j, 0.0))


def _prune(alive, vals, done, prior):
    lead = _leader(alive, vals, prior)
    lv = vals[lead]
    keep = []
    for j in alive:
        if j == lead:
            keep.append(j)
            continue
        d = [a - b for a, b in zip(lv, vals[j], strict=True)]
        m = sum(d) / done
        var = sum((x - m) ** 2 for x in d) / (done - 1)
        if var == 0.0:
            if done >= 24:
                continue  # the same value in every world: an equivalent card, keep the leader
        elif m * m * done > PRUNE_SE * PRUNE_SE * var and m > 0:  # more than PRUNE_SE standard errors behind
            continue
        keep.append(j)
    return keep


def _equivalent_groups(cards: list[int], gone: int) -> list[int]:
    """One representative (the lowest) of each run of touching cards of ``cards``.

    Two cards of a suit touch when every card ranked between them is ours too
    or already played (``gone``): they win and lose the same tricks.
    """
    mine = 0
    for c in cards:
        mine |= BIT[c]
    reps = []
    for c in cards:
        nxt = c + 1  # the next lower card of the suit
        while nxt < 52 and SUIT_OF[nxt] == SUIT_OF[c] and gone >> nxt & 1 and not mine >> nxt & 1:
            nxt += 1
        if nxt < 52 and SUIT_OF[nxt] == SUIT_OF[c] and mine >> nxt & 1:
            continue  # a lower card of ours touches this one: it stands for both
        reps.append(c)
    return reps


def choose_card(view: dict, seat: int, samples: int, budget: Budget, rng: Rng, dd: bool = False) -> dict:
    legal = view["legal"]
    plays = [a for a in legal if a["type"] == "play"]
    if not plays:
        return legal[0]
    if len(plays) == 1:
        return plays[0]
    use_dd = dd and hokm_dd.applicable(view)
    know = _Knowledge(view, seat, reads=not use_dd or hokm_dd.READ_PLAIN)
    side = TEAM[know.n][seat - 1]
    gone = know.played_past
    for _s, c in know.trick:
        gone |= BIT[c]
    all_cards = [CARD_INDEX[a["card"]] for a in plays]
    cards = _equivalent_groups(all_cards, gone)
    if len(cards) == 1:
        best = cards[0]
    elif use_dd:
        # perfect-information Monte Carlo: each sampled world solved double dummy (``hokm_dd``);
        # the careful player's card breaks a tie (cards of the same worth in every world)
        pick = CARD_INDEX[careful.choose_card(view, seat)["card"]]
        prior = {j: hokm_dd.CAREFUL_PRIOR for j, c in enumerate(cards) if c == pick}
        best = hokm_dd.search(know, cards, side, samples, budget, rng, prior)
    else:

        def base(_k):
            return know.fast(know.deal(rng), rng)

        def branch(world, j):
            fs = world.copy()
            hf.play(fs, cards[j])
            return fs

        best = _search(cards, base, branch, samples, budget, side)
    run = _run_to_lead(view, know, side, best)
    if run is not None:
        return run
    return {"type": "play", "card": CARDS[best]}


def _run_to_lead(view: dict, know: _Knowledge, side: int, best: int):
    """H4-X3: a run the bot leads instead of its chosen card, or None.

    Only a run of sure winners: the highest trumps still out always are; an
    A K Q of a plain suit is when no opponent can hold a trump (none unseen,
    or each opponent has shown a void in trumps). The bot leads it when its
    search chose one of the run's cards anyway (it cashes the same winners,
    and the others learn nothing they would not see trick by trick), or when
    the run's tricks win the round at once (H4-4). The longest such run.
    """
    runs = [a for a in view["legal"] if a["type"] == "run"]
    if not runs:
        return None
    tricks = view["score"]["tricks"][side]
    chosen = None
    for action in runs:
        cards = [CARD_INDEX[c] for c in action["cards"]]
        if not _sure_winners(know, side, cards):
            continue
        if best in cards or tricks + len(cards) >= WIN:
            if chosen is None or len(action["cards"]) > len(chosen["cards"]):
                chosen = action
    return {"type": "run", "cards": list(chosen["cards"])} if chosen else None


def _sure_winners(know: _Knowledge, side: int, cards: list[int]) -> bool:
    tm = SUIT_MASK[know.t]
    if SUIT_OF[cards[0]] == know.t:
        return True  # the highest trumps still out (the engine lists no other trump run)
    unseen_trumps = any(tm >> c & 1 for c in know.pool)
    for p in range(know.n):
        if TEAM[know.n][p] == side:
            continue
        if know.known[p] & tm & ~know.played_past:
            return False
        if unseen_trumps and know.hard_voids[p] & tm != tm:
            return False
    return True


def _round_fast(n, hands, trump, hakem) -> hf.FastHokm:
    fs = hf.FastHokm.__new__(hf.FastHokm)
    fs.n = n
    fs.hands = hands
    fs.trump = trump
    fs.turn = fs.leader = fs.hakem = hakem
    fs.trick = []
    fs.best = fs.best_seat = -1
    fs.tricks = [0, 0]
    fs.played = 0
    fs.early = [-1] * n
    fs.run_seat = -1
    fs.run = []
    fs.over = False
    return fs


def _deal_rest(rng, n, me, mine, extra_mine, pool, sizes):
    """My hand plus ``extra_mine`` random cards; the others ``sizes[p]`` random cards each."""
    pool = list(pool)
    rng.shuffle(pool)
    hands = [0] * n
    hands[me] = mine
    k = 0
    for _ in range(extra_mine):
        hands[me] |= BIT[pool[k]]
        k += 1
    for p in range(n):
        if p == me:
            continue
        for _ in range(sizes[p]):
            hands[p] |= BIT[pool[k]]
            k += 1
    return hands, pool[k:]


def choose_trump(view: dict, seat: int, samples: int, budget: Budget, rng: Rng, dd: bool = False) -> dict:
    """H4-2 / H2-3: the trump whose sampled deals the hakem's side wins best."""
    legal = view["legal"]
    n = view["players"]
    me = seat - 1
    mine = hf.cards_to_mask(view["hand"])
    pool = [c for c in range(52) if not mine >> c & 1]
    extra = 13 - mine.bit_count()
    side = TEAM[n][me]
    mate = MATE[me]

    # a suit the hakem holds no card of is never the better trump: fewer candidates, more worlds each
    cands = [a for a in legal if a["suit"] == "middle" or mine & SUIT_MASK[SUITS.index(a["suit"])]] or legal
    prior = {j: 0.006 * _suit_strength(mine, a["suit"]) for j, a in enumerate(cands) if a["suit"] != "middle"}

    if dd and n == 4 and TRUMP_DD and hokm_dd.HAVE_DDS:  # issue 38: each sampled deal solved double dummy
        dd_prior = {
            j: hokm_dd.TRUMP_PRIOR * _suit_strength(mine, a["suit"])
            for j, a in enumerate(cands)
            if a["suit"] != "middle"
        }
        return hokm_dd.choose_trump(view, seat, samples, budget, rng, cands, dd_prior)

    drafted = n == 2 and DRAFTED  # H2-4: both hands are drafted after the trump, good cards kept

    def base(_k):
        if drafted:  # one draw per card; each trump orders them (the same worlds for every trump)
            return [rng.random() for _ in pool]
        hands, _rest = _deal_rest(rng, n, me, mine, extra, pool, [13] * n)
        return hands

    def branch(world, j):
        suit = cands[j]["suit"]
        if drafted:
            t = SUITS.index(suit)
            order = _drafted_order(pool, t, draws=world)
            hands = [0, 0]
            hands[me] = mine | hf.cards_to_mask(CARDS[c] for c in order[:extra])
            hands[OTHER2[me]] = hf.cards_to_mask(CARDS[c] for c in order[extra : extra + 13])
            return _round_fast(n, hands, t, me)
        if suit == "middle":  # H4-X1: the suit of the partner's third card, one of his first five
            t = SUIT_OF[hf._random_bit(world[mate], rng.random)]
        else:
            t = SUITS.index(suit)
        return _round_fast(n, list(world), t, me)

    return _search(cands, base, branch, samples, budget, side, prior)


def _suit_strength(mine: int, suit: str) -> int:
    """Cards of the suit plus honours (A 4, K 3, Q 2, J 1): a tie-break between close trumps."""
    m = mine & SUIT_MASK[SUITS.index(suit)]
    score = 0
    for c in _bits(m):
        score += 4 + max(0, 4 - c % 13)
    return score


def _draft_world(pool: list[int], left: int, t: int, rng: Rng):
    """One world of a draft decision (H2-4): my ``left - 1`` pairs' cards to come, the opponent's 13
    and the current pair's unseen second card, from the cards this seat has not seen."""
    if DRAFTED and SECOND_UNIFORM:
        # the unseen second card is any unseen card (nobody chose it, the deal put it there):
        # drawn first, uniformly; then the pairs to come and the opponent's hand, drafted
        # hands, from the cards left
        k = rng.randrange(len(pool))
        cards = _drafted_order(pool[:k] + pool[k + 1 :], t, rng)
        return cards[: left - 1], cards[left - 1 : left + 12], pool[k]
    if DRAFTED:
        # before: the second card drawn from what the drafted hands left (the poorer cards)
        cards = _drafted_order(pool, t, rng)
        rest_cards = cards[left + 12 :]
        return cards[: left - 1], cards[left - 1 : left + 12], rest_cards[rng.randrange(len(rest_cards))]
    cards = list(pool)
    rng.shuffle(cards)
    # cards[0] stands for the unseen second card, cards[1:left] for the pairs to come
    return cards[1:left], cards[left : left + 13], cards[0]


def choose_draft(view: dict, seat: int, samples: int, budget: Budget, rng: Rng) -> dict:
    """H2-4: take the card shown, or refuse it for the unseen second card, by sampled play."""
    me = seat - 1
    first = CARD_INDEX[view["draft_card"]]
    mine = hf.cards_to_mask(view["hand"])
    # The cards this seat refused earlier are in no view (H2-6: shown to nobody), so the bot
    # does not know them either: they stay in the pool like every unseen card.
    seen = mine | BIT[first]
    pool = [c for c in range(52) if not seen >> c & 1]
    left = view["pairs_left"][me]
    t = SUITS.index(view["trump"])
    hakem = view["hakem"] - 1
    side = TEAM[2][me]
    take = {"type": "draft", "take": True}
    refuse = {"type": "draft", "take": False}

    def base(_k):
        mine_later, other_cards, second = _draft_world(pool, left, t, rng)
        rest = hf.cards_to_mask(CARDS[c] for c in mine_later)
        other = hf.cards_to_mask(CARDS[c] for c in other_cards)
        return rest, other, second

    def branch(world, j):
        rest, other, second = world
        hands = [0, 0]
        hands[me] = mine | rest | BIT[first if j == 0 else second]
        hands[OTHER2[me]] = other
        return _round_fast(2, hands, t, hakem)

    return _search([take, refuse], base, branch, samples, budget, side)


def choose(view: dict, seat: int, samples: int, budget: Budget, rng: Rng, dd: bool = False) -> dict:
    """The seat's action; ``dd``: play the cards of hokm4 by double-dummy search (``hokm_dd``)."""
    phase = view["phase"]
    if phase == "trump":
        # once a round, and the round turns on it: three times the budget
        return choose_trump(view, seat, samples, budget.scaled(TRUMP_BUDGET), rng, dd)
    if phase == "draft":
        return choose_draft(view, seat, samples, budget, rng)
    if phase == "play":
        return choose_card(view, seat, samples, budget, rng, dd)
    return view["legal"][0]
