"""Bridge fast path: whole random deals on bitmasks (for bots and the benchmark).

A hand is an int with bit ``cards.CARD_INDEX[card]`` set per card. DECK52 is
ordered suit by suit (S H D C), ace first, so suit ``k`` is bits
``13k .. 13k+12`` and inside a suit a lower bit is a higher card. The rules
are the same as ``bridge.py`` (B-2 auction, B-3 declarer, B-4 play, D-6
deal); the score goes on the real ``RubberSheet``. A test replays these deals
through the public engine and checks that both agree card by card.

Randomness comes from the ``rng`` the caller passes (a ``random.Random``);
this module never imports ``random``.
"""

from __future__ import annotations

from .bridge import BIDS, LETTERS, PLAYERS, STRAINS, Contract, RubberSheet
from .cards import CARD_INDEX, DECK52, SUITS
from .seats import next_seat, partner, team_of

SEATS = (1, 2, 3, 4)
NEXT = [0] + [next_seat(s, PLAYERS) for s in SEATS]  # index by seat 1..4
PARTNER = [0] + [partner(s, PLAYERS) for s in SEATS]
TEAM = [0] + [team_of(s, PLAYERS) for s in SEATS]
# D-6: card i of the deck goes to DEAL_TO[dealer][i]
DEAL_TO = [None] + [[next_seat(d, PLAYERS, i + 1) for i in range(52)] for d in SEATS]
SUIT_MASK = [0x1FFF << (13 * k) for k in range(4)]
STRAIN_SUIT = [SUITS.index(s) if s in SUITS else -1 for s in STRAINS]  # C D H S NT -> bit block
TOP_FIVE = [0b11111 << (13 * k) for k in range(4)]
ACES = sum(1 << CARD_INDEX["A" + s] for s in SUITS)
N_BIDS = len(BIDS)


def hands_from_deck(deck: list[int], dealer: int) -> list[int]:
    """D-6 on card indices: ``hands[seat]`` for seat 1..4 (index 0 unused)."""
    hands = [0, 0, 0, 0, 0]
    to = DEAL_TO[dealer]
    for i in range(52):
        hands[to[i]] |= 1 << deck[i]
    return hands


def random_auction(rng, dealer: int, log: list | None = None):
    """A uniformly random legal call at every turn (B-2) until the auction ends.

    Returns ``(bid index, declarer seat, doubled)`` or None when passed out.
    """
    bid, bidder, doubled, passes = -1, 0, 0, 0
    first = {}  # (team, strain index) -> first seat to name it (B-3)
    seat = dealer
    rand = rng.random
    while True:
        team = TEAM[seat]
        can_x = bid >= 0 and doubled == 0 and TEAM[bidder] != team
        can_xx = doubled == 1 and TEAM[bidder] == team
        # choices: pass, [double], [redouble], then every higher bid
        k = int(rand() * (1 + can_x + can_xx + N_BIDS - 1 - bid))
        if k == 0:
            call = "P"
            passes += 1
            if bid < 0 and passes == 4:
                if log is not None:
                    log.append(call)
                return None
            if bid >= 0 and passes == 3:
                if log is not None:
                    log.append(call)
                strain = bid % 5
                return bid, first[(TEAM[bidder], strain)], doubled
        elif can_x and k == 1:
            call, doubled, passes = "X", 1, 0
        elif can_xx and k == 1:
            call, doubled, passes = "XX", 2, 0
        else:
            bid += k - can_x - can_xx
            call, bidder, doubled, passes = BIDS[bid], seat, 0, 0
            first.setdefault((team, bid % 5), seat)
        if log is not None:
            log.append(call)
        seat = NEXT[seat]


def _random_card(mask: int, rand) -> int:
    """A uniformly random card index from a non-empty mask."""
    for _ in range(int(rand() * mask.bit_count())):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def random_play(hands: list[int], declarer: int, suit: int, rng, log: list | None = None) -> int:
    """Play 13 tricks with random legal cards (B-4); ``suit`` is the trump's bit block or -1.

    ``hands`` is consumed. Returns the tricks won by declarer's side.
    """
    rand = rng.random
    leader = NEXT[declarer]
    won = 0
    side = TEAM[declarer]
    for _ in range(13):
        seat = leader
        h = hands[seat]
        card = _random_card(h, rand)
        hands[seat] = h ^ (1 << card)
        if log is not None:
            log.append(card)
        led = card // 13
        best, best_seat, best_trump = card, seat, led == suit
        follow = SUIT_MASK[led]
        for _ in range(3):
            seat = NEXT[seat]
            h = hands[seat]
            card = _random_card(h & follow or h, rand)  # C-3 follow suit
            hands[seat] = h ^ (1 << card)
            if log is not None:
                log.append(card)
            s = card // 13
            if s == best // 13:
                if card < best:  # lower bit, higher card
                    best, best_seat = card, seat
            elif s == suit and not best_trump:  # the first trump on a side suit
                best, best_seat, best_trump = card, seat, True
        leader = best_seat
        if TEAM[best_seat] == side:
            won += 1
    return won


def honours_of(hands: list[int], strain: int) -> list[int]:
    """B-8 per team (0 = NS) from bitmask hands."""
    held = [0, 0]
    suit = STRAIN_SUIT[strain]
    for s in SEATS:
        if suit < 0:
            n = (hands[s] & ACES).bit_count()
            held[TEAM[s]] += 150 if n == 4 else 0
        else:
            n = (hands[s] & TOP_FIVE[suit]).bit_count()
            held[TEAM[s]] += 150 if n == 5 else 100 if n == 4 else 0
    return held


def play_deal(rng, dealer: int, sheet: RubberSheet, log: dict | None = None):
    """Deal, random auction and play of one deal, scored on ``sheet``.

    With ``log`` (a dict) the deck, calls and cards are written into it as
    card strings, for replaying through the public engine.
    """
    deck = list(range(52))
    rng.shuffle(deck)
    hands = hands_from_deck(deck, dealer)
    calls = cards = None
    if log is not None:
        log["deck"] = [DECK52[i] for i in deck]
        calls = log["calls"] = []
        cards = []
    outcome = random_auction(rng, dealer, calls)
    if outcome is None:
        return None
    bid, declarer, doubled = outcome
    strain = bid % 5
    held = honours_of(hands, strain)
    tricks = random_play(hands, declarer, STRAIN_SUIT[strain], rng, cards)
    if log is not None:
        log["cards"] = [DECK52[i] for i in cards]
    contract = Contract(bid // 5 + 1, STRAINS[strain], doubled, LETTERS[declarer - 1])
    return sheet.record(contract, tricks, held[0], held[1])


def random_rounds(name: str, count: int, rng) -> int:
    """Play ``count`` complete random deals (rubbers one after another); returns ``count``."""
    if name != "bridge":
        raise ValueError(f"bridge_fast plays bridge, not {name!r}")
    sheet = RubberSheet()
    dealer = 1  # D-6
    for _ in range(count):
        play_deal(rng, dealer, sheet)
        dealer = NEXT[dealer]  # passed out or not, the next dealer deals
        if sheet.is_over:
            sheet, dealer = RubberSheet(), 1
    return count
