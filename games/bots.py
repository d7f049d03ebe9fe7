"""Bots: for now a bot plays the engine's auto_action (the sensible timeout move).

It sees only its own seat's view (through the engine), never the whole deal.
"""

from __future__ import annotations

from games import engine


def bot_action(game_name: str, state: dict, seat: int) -> dict:
    game = engine.get(game_name)
    return game.auto_action(state, seat)
