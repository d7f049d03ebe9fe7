"""A hint for a learner (issue 38): the strong bot's choice for his seat, from his own view, and why.

``hint(game_name, view, seat, seed=0)`` is handed the learner's view only
(``engine.get(game).view(state, seat)``, the same door as every bot) and
returns ``{"action": ..., "reason": code, "args": {...}}``: the action is one
of ``view["legal"]``, the reason one short code of ``REASONS`` (its words are
translated by the caller) and its arguments small numbers, never a card the
seat has not seen. Pure: no Django, no I/O.
"""

from __future__ import annotations

from games.engine.cards import CARD_INDEX, SUITS
from games.engine.seats import partner

from . import choose

REASONS = (
    "partner_winning",  # the partner's card wins the trick: play low
    "win_cheaply",  # the card wins the trick at the least cost
    "cover",  # beat the card on the table to keep the trick from the opponents
    "ruff",  # none of the suit led: trump it
    "cannot_win",  # no card wins: throw the cheapest
    "second_low",  # second hand low: keep the high cards
    "draw_trumps",  # lead trumps while the opponents hold some ({"n": trumps unseen})
    "cash",  # the highest card left of its suit
    "lead_long",  # lead from the longest suit
    "trump_suit",  # name the longest, strongest suit as trump
    "searched",  # anything else: weighed over many possible deals
)


def _i(card: str) -> int:
    return CARD_INDEX[card]


def _beats(c: int, best: int, trump: int) -> bool:
    if c // 13 == best // 13:
        return c < best
    return c // 13 == trump


def _hokm_reason(view: dict, seat: int, action: dict) -> tuple[str, dict]:
    if action["type"] == "trump":
        return "trump_suit", {}
    if action["type"] != "play":
        return "searched", {}
    trump = SUITS.index(view["trump"])
    card = _i(action["card"])
    hand = [_i(c) for c in view["hand"]]
    gone = {_i(x["card"]) for t in view.get("past_tricks") or [] for x in t["cards"]}
    trick = [(x["seat"], _i(x["card"])) for x in view.get("trick") or []]
    gone |= {c for _, c in trick}
    unseen = [c for c in range(52) if c not in gone and c not in hand]
    suit = card // 13
    if not trick:
        if suit == trump:
            out = sum(1 for c in unseen if c // 13 == trump)
            if out:
                return "draw_trumps", {"n": out}
        if not any(c // 13 == suit and c < card for c in unseen):
            return "cash", {}
        mine = [c for c in hand if c // 13 == suit]
        if len(mine) >= max(sum(1 for c in hand if c // 13 == s) for s in range(4)):
            return "lead_long", {}
        return "searched", {}
    best_seat, best = trick[0]
    for s, c in trick[1:]:
        if _beats(c, best, trump):
            best_seat, best = s, c
    led = trick[0][1] // 13
    if view["players"] == 4 and best_seat == partner(seat, 4) and not _beats(card, best, trump):
        return "partner_winning", {}
    if _beats(card, best, trump):
        if suit == trump and led != trump:
            return "ruff", {}
        last = len(trick) == view["players"] - 1
        return ("win_cheaply" if last else "cover"), {}
    if len(trick) == 1 and view["players"] == 4:
        return "second_low", {}
    return "cannot_win", {}


def hint(game_name: str, view: dict, seat: int, seed: int = 0) -> dict:
    """The strong bot's action for ``seat`` from ``view`` alone, with a reason code."""
    action = choose(game_name, view, seat, level="strong", seed=seed)
    reason, args = ("searched", {})
    if game_name.startswith("hokm") and view.get("phase") in ("play", "trump"):
        reason, args = _hokm_reason(view, seat, action)
    return {"action": action, "reason": reason, "args": args}
