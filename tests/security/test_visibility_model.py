"""Issue 14: every engine view agrees with the visibility model, with every table rule on.

Seeded random matches (their first 500 moves), each action chosen at random among every seat's
legal actions (so H4-X2's early cards laid and taken back out of turn,
H4-X3's runs, H4-X6's seat swaps, the hokm2 draft of both players at once,
jokers): at every version, every seat's view and the public view hold only
cards the model of tests/security/visibility.py lets that viewer see, and
every card of the state sits in a place the model knows (so nothing escapes
the frame recorder's scan by being in a place it does not look at).
"""

from __future__ import annotations

import random

import pytest

from games import engine
from games.engine import CHANCE

from .visibility import History, cards_of, hidden_places, public_places

VARIANTS = [
    ("hokm4", {"target": 3, "early_play": True, "lead_run": True, "ace_partners": True, "middle_card": True}),
    ("hokm4", {"target": 3, "kot": True, "middle_card": False}),
    ("hokm2", {"target": 3, "kot": True}),
    ("shelem4", {"cap": 300, "jokers": True}),
    ("shelem4", {"cap": 300}),
    ("shelem2", {"cap": 300, "jokers": True}),
    ("shelem2", {"cap": 300}),
    ("bridge", {}),
]


def random_match(name: str, rules: dict, seed: int, limit: int = 500) -> list:
    game = engine.get(name)
    rng = random.Random(seed)
    state = game.new_match(rules)
    moves = []
    for _ in range(limit):
        if game.result(state) is not None:
            break
        if CHANCE in game.to_act(state):
            kind, cards = game.pending_chance(state)
            deck = list(cards)
            rng.shuffle(deck)
            seat, action = 0, {"type": kind, "deck": deck}
        else:
            options = [(s, a) for s in range(1, game.players + 1) for a in game.legal_actions(state, s)]
            seat, action = rng.choice(options)
            if action["type"] == "discard" and "cards" not in action:
                action = {"type": "discard", "count": action["count"]}  # the engine's own put-aside
        state, _ = game.apply(state, CHANCE if seat == 0 else seat, action)
        moves.append((len(moves) + 1, seat, action))
    return moves


@pytest.mark.parametrize(("name", "rules"), VARIANTS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(VARIANTS)])
def test_every_view_of_random_matches_shows_only_what_the_model_allows(name, rules):
    game = engine.get(name)
    checked = 0
    for seed in range(3):
        history = History.replay(name, rules, random_match(name, rules, seed))
        for v in range(history.last + 1):
            state = history.states[v]
            placed = set().union(*public_places(name, state).values())
            for owners in hidden_places(name, state).values():
                placed = placed.union(*owners.values()) if owners else placed
            assert history.everything(v) <= placed, (seed, v, history.everything(v) - placed)
            for seat in (None, *range(1, game.players + 1)):
                extra = cards_of(game.view(state, seat)) - history.known(seat, v)
                assert not extra, (seed, v, state["phase"], seat, sorted(extra))
                checked += 1
    assert checked > 300
