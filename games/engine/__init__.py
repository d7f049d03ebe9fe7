"""The rules engine: pure Python, no Django, no I/O.

Every game is an object registered under a stable name with the same small
surface (ARCHITECTURE.md, "The engine contract")::

    game = engine.get("hokm4")
    state = game.new_match(rules)
    game.to_act(state)               -> set of seats (or {CHANCE})
    game.legal_actions(state, seat)  -> list of plain-dict actions
    state, events = game.apply(state, seat, action)   # raises IllegalAction
    game.view(state, seat)           -> dict (seat=None: the public view)
    game.auto_action(state, seat)    -> a legal action (timeouts, simple bots)

plus the metadata the platform needs (``name``, ``players``, ``RULE_OPTIONS``,
``validate_rules``, ``pending_chance``, ``result``, ``team_of``).
"""

from __future__ import annotations

import importlib

from .errors import IllegalAction

CHANCE = 0
"""The pseudo-seat that acts when a draw or a deal is due."""

GAMES = ("hokm4", "hokm2", "shelem4", "shelem2", "bridge")

_MODULES = {
    "hokm4": ("hokm", "HOKM4"),
    "hokm2": ("hokm", "HOKM2"),
    "shelem4": ("shelem", "SHELEM4"),
    "shelem2": ("shelem", "SHELEM2"),
    "bridge": ("bridge", "BRIDGE"),
}


def get(name: str):
    """The game registered under ``name`` (hokm4 hokm2 shelem4 shelem2 bridge)."""
    try:
        module_name, attr = _MODULES[name]
    except KeyError:
        raise IllegalAction("unknown_game", f"No game called {name!r}.") from None
    module = importlib.import_module(f"{__name__}.{module_name}")
    return getattr(module, attr)


__all__ = ["CHANCE", "GAMES", "IllegalAction", "get"]
