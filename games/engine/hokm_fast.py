"""A bitmask fast path of Hokm's play phase, for bots (hokm4 and hokm2).

A card is one bit: bit ``cards.CARD_INDEX[c]``. ``DECK52`` runs suit by suit
(S H D C) and A..2 inside a suit, so suit ``s`` holds bits ``13*s .. 13*s+12``
and, inside a suit, a lower bit is a higher card (C-1). A hand is an int.

Seats here are 0-based indices (``seat - 1``), tables of neighbours and
sides are built from ``seats.py`` (C-2), and trick winners follow C-4 with
the same answers as ``tricks.winning_index`` (``check_against_public`` and the
tests prove it on random games).

What a bot search needs:

- ``from_state(state, seat=None, rng=None)``: a ``FastHokm`` from a public-API
  state in the play phase. Without ``seat`` it sees every card (analysis,
  tests); with ``seat`` it keeps that seat's hand and what is public and
  deals the cards the seat cannot see at random to the others (one
  determinization; voids shown in earlier tricks are not kept).
- ``legal_mask(fs)``, ``play(fs, card_index)`` (in place; ``fs.copy()``
  first to branch), ``rollout(fs, rng)`` (random legal cards to the round's
  end; returns the winning side).
- ``check_against_public(game, state, rng)``: plays a round on through the
  public API and the fast path side by side and raises at the first
  disagreement (legal cards, turn, trick winner, tricks per side).
- ``random_rounds(name, count, rng)``: ``count`` complete random rounds from a
  shuffled deal, for benchmarks.

``rng`` is always a ``random.Random`` (or alike) the caller passes in; this
module imports no randomness (C-5).
"""

from __future__ import annotations

from .cards import CARD_INDEX, SUITS
from .errors import IllegalAction
from .seats import in_order_from, next_seat, partner, team_of

