"""Lesson positions built with the real Hokm engine (never a copy of its rules).

A position is a hokm4 state reached by the engine's own actions: an ace draw
that gives the hakem we want, a deal whose deck is arranged (RULES.md D-1,
D-2) so that each seat holds the cards the lesson needs, the trump named, and
the trick so far played card by card. Lessons about the end of a round start
from such a state and set the trick and round counts as if the earlier tricks
had been played (the state is plain data, docs/engine.md); the engine then
plays the lesson's trick and counts it.

The learner is always seat 1 (the bottom of the table); his partner is seat 3,
seat 2 plays after him (on his right), seat 4 before him (on his left).
"""

from __future__ import annotations

from games import engine
from games.engine import CHANCE
from games.engine.cards import CARD_INDEX, DECK52
from games.engine.seats import clockwise_from, in_order_from

HOKM4 = engine.get("hokm4")
LEARNER = 1


def draw_deck(hakem: int, turned: list[str] | None = None) -> list[str]:
    """A permutation for the ace draw (D-1) whose first ace reaches ``hakem``.

    ``turned``: the cards to show before that ace (no ace among them); they
    go to seat 1, then clockwise. Without it, plain cards are used.
    """
    order = clockwise_from(1, 4)
    if turned is None:
        plain = [c for c in DECK52 if c[0] != "A"]
        turned = plain[: order.index(hakem)]
    assert all(c[0] != "A" for c in turned) and order[len(turned) % 4] == hakem
    ace = next(c for c in DECK52 if c[0] == "A" and c not in turned)
    head = [*turned, ace]
    return head + [c for c in DECK52 if c not in head]


def fill_hands(partial: dict[int, list[str]], voids: dict[int, str] | None = None) -> dict[int, list[str]]:
    """Thirteen cards for each seat: ``partial`` first, then the rest of the deck.

    ``voids`` names suits a seat must not hold (so that it may cut, C-3).
    The most constrained seats choose first, taking cards that others may not.
    """
    voids = voids or {}
    hands = {seat: list(partial.get(seat, [])) for seat in range(1, 5)}
    used = {c for cards in hands.values() for c in cards}
    assert len(used) == sum(len(c) for c in hands.values()), "a card given twice"
    # A fixed mixing order, so that filled hands look like real ones (not all the spades).
    rest = sorted((c for c in DECK52 if c not in used), key=lambda c: (CARD_INDEX[c] * 17) % 53)
    for seat in sorted(hands, key=lambda s: -len(voids.get(s, ""))):
        need = 13 - len(hands[seat])
        allowed = [c for c in rest if c[1] not in voids.get(seat, "")]

        def scarcity(card, seat=seat):  # cards few other seats may take go first
            return -sum(1 for s in hands if s != seat and card[1] in voids.get(s, ""))

        chosen = sorted(allowed, key=scarcity)[:need]  # sorted() is stable: the mixing order stays
        assert len(chosen) == need, f"seat {seat} cannot get 13 cards"
        hands[seat] += chosen
        rest = [c for c in rest if c not in chosen]
    return hands


def deal_deck(hakem: int, hands: dict[int, list[str]]) -> list[str]:
    """The permutation that the engine deals (D-2) into exactly ``hands``."""
    d: list[str | None] = [None] * 52
    for k, seat in enumerate(in_order_from(hakem, 4)):
        h = hands[seat]
        d[5 * k : 5 * k + 5] = h[:5]
        d[20 + 4 * k : 24 + 4 * k] = h[5:9]
        d[36 + 4 * k : 40 + 4 * k] = h[9:13]
    return d


def dealt(hakem: int, hands: dict[int, list[str]], voids=None, rules=None, turned=None) -> dict:
    """A state in the trump step: the ace draw and the deal done by the engine."""
    state = HOKM4.new_match(rules)
    state, _ = HOKM4.apply(state, CHANCE, {"type": "draw", "deck": draw_deck(hakem, turned)})
    full = fill_hands(hands, voids)
    state, _ = HOKM4.apply(state, CHANCE, {"type": "deal", "deck": deal_deck(hakem, full)})
    return state


def position(
    *, hakem: int, trump: str, hands: dict[int, list[str]], voids=None, rules=None, trick=(), late=None
) -> dict:
    """A state in play: dealt, trump named (``"middle"`` for H4-X1), the trick so far played.

    ``late``: ``{"tricks": [us, them], "score": [us, them]}`` to start from
    later in the round (the hands are cut to the cards still to play).
    """
    state = dealt(hakem, hands, voids, rules)
    state, _ = HOKM4.apply(state, hakem, {"type": "trump", "suit": trump})
    if late:
        state = skip_ahead(state, **late)
    for card in trick:
        state, _ = play(state, state["turn"], card)
    return state


def skip_ahead(state: dict, tricks: list[int], score: list[int] | None = None) -> dict:
    """The same deal, as if ``tricks`` had already been played (H4-4 counts)."""
    st = dict(state)
    done = sum(tricks)
    st["tricks"] = list(tricks)
    st["trick_no"] = done
    st["hands"] = [h[: 13 - done] for h in state["hands"]]
    if score is not None:
        st["score"] = list(score)
    return st


def play(state: dict, seat: int, card: str):
    return HOKM4.apply(state, seat, {"type": "play", "card": card})


def play_out(state: dict, cards: list[str]):
    """Play ``cards`` in turn order; returns the state and every event."""
    events = []
    for card in cards:
        state, ev = play(state, state["turn"], card)
        events += ev
    return state, events


def first_event(events: list[dict], kind: str) -> dict | None:
    return next((e for e in events if e["type"] == kind), None)
