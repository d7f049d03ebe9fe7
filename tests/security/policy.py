"""A quick player for whole matches in tests: chooses from a seat's own view.

It only reads the view the seat receives (its ``legal`` list, its hand), so
it can drive a match through the socket as a browser would. It is built to
end matches in few moves: in Shelem the first bidder bids the maximum, in
Bridge the first caller bids 3NT and the others pass; in play the side of
the hakem, bidder or declarer plays its highest legal card, the other side
its lowest. In the hokm2 draft a high first card is taken, a low one
refused (so both the refused and the unseen second cards occur); hokm4's
hakem names "partner's middle card" when the rule is on (H4-X1).
"""

from __future__ import annotations

from games.engine.cards import POWER


def _team(seat: int, players: int) -> int:
    return (seat - 1) % 2 if players == 4 else seat - 1


def choose(view: dict) -> dict | None:
    """The action for the seat whose view this is, or None when it has nothing to do."""
    legal = view.get("legal") or []
    if not legal:
        return None
    game = view["game"]
    kinds = {a["type"] for a in legal}
    if "trump" in kinds:
        middle = [a for a in legal if a.get("suit") == "middle"]
        return middle[0] if middle else legal[0]
    if "draft" in kinds:
        card = view.get("draft_card")
        take = card is not None and POWER[card] >= 10
        return {"type": "draft", "take": take}
    if "bid" in kinds or ("pass" in kinds and game.startswith("shelem")):
        bids = [a for a in legal if a["type"] == "bid"]
        if view.get("high_bid") is None and bids:
            return max(bids, key=lambda a: a["amount"])
        return next((a for a in legal if a["type"] == "pass"), legal[0])
    if "discard" in kinds:
        count = next(a["count"] for a in legal if a["type"] == "discard")
        low = sorted(view["hand"], key=lambda c: (POWER[c] >= 10 or c[0] == "5", POWER[c]))
        return {"type": "discard", "cards": low[:count]}
    if "sars" in kinds:
        return next(a for a in legal if a["type"] == "sars" and a["sars"] is False)
    if "call" in kinds:
        # 1NT, doubled, redoubled: seven tricks make a game (B-5), so a rubber is short.
        calls = {a["call"] for a in legal}
        made = [c for c in view.get("calls") or [] if c["call"] != "P"]
        points = sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(c[0], 0) for c in view["hand"])
        if not made and "1NT" in calls and points >= 13:
            return {"type": "call", "call": "1NT"}
        for want in ("XX", "X"):
            if want in calls:
                return {"type": "call", "call": want}
        return {"type": "call", "call": "P"}
    plays = [a for a in legal if a["type"] == "play"]
    if not plays:
        return legal[0]
    players = view["players"]
    if game.startswith("hokm"):
        strong = view.get("hakem")
        hand_seat = view["viewer"]
    elif game.startswith("shelem"):
        strong = view.get("bidder")
        hand_seat = view["viewer"]
    else:
        strong = view.get("declarer")
        hand_seat = view.get("next_hand") or view["viewer"]
    high = strong is not None and _team(hand_seat, players) == _team(strong, players)
    pick = max if high else min
    return pick(plays, key=lambda a: POWER[a["card"]])


RULES = {
    "hokm4": {"target": 3, "middle_card": True},
    "hokm2": {"target": 3},
    "shelem4": {"cap": 300},
    "shelem2": {"cap": 300, "jokers": True},
    "bridge": {},
}
"""Small targets: every game's match ends in a few hundred moves at most."""
