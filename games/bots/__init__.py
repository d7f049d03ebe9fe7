"""Bots for every game (issue 21): pure Python on the engines' fast paths.

``choose(game_name, view, seat, level=..., seed=..., budget_ms=...)`` is the
entry point: it is handed only ``engine.get(game_name).view(state, seat)``,
never the whole state, and returns one of ``view["legal"]``. The same view,
level, seed and a budget that does not cut the search give the same action.

Levels set the sampling width (worlds per decision) and the time budget:
``easy``, ``normal``, ``strong``. No Django, no I/O, no ``random``: the
randomness is a seeded generator of our own (``rng.Rng``); the one contact
with the outside is a monotonic clock for the budget (``clock.Budget``).
"""

from __future__ import annotations

from games import engine

from .clock import Budget
from .rng import Rng, mix

LEVELS = {
    # level: (samples per decision, default budget in ms)
    "easy": (4, 30.0),
    "normal": (24, 120.0),
    "strong": (400, 220.0),
}
DEFAULT_LEVEL = "normal"


def choose(
    game_name: str,
    view: dict,
    seat: int,
    *,
    level: str = DEFAULT_LEVEL,
    seed: int = 0,
    budget_ms: float | None = None,
    method: str | None = None,
    worlds: int | None = None,
) -> dict:
    """A legal action for ``seat`` chosen from its ``view`` alone.

    ``method`` (optional) names the Hokm card search: ``"dd"`` (double dummy,
    the strong level's default in hokm4) or ``"mc"`` (rule-based playouts, the
    other levels' and the strong level's before issue 38). ``worlds``
    (optional, the arena's paired measurements) replaces the level's number
    of sampled worlds per decision.
    """
    legal = view.get("legal") or []
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do in this view")
    if len(legal) == 1 and legal[0]["type"] != "discard":
        return legal[0]
    samples, default_ms = LEVELS[level if level in LEVELS else DEFAULT_LEVEL]
    if worlds is not None:
        samples = worlds
    budget = Budget(default_ms if budget_ms is None else budget_ms)
    rng = Rng(mix(seed, game_name, seat, view.get("round"), _progress(view)))
    if game_name in ("hokm4", "hokm2"):
        from . import hokm

        # The strong level plays Hokm for four's cards double dummy (issue 38). Every DDS
        # call of the process goes through ``dds`` under one lock: the segfault of
        # 2026-12-05 in Daphne was a replay's double-dummy table computed beside the
        # bots' solves (tests/bots/test_dds.py).
        dd = method == "dd" or (method is None and level == "strong" and game_name == "hokm4")
        action = hokm.choose(view, seat, samples, budget, rng, dd)
    elif game_name in ("shelem4", "shelem2"):
        from . import shelem

        action = shelem.choose(view, seat, samples, budget, rng, level)
    elif game_name == "bridge":
        from . import bridge

        # method "mc" (the arena's yardstick): the strong bot's card play before issue 38's changes
        action = bridge.choose(view, seat, samples, budget, rng, "mc" if method == "mc" else level)
    else:
        action = _fallback(legal, view)
    return action if _is_legal(action, legal, view) else _fallback(legal, view)


def _fallback(legal: list[dict], view: dict) -> dict:
    """A legal action without thought (the discard's cards are the seat's to name)."""
    first = legal[0]
    if first["type"] == "discard":
        return {"type": "discard", "cards": list(view["hand"])[: first["count"]]}
    return first


def _is_legal(action: dict, legal: list[dict], view: dict) -> bool:
    if action in legal:
        return True
    if action.get("type") == "discard":  # the legal list holds the count; the cards are ours to pick
        counts = [a.get("count") for a in legal if a["type"] == "discard"]
        cards = action.get("cards") or []
        hand = set(view.get("hand") or [])
        return bool(counts) and len(cards) == counts[0] == len(set(cards)) and set(cards) <= hand
    return False


def _progress(view: dict) -> int:
    """How far the round has gone (so that one seed gives fresh worlds at each decision)."""
    return sum(view.get("hand_counts") or []) * 8 + len(view.get("trick") or [])


def bot_action(game_name: str, state: dict, seat: int, level: str = DEFAULT_LEVEL, seed: int = 0) -> dict:
    """Compatible entry for the play service: the seat's view, then ``choose``."""
    view = engine.get(game_name).view(state, seat)
    return choose(game_name, view, seat, level=level, seed=seed)


__all__ = ["LEVELS", "bot_action", "choose"]
