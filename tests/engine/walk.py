"""Seeded random matches, step by step (for tests that look at every state)."""

from __future__ import annotations

import random

from games import engine
from games.engine import CHANCE


def states(name: str, rules: dict, seed: int, limit: int = 4000):
    """Every state of one seeded match of ``name``, played by the engine's
    automatic move (the dealer's decks shuffled by the seed), the last included."""
    game = engine.get(name)
    rng = random.Random(seed)
    state = game.new_match(rules)
    for _ in range(limit):
        yield state
        if game.result(state) is not None:
            return
        to_act = game.to_act(state)
        if CHANCE in to_act:
            kind, cards = game.pending_chance(state)
            deck = list(cards)
            rng.shuffle(deck)
            state, _ = game.apply(state, CHANCE, {"type": kind, "deck": deck})
        else:
            seat = min(to_act)
            state, _ = game.apply(state, seat, game.auto_action(state, seat))
    yield state
