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

plus the metadata the platform needs (``name``, ``players``, ``family``,
``label``, ``RULE_OPTIONS``, ``validate_rules``, ``default_rules``,
``pending_chance``, ``result``, ``team_of``): the one contract is
``base.Game``, and every list of games the site shows is read from
``catalogue()``, so a game's name is written once.
"""

from __future__ import annotations

import importlib

from .errors import IllegalAction

CHANCE = 0
"""The pseudo-seat that acts when a draw or a deal is due."""

_MODULES = (
    ("hokm", "HOKM4"),
    ("hokm", "HOKM2"),
    ("shelem", "SHELEM4"),
    ("shelem", "SHELEM2"),
    ("bridge", "BRIDGE"),
)
"""Every game object, in the order the site lists them."""


_loaded: dict = {}


def catalogue() -> tuple:
    """Every game (``base.Game`` objects), in the site's order."""
    if not _loaded:
        for module, attr in _MODULES:
            game = getattr(importlib.import_module(f"{__name__}.{module}"), attr)
            _loaded[game.name] = game
    return tuple(_loaded.values())


def get(name: str):
    """The game registered under ``name`` (hokm4 hokm2 shelem4 shelem2 bridge)."""
    game = _loaded.get(name) if _loaded else dict((g.name, g) for g in catalogue()).get(name)
    if game is None:
        raise IllegalAction("unknown_game", f"No game called {name!r}.")
    return game


def __getattr__(attr):
    if attr == "GAMES":  # the keys, in order (read lazily: the engines import this package)
        return tuple(g.name for g in catalogue())
    raise AttributeError(attr)


__all__ = ["CHANCE", "GAMES", "IllegalAction", "catalogue", "get"]