CARDS = tuple(sorted(CARD_INDEX, key=CARD_INDEX.get)[:52])  # bit -> card string
BIT = tuple(1 << i for i in range(52))
SUIT_OF = tuple(i // 13 for i in range(52))
SHIFT_OF = tuple(13 * (i // 13) for i in range(52))
SHIFTS = (0, 13, 26, 39)
SUIT_MASK = tuple(0x1FFF << sh for sh in SHIFTS)
SUIT_NUMBER = {s: i for i, s in enumerate(SUITS)}
IS_TWO = tuple(CARDS[i][0] == "2" for i in range(52))
FULL = (1 << 52) - 1
BITS13 = tuple(tuple(r for r in range(13) if m >> r & 1) for m in range(8192))
"""For a 13-bit suit pattern, the set bits low to high (high card first)."""

TRICKS_TO_WIN = 7  # H4-4


def _tables(n):
    nxt = tuple(next_seat(i + 1, n) - 1 for i in range(n))
    side = tuple(team_of(i + 1, n) for i in range(n))
    return nxt, side


NEXT = {n: _tables(n)[0] for n in (2, 4)}
TEAM = {n: _tables(n)[1] for n in (2, 4)}


def _d2_owners(hakem):
    """D-2: the seat index that receives each position of the deal's permutation."""
    order = [s - 1 for s in in_order_from(hakem + 1, 4)]
    owners = [0] * 52
    for k, seat in enumerate(order):
        for pos in range(5 * k, 5 * k + 5):
            owners[pos] = seat
        for pos in list(range(20 + 4 * k, 24 + 4 * k)) + list(range(36 + 4 * k, 40 + 4 * k)):
            owners[pos] = seat
    return tuple(owners)


OWNERS4 = tuple(_d2_owners(h) for h in range(4))


def cards_to_mask(cards) -> int:
    m = 0
    for c in cards:
        m |= BIT[CARD_INDEX[c]]
    return m


def mask_to_cards(mask: int) -> list[str]:
    out = []
    for sh in SHIFTS:
        for r in BITS13[(mask >> sh) & 8191]:
            out.append(CARDS[sh + r])
    return out


def _random_bit(mask: int, rnd) -> int:
    """A uniformly chosen set bit of a non-zero ``mask`` (its index)."""
    k = int(rnd() * mask.bit_count())
    for sh in SHIFTS:
        t = BITS13[(mask >> sh) & 8191]
        if k < len(t):
            return sh + t[k]
        k -= len(t)
    raise ValueError("empty mask")


# ------------------------------------------------------------ random rounds


def random_rounds(name: str, count: int, rng) -> int:
    """Play ``count`` complete random rounds of ``name``; returns how many the hakem's side won.

    Each round: a shuffled deal (D-2 or D-3), a random trump, random draft
    choices (hokm2), then random legal cards until a side has 7 tricks
    (H4-4). The hakem moves as H4-7 says.
    """
    if name == "hokm4":
        return _random_rounds4(count, rng)
    if name == "hokm2":
        return _random_rounds2(count, rng)
    raise IllegalAction("unknown_game", f"No fast path for {name!r}.")


def _random_rounds4(count, rng):
    rnd = rng.random
    bits13, bit, suit_of, shift_of = BITS13, BIT, SUIT_OF, SHIFT_OF
    nxt, side = NEXT[4], TEAM[4]
    deck = list(range(52))
    hakem = 0
    hakem_wins = 0
    for _ in range(count):
        hands = [0, 0, 0, 0]
        own = OWNERS4[hakem]
        for i in range(51, 0, -1):  # Fisher-Yates, dealing position i as it is fixed
            j = int(rnd() * (i + 1))
            c = deck[j]
            deck[j] = deck[i]
            deck[i] = c
            hands[own[i]] |= bit[c]
        hands[own[0]] |= bit[deck[0]]
        trump = int(rnd() * 4)
        tricks = [0, 0]
        leader = hakem
        while True:
            h = hands[leader]
            k = int(rnd() * h.bit_count())
            for sh in SHIFTS:
                t = bits13[(h >> sh) & 8191]
                if k < len(t):
                    c = sh + t[k]
                    break
                k -= len(t)
            hands[leader] = h ^ bit[c]
            led = suit_of[c]
            sh_led = shift_of[c]
            best, best_suit, winner = c, led, leader
            seat = leader
            for _f in (1, 2, 3):
                seat = nxt[seat]
                h = hands[seat]
                t = bits13[(h >> sh_led) & 8191]
                if t:  # C-3: follow suit
                    c = sh_led + t[int(rnd() * len(t))]
                    if best_suit == led and c < best:
                        best, winner = c, seat
                else:
                    k = int(rnd() * h.bit_count())
                    for sh in SHIFTS:
                        t = bits13[(h >> sh) & 8191]
                        if k < len(t):
                            c = sh + t[k]
                            break
                        k -= len(t)
                    if suit_of[c] == trump and (best_suit != trump or c < best):
                        best, best_suit, winner = c, trump, seat
                hands[seat] = h ^ bit[c]
            won = side[winner]
            tricks[won] += 1
            if tricks[won] == TRICKS_TO_WIN:
                break
            leader = winner
        if side[hakem] == won:
            hakem_wins += 1
        else:
            hakem = nxt[hakem]  # H4-7
    return hakem_wins


def _random_rounds2(count, rng):
    rnd = rng.random
    bits13, bit, suit_of, shift_of, is_two = BITS13, BIT, SUIT_OF, SHIFT_OF, IS_TWO
    nxt, side = NEXT[2], TEAM[2]
    deck = list(range(52))
    hakem = 0
    hakem_wins = 0
    for _ in range(count):
        for i in range(51, 0, -1):
            j = int(rnd() * (i + 1))
            c = deck[j]
            deck[j] = deck[i]
            deck[i] = c
        # D-3: drop the first two 2s; e[0:5] hakem, e[5:10] other, then the pairs.
        e = []
        twos = 0
        for c in deck:
            if twos < 2 and is_two[c]:
                twos += 1
            else:
                e.append(c)
        other = nxt[hakem]
        hands = [0, 0]
        a = b = 0
        for c in e[0:5]:
            a |= bit[c]
        for c in e[5:10]:
            b |= bit[c]
        trump = int(rnd() * 4)
        for i in range(10, 26, 2):  # H2-4: take the first card or the second
            a |= bit[e[i] if rnd() < 0.5 else e[i + 1]]
        for i in range(26, 42, 2):
            b |= bit[e[i] if rnd() < 0.5 else e[i + 1]]
        hands[hakem] = a
        hands[other] = b
        tricks = [0, 0]
        leader = hakem
        while True:
            h = hands[leader]
            k = int(rnd() * h.bit_count())
            for sh in SHIFTS:
                t = bits13[(h >> sh) & 8191]
                if k < len(t):
                    c = sh + t[k]
                    break
                k -= len(t)
            hands[leader] = h ^ bit[c]
            led = c
            sh_led = shift_of[c]
            seat = nxt[leader]
            h = hands[seat]
            t = bits13[(h >> sh_led) & 8191]
            winner = leader
            if t:
                c = sh_led + t[int(rnd() * len(t))]
                if c < led:
                    winner = seat
            else:
                k = int(rnd() * h.bit_count())
                for sh in SHIFTS:
                    t = bits13[(h >> sh) & 8191]
                    if k < len(t):
                        c = sh + t[k]
                        break
                    k -= len(t)
                if suit_of[c] == trump:
                    winner = seat
            hands[seat] = h ^ bit[c]
            won = side[winner]
            tricks[won] += 1
            if tricks[won] == TRICKS_TO_WIN:
                break
            leader = winner
        if side[hakem] == won:
            hakem_wins += 1
        else:
            hakem = nxt[hakem]
    return hakem_wins


# ------------------------------------------------------------ compact state


class FastHokm:
    """The play phase of one Hokm round as bitmasks (seats are 0-based)."""

    __slots__ = (
        "n",
        "hands",
        "trump",
        "turn",
        "leader",
        "hakem",
        "trick",
        "best",
        "best_seat",
        "tricks",
        "played",
        "early",
        "run_seat",
        "run",
        "over",
    )

    def copy(self) -> FastHokm:
        fs = FastHokm.__new__(FastHokm)
        fs.n = self.n
        fs.hands = list(self.hands)
        fs.trump = self.trump
        fs.turn = self.turn
        fs.leader = self.leader
        fs.hakem = self.hakem
        fs.trick = list(self.trick)
        fs.best = self.best
        fs.best_seat = self.best_seat
        fs.tricks = list(self.tricks)
        fs.played = self.played
        fs.early = list(self.early)
        fs.run_seat = self.run_seat
        fs.run = list(self.run)
        fs.over = self.over
        return fs

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        hands = " | ".join(" ".join(mask_to_cards(h)) for h in self.hands)
        return f"FastHokm(turn={self.turn}, trump={SUITS[self.trump]}, tricks={self.tricks}, hands={hands})"


def from_state(state, seat=None, rng=None) -> FastHokm:
    """A ``FastHokm`` of a public-API state in the play phase.

    ``seat=None``: every hand as it is (perfect information). With a seat
    (1-based) and an ``rng``: that seat's own cards, the public cards (the
    middle card of H4-X1, the rest of a run of H4-X3) where they belong, and
    every card the seat cannot see dealt at random to the others, as many as
    each holds. (Picking the middle card up, H4-X1, changes no card's place:
    the card was in the partner's hand all along; once ``state["middle"]``
    is None it is dealt like any unseen card.)
    """
    if state["phase"] != "play":
        raise IllegalAction("wrong_phase", "The fast path models the play phase only.")
    n = len(state["hands"])
    fs = FastHokm.__new__(FastHokm)
    fs.n = n
    fs.trump = SUIT_NUMBER[state["trump"]]
    fs.turn = state["turn"] - 1
    fs.leader = state["leader"] - 1
    fs.hakem = state["hakem"] - 1
    fs.tricks = list(state["tricks"])
    fs.over = False
    fs.played = cards_to_mask(state["won"][0]) | cards_to_mask(state["won"][1])
    early = state.get("early") or [None] * n
    fs.early = [-1 if c is None else CARD_INDEX[c] for c in early]
    run = state.get("run")
    fs.run_seat = run["seat"] - 1 if run else -1
    fs.run = [CARD_INDEX[c] for c in run["cards"]] if run else []
    hands = [cards_to_mask(h) for h in state["hands"]]
    for i, c in enumerate(fs.early):
        if c >= 0:
            hands[i] |= BIT[c]
    if fs.run_seat >= 0:
        hands[fs.run_seat] |= cards_to_mask(run["cards"])
    if seat is not None:
        hands = _determinize(state, hands, seat - 1, fs, rng)
    fs.hands = hands
    fs.trick = []
    fs.best = fs.best_seat = -1
    trick = state["trick"]
    if trick:  # replay the cards on the table to know who is winning
        fs.turn = trick[0][0] - 1
        saved = fs.hands
        fs.hands = list(saved)
        for s, c in trick:
            fs.hands[s - 1] |= BIT[CARD_INDEX[c]]
        for _, c in trick:
            play(fs, CARD_INDEX[c])
        fs.hands = saved
    return fs


def _determinize(state, hands, me, fs, rng):
    if rng is None:
        raise ValueError("from_state with a seat needs an rng to deal the unseen cards")
    n = fs.n
    known = [0] * n  # cards of other seats that `me` has seen
    middle = state.get("middle")
    if middle is not None:
        mate = partner(state["hakem"], 4) - 1
        known[mate] |= BIT[CARD_INDEX[middle]]
    if fs.run_seat >= 0:
        known[fs.run_seat] |= cards_to_mask(state["run"]["cards"])
    seen = hands[me] | fs.played | cards_to_mask(c for _, c in state["trick"])
    for m in known:
        seen |= m
    if "refused" in state:  # hokm2: first cards I refused, I saw them go aside
        seen |= cards_to_mask(state["refused"][me])
    pool = mask_to_cards(FULL & ~seen)
    rng.shuffle(pool)
    out = list(hands)
    for i in range(n):
        if i == me:
            continue
        need = hands[i].bit_count() - known[i].bit_count()
        m = known[i] | cards_to_mask(pool[:need])
        del pool[:need]
        out[i] = m
        if fs.early[i] >= 0:  # H4-X2: which card lies face down is unknown too
            led = CARD_INDEX[state["trick"][0][1]]
            # H4-X1: a middle card still face up is not the one laid early (laying it ends its display).
            free = m & ~known[i] or m
            fs.early[i] = _random_bit(free & SUIT_MASK[SUIT_OF[led]] or free, rng.random)
    return out


def legal_mask(fs: FastHokm) -> int:
    """The cards the seat to act may play now (C-3), as a mask."""
    i = fs.turn
    if fs.early[i] >= 0:  # H4-X2: a face-down early card plays itself
        return BIT[fs.early[i]]
    h = fs.hands[i]
    if not fs.trick:
        if fs.run and fs.run_seat == i:  # H4-X3: the run leads its next card
            return BIT[fs.run[0]]
        return h
    follow = h & SUIT_MASK[SUIT_OF[fs.trick[0][1]]]
    return follow or h


def play(fs: FastHokm, c: int):
    """Play card ``c`` for the seat to act (legality is the caller's, see ``legal_mask``).

    Returns the winning seat index when the card ends a trick, else None.
    """
    i = fs.turn
    fs.hands[i] ^= BIT[c]
    if fs.early[i] == c:
        fs.early[i] = -1
    trick = fs.trick
    if not trick:
        if fs.run and fs.run_seat == i and fs.run[0] == c:
            fs.run.pop(0)
        fs.best, fs.best_seat = c, i
    else:
        best = fs.best
        s, bs = SUIT_OF[c], SUIT_OF[best]
        if (s == bs and c < best) or (s == fs.trump and bs != fs.trump):  # C-4
            fs.best, fs.best_seat = c, i
    trick.append((i, c))
    if len(trick) < fs.n:
        fs.turn = NEXT[fs.n][i]
        return None
    winner = fs.best_seat
    for _, x in trick:
        fs.played |= BIT[x]
    fs.trick = []
    side = TEAM[fs.n][winner]
    fs.tricks[side] += 1
    if fs.tricks[side] >= TRICKS_TO_WIN:
        fs.over = True
    fs.leader = winner
    fs.turn = fs.run_seat if fs.run else winner
    return winner


def rollout(fs: FastHokm, rng) -> int:
    """Random legal cards until the round ends (in place); returns the winning side."""
    rnd = rng.random
    while not fs.over:
        play(fs, _random_bit(legal_mask(fs), rnd))
    return 0 if fs.tricks[0] >= TRICKS_TO_WIN else 1


def check_against_public(game, state, rng) -> int:
    """Play the round on with random legal cards through ``game`` and the fast path together.

    Raises AssertionError at the first disagreement (seat to act, legal cards,
    trick winner, tricks per side); returns the number of cards compared.
    Cards that play themselves in the public API (H4-X2, H4-X3) are fed to
    the fast path from the ``card_played`` events.
    """
    fs = from_state(state)
    compared = 0
    while state["phase"] == "play":
        seat = state["turn"]
        legal = [a["card"] for a in game.legal_actions(state, seat) if a["type"] == "play"]
        _expect(fs.turn == seat - 1, f"turn: fast {fs.turn + 1}, public {seat}")
        _expect(
            legal_mask(fs) == cards_to_mask(legal),
            f"legal cards of seat {seat}: fast {mask_to_cards(legal_mask(fs))}, public {legal}",
        )
        card = legal[int(rng.random() * len(legal))]
        state, events = game.apply(state, seat, {"type": "play", "card": card})
        winner = None
        for event in events:
            if event["type"] == "card_played":
                c = CARD_INDEX[event["card"]]
                _expect(
                    fs.turn == event["seat"] - 1, f"card_played by {event['seat']}, fast turn {fs.turn + 1}"
                )
                _expect(bool(legal_mask(fs) & BIT[c]), f"{event['card']} not legal in the fast path")
                winner = play(fs, c)
                compared += 1
            elif event["type"] == "trick_won":
                _expect(winner == event["seat"] - 1, f"trick winner: fast {winner}, public {event['seat']}")
        _expect(fs.tricks == state["tricks"], f"tricks: fast {fs.tricks}, public {state['tricks']}")
    _expect(fs.over, "the public round ended, the fast one did not")
    return compared


def _expect(ok, message):
    if not ok:
        raise AssertionError(message)


__all__ = [
    "BIT",
    "CARDS",
    "FastHokm",
    "cards_to_mask",
    "check_against_public",
    "from_state",
    "legal_mask",
    "mask_to_cards",
    "play",
    "random_rounds",
    "rollout",
]
