"""Cards and decks (C-1).

A card is a two-character string: rank then suit, ``AS KH QD JC TS 9H ... 2C``;
jokers are ``RJ`` (red) and ``BJ`` (black).
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import IllegalAction

SUITS = "SHDC"  # spades, hearts, diamonds, clubs
RANKS = "AKQJT98765432"  # high to low (C-1: A high)
RED_JOKER = "RJ"
BLACK_JOKER = "BJ"
JOKERS = (RED_JOKER, BLACK_JOKER)

# Rank strength: 2 -> 2 ... A -> 14; jokers above every ordinary card (SH-7).
_RANK_VALUE = {r: 14 - i for i, r in enumerate(RANKS)}
POWER = {r + s: _RANK_VALUE[r] for r in RANKS for s in SUITS}
POWER[BLACK_JOKER] = 15
POWER[RED_JOKER] = 16

DECK52 = tuple(r + s for s in SUITS for r in RANKS)
DECK54 = DECK52 + JOKERS
CARD_INDEX = {c: i for i, c in enumerate(DECK54)}
"""A stable small integer per card (0..53), used by the bitmask fast paths."""


def is_joker(card: str) -> bool:
    return card in JOKERS


def suit_of(card: str) -> str:
    """The printed suit of a card; jokers have none ("J")."""
    return "J" if card in JOKERS else card[1]


def rank_of(card: str) -> str:
    return card[0]


def power(card: str) -> int:
    return POWER[card]


def deck(jokers: bool = False) -> list[str]:
    return list(DECK54 if jokers else DECK52)


def sort_hand(cards: Iterable[str]) -> list[str]:
    """Cards grouped by suit (S H D C, jokers first) and high to low."""
    return sorted(cards, key=lambda c: (-1 if c in JOKERS else SUITS.index(c[1]), -POWER[c]))


def check_permutation(cards, expected: Iterable[str]) -> list[str]:
    """``cards`` as a list if it is a permutation of ``expected``, else IllegalAction."""
    if not isinstance(cards, (list, tuple)) or not all(isinstance(c, str) for c in cards):
        raise IllegalAction("bad_deck", "The deck must be a list of card strings.")
    cards = list(cards)
    if sorted(cards) != sorted(expected):
        raise IllegalAction("bad_deck", "The deck is not a permutation of this game's cards.")
    return cards
