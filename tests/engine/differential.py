"""Seeded random matches of every game, reduced to one hash chain each.

The chain covers, step by step, who is to act, every seat's legal actions,
every seat's view and the public view, the events and the result. Recorded
once from the engines as they were before the move-path redesign (issue 12)
into ``data/differential.json``; ``test_differential.py`` plays the same
seeds again and must reach the same chains, so no rule moved.

    python -m tests.engine.differential   # re-record (only when a rule change is intended)
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from games import engine
from games.engine import CHANCE

DATA = Path(__file__).parent / "data" / "differential.json"

VARIANTS = {
    "hokm4": [
        {},
        {"kot": True, "target": 3},
        {"early_play": True, "lead_run": True, "target": 3},
        {"ace_partners": True, "middle_card": False, "target": 3},
    ],
    "hokm2": [{}, {"kot": True, "target": 3}],
    "shelem4": [{}, {"jokers": True, "cap": 300}, {"lead": 1, "cap": 300}],
    "shelem2": [{}, {"jokers": True, "cap": 300}],
    "bridge": [{}],
}
SEEDS = range(3)
MAX_STEPS = 6000


def _canon(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _choose(rng: random.Random, game, state, seat: int, legal: list) -> dict:
    action = dict(rng.choice(sorted(legal, key=_canon)))
    if action.get("type") == "discard" and "cards" not in action:
        hand = sorted(game.view(state, seat)["hand"])
        action = {"type": "discard", "cards": rng.sample(hand, action["count"])}
    return action


def chain(name: str, rules: dict, seed: int) -> dict:
    """Play one seeded random match and return its hash chain and length."""
    game = engine.get(name)
    rng = random.Random(f"{name}:{_canon(rules)}:{seed}")
    state = game.new_match(rules)
    digest = hashlib.sha256()
    steps = 0
    seats = range(1, game.players + 1)
    while game.result(state) is None and steps < MAX_STEPS:
        to_act = sorted(game.to_act(state))
        legal = {s: game.legal_actions(state, s) for s in seats}
        views = {str(s): game.view(state, s) for s in seats}
        views["public"] = game.view(state, None)
        digest.update(
            _canon([to_act, {str(k): sorted(map(_canon, v)) for k, v in legal.items()}, views]).encode()
        )
        if CHANCE in to_act:
            kind, cards = game.pending_chance(state)
            deck = list(cards)
            rng.shuffle(deck)
            seat, action = CHANCE, {"type": kind, "deck": deck}
        else:
            # Any seat with a legal action may act (early play is off-turn).
            movers = [s for s in seats if legal[s]]
            seat = rng.choice(movers if rng.random() < 0.15 else [s for s in to_act if legal[s]] or movers)
            action = _choose(rng, game, state, seat, legal[seat])
        state, events = game.apply(state, seat, action)
        digest.update(_canon(events).encode())
        steps += 1
    digest.update(_canon(game.result(state)).encode())
    return {"steps": steps, "sha256": digest.hexdigest()}


def record() -> dict:
    out = {}
    for name, variants in VARIANTS.items():
        for rules in variants:
            for seed in SEEDS:
                out[f"{name}|{_canon(rules)}|{seed}"] = chain(name, rules, seed)
    return out


if __name__ == "__main__":
    DATA.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n")
    print(f"recorded {DATA.name}")
