"""Follow suit and trick winner (C-3, C-4), shared by every game.

Jokers (Shelem, SH-7) are handled here too, so every game uses one logic:
in a trump round a joker belongs to the trump suit (above its ace); in a
no-trump round (sars) a joker has no suit, and a trick led with a joker sets
no suit to follow. Either way the jokers beat every ordinary card, red above
black.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import JOKERS, POWER

NO_SUIT = "*"


def effective_suit(card: str, trump: str | None) -> str:
    """The suit a card counts as: jokers are trumps in a trump round, suitless in sars."""
    if card in JOKERS:
        return trump if trump else NO_SUIT
    return card[1]


def led_suit(first_card: str, trump: str | None) -> str:
    """The suit to follow in a trick, or NO_SUIT (a joker led in sars)."""
    return effective_suit(first_card, trump)


def playable(hand: Sequence[str], lead: str | None, trump: str | None) -> list[str]:
    """The cards of ``hand`` that may follow ``lead`` (C-3); all of them when leading."""
    if lead is None:
        return list(hand)
    suit = led_suit(lead, trump)
    if suit == NO_SUIT:
        return list(hand)
    following = [c for c in hand if effective_suit(c, trump) == suit]
    return following or list(hand)


def winning_index(cards: Sequence[str], trump: str | None) -> int:
    """Index in ``cards`` (in the order played) of the card that wins the trick (C-4, SH-7)."""
    suit = led_suit(cards[0], trump)
    best = 0
    best_key = _key(cards[0], suit, trump)
    for i in range(1, len(cards)):
        key = _key(cards[i], suit, trump)
        if key > best_key:
            best, best_key = i, key
    return best


def _key(card: str, suit: str, trump: str | None) -> tuple[int, int]:
    # (class, power): jokers 3, trumps 2, the suit led 1, anything else 0.
    if card in JOKERS:
        return (3, POWER[card])
    s = card[1]
    if trump is not None and s == trump:
        return (2, POWER[card])
    if s == suit:
        return (1, POWER[card])
    return (0, 0)


def overtakes_by_cut(cards: Sequence[str], trump: str | None) -> bool:
    """Did the last card take the lead from the previous winner with a trump or joker? (R-11)"""
    if len(cards) < 2:
        return False
    before = winning_index(cards[:-1], trump)
    now = winning_index(cards, trump)
    if now != len(cards) - 1 or before == now:
        return False
    last = cards[-1]
    if last in JOKERS:
        return True
    return trump is not None and last[1] == trump and led_suit(cards[0], trump) != trump
