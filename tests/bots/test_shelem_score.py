"""Issue 38, SH-11: the Shelem bots weigh the match score in the auction (near the cap, near minus the cap)."""

from __future__ import annotations

import copy
import random

from games import bots, engine
from games.bots import shelem as sb
from games.engine.shelem import hand_points


def _auction_views(count: int, seed: int):
    """The first free decision (bid or pass) of shuffled deals, the bids before it by auto_action."""
    game = engine.get("shelem4")
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_match(game.validate_rules({}))
        kind, cards = game.pending_chance(state)
        deck = list(cards)
        rng.shuffle(deck)
        state, _ = game.apply(state, engine.CHANCE, {"type": kind, "deck": deck})
        while state["phase"] == "bidding" and len(out) < count:
            seat = min(game.to_act(state))
            view = game.view(state, seat)
            types = {a["type"] for a in view["legal"]}
            if {"pass", "bid"} <= types:
                opponent_holds = view["high_bidder"] is None or game.team_of(
                    view["high_bidder"]
                ) != game.team_of(seat)
                if opponent_holds and hand_points(view["hand"]) >= 60:  # a hand worth a bid
                    out.append((view, seat))
                break  # the first free decision of the deal: one view per deal
            state, _ = game.apply(state, seat, game.auto_action(state, seat))
    return out


def _with_totals(view, seat, mine, theirs):
    v = copy.deepcopy(view)
    side = engine.get("shelem4").team_of(seat)
    totals = [0, 0]
    totals[side], totals[1 - side] = mine, theirs
    v["score"]["totals"] = totals
    return v


def test_sh_11_the_match_worth_counts_only_a_round_that_ends_the_match():
    assert sb._match_worth([120, 45], 0, [0, 0], 600) == 75.0
    assert sb._match_worth([120, 45], 0, [500, 0], 600) == 75.0 + 600  # 620: the match is won
    assert sb._match_worth([-240, 85], 0, [-400, 0], 600) == -325.0 - 600  # -640: lost
    assert sb._match_worth([-240, 85], 0, [-400, 0], 0) == -325.0  # no cap, no match worth


def test_sh_11_far_from_the_cap_the_auction_is_unchanged(monkeypatch):
    """At the start of a match (cap 600) no round can end it: the same decisions as without the match's worth."""
    monkeypatch.setitem(bots.LEVELS, "normal", (24, None))  # no wall clock: the same worlds every run
    views = _auction_views(10, 38)
    with_worth = [bots.choose("shelem4", v, s, level="normal", seed=i) for i, (v, s) in enumerate(views)]
    monkeypatch.setattr(sb, "MATCH_WORTH", 0.0)
    without = [bots.choose("shelem4", v, s, level="normal", seed=i) for i, (v, s) in enumerate(views)]
    assert with_worth == without
    assert all(a in v["legal"] for a, (v, _s) in zip(with_worth, views, strict=True))
