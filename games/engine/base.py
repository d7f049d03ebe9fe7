"""The one Game contract every engine implements (docs/engine.md).

A game object carries what the platform needs to know about it, written
once here and read everywhere else (the model choices, the leaderboards'
families, the lobby's form, the rules pages, the bench):

- ``name``: the stable key (``hokm4`` ...), stored with every room and match;
- ``players``: how many seats;
- ``family``: the leaderboard it counts for (L-6), one of ``FAMILIES``;
- ``label``: its English name (the site translates it);
- ``RULE_OPTIONS``: the table rules a room may set, with their choices and
  defaults (``default_rules()``).

and the methods of the contract, which each engine defines.
"""

from __future__ import annotations

from .errors import IllegalAction
from .options import validate as validate_options
from .seats import team_of

FAMILIES = {"hokm": "Hokm", "shelem": "Shelem", "bridge": "Rubber bridge"}
"""Game family -> its English name (L-6: the leaderboards group the variants)."""


class Game:
    name: str = ""
    players: int = 0
    family: str = ""
    label: str = ""
    RULE_OPTIONS: dict = {}

    # --- what the platform reads -----------------------------------------------------

    def validate_rules(self, rules=None) -> dict:
        """``rules`` with every option filled in; unknown or invalid ones raise ``bad_rules``."""
        return validate_options(self.RULE_OPTIONS, rules)

    def default_rules(self) -> dict:
        return self.validate_rules({})

    def team_of(self, seat: int) -> int:
        return team_of(seat, self.players)

    # --- the contract (each engine) ----------------------------------------------------

    def new_match(self, rules=None) -> dict:
        raise NotImplementedError

    def to_act(self, state) -> set:
        raise NotImplementedError

    def legal_actions(self, state, seat) -> list:
        raise NotImplementedError

    def apply(self, state, seat, action):
        raise NotImplementedError

    def view(self, state, seat=None) -> dict:
        raise NotImplementedError

    def views(self, state, seats) -> dict:
        """``{seat: view(state, seat)}`` for each of ``seats`` (None: the public
        view), equal to the views one by one. They may share their public
        parts with each other (never with ``state``): for serialising them
        together, as the frames of a version are (games/frames.py)."""
        return {seat: self.view(state, seat) for seat in seats}

    def auto_action(self, state, seat) -> dict:
        raise NotImplementedError

    def pending_chance(self, state):
        raise NotImplementedError

    def round_over(self, state) -> bool:
        raise NotImplementedError

    def result(self, state):
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<game {self.name}>"


__all__ = ["FAMILIES", "Game", "IllegalAction"]
