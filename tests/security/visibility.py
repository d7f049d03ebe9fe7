"""What a viewer may see, computed from the engine's state alone (issue 14).

The truth for the visibility matrix and the frame recorder: for every
version of a match (replayed from its move log) the cards each viewer may
see are the cards in the state's public places (the trick, the tricks and
cards already played, the H4-X1 middle card while it lies face up, the
shelem2 column tops once turned, bridge's dummy once the opening lead is
made, the ace draw's turned cards) plus, for a seat of that match, his own
places (his hand; in hokm2 his current draft card and the first cards he
refused; in shelem the widow while he, the bidder, puts aside, and the
cards he put aside). Nothing here calls ``engine.view``: a view or a frame
is checked against this, never against itself.

What a viewer once saw during a deal stays known to him until the next
deal (cards leave a hand face up). A frame reports the versions ``prev+1 ..
v``: a card is allowed in it if the viewer could see it at one of them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from games import engine
from games.engine import CHANCE

CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])((?:[AKQJT98765432][SHDC])|RJ|BJ)(?![A-Za-z0-9])")
"""A card code standing alone in a string (``"AS"``, ``"played AS"``), never inside a word."""


CALLS = re.compile(r'"call":\s*"[^"\\]*"|"text":\s*"[1-7](?:C|D|H|S|NT)"')
"""Bridge calls (``"2S"``: two spades) look like cards: the value of a
``call`` key, and a contract's ``text`` (``"3NT"``), are calls, not cards.
(So a card of rank 2 to 7 slipped in under a ``call`` key would pass; any
other place, and any other card, would not.)"""


def cards_in_text(text: str) -> set[str]:
    """Every card code in a JSON text (keys too, inside longer strings too), bridge calls apart."""
    text = CALLS.sub(" ", text).replace("\\n", " ").replace("\\t", " ")
    return set(CARD_TOKEN.findall(text))


def cards_of(value) -> set[str]:
    """``cards_in_text`` of a JSON-like value."""
    return cards_in_text(json.dumps(value, ensure_ascii=False))


def partner(seat: int) -> int:
    return (seat + 1) % 4 + 1


# --- the places of a state ---------------------------------------------------------------------


def public_places(name: str, state: dict) -> dict[str, set[str]]:
    """The face-up places of ``state``: what everyone at the table sees."""
    family = name.rstrip("24")
    places: dict[str, set[str]] = {"trick": cards_of(state.get("trick"))}
    if family == "hokm":
        places["played"] = cards_of([state.get("last_trick"), state.get("past_tricks"), state.get("won")])
        if state.get("middle"):
            places["middle"] = {state["middle"]}
        if state.get("run"):  # H4-X3: a run is put down together, face up; led one per trick
            places["run"] = cards_of(state["run"].get("cards"))
    elif family == "shelem":
        places["played"] = cards_of(state.get("tricks"))
        if name == "shelem2" and state.get("columns_up"):
            places["column tops"] = column_tops(state)
    else:
        places["played"] = cards_of([state.get("last_trick"), state.get("past_tricks")])
        contract = state.get("contract")
        if contract and state.get("dummy_shown"):
            places["dummy"] = set(state["hands"][partner(contract["declarer"]) - 1])
    return places


def column_tops(state: dict) -> set[str]:
    """shelem2's face-up column cards (S2-3, S2-6): each column's top, but not
    the card under a column used in the trick not yet gathered."""
    if not state.get("columns_up"):
        return set()
    out = set()
    for seat in (1, 2):
        used = state["used"][seat - 1]
        for j, col in enumerate(state["columns"][seat - 1]):
            if col and j != used:
                out.add(col[0])
    return out


def own_places(name: str, state: dict, seat: int) -> dict[str, set[str]]:
    """What seat ``seat`` alone sees (or knows) in ``state``."""
    places = {"hand": set(state["hands"][seat - 1])}
    early = state.get("early") or []
    if len(early) >= seat and early[seat - 1]:
        places["early card"] = {early[seat - 1]}  # H4-X2: laid face down, his own
    if name == "hokm2":
        pairs = state.get("pairs") or [[], []]
        if state["phase"] == "draft" and pairs[seat - 1]:
            places["draft card"] = {pairs[seat - 1][0][0]}
        places["refused"] = set(state.get("refused", [[], []])[seat - 1])
    if name.startswith("shelem") and state.get("bidder") == seat:
        if state["phase"] == "discard":
            places["widow"] = set(state["widow"])
        places["put-aside"] = set(state.get("aside") or [])
    return places


def hidden_places(name: str, state: dict) -> dict[str, dict]:
    """The face-down places, each ``{owner seat or None: cards}`` (None: nobody's)."""
    n = engine.get(name).players
    places: dict[str, dict] = {"hand": {s: set(state["hands"][s - 1]) for s in range(1, n + 1)}}
    if state.get("early"):  # H4-X2: face-down early cards
        places["early"] = {s: {c} for s, c in enumerate(state["early"], start=1) if c}
    if "hidden" in state:  # hokm: cards dealt but not yet seen (H4-2)
        places["undealt"] = {None: cards_of(state["hidden"])}
    if name == "hokm2":
        pairs = state.get("pairs") or [[], []]
        places["draft"] = {
            s: {pairs[s - 1][0][0]} if state["phase"] == "draft" and pairs[s - 1] else set() for s in (1, 2)
        }
        places["draft second cards"] = {None: cards_of([p[1:] for ps in pairs for p in ps])}
        drafting = state["phase"] == "draft"
        places["later pairs"] = {
            None: cards_of([p[:1] for ps in pairs for p in (ps[1:] if drafting else ps)])
        }
        places["refused"] = {s: set(state.get("refused", [[], []])[s - 1]) for s in (1, 2)}
        places["discarded"] = {None: cards_of(state.get("discarded"))}
        places["rest"] = {None: cards_of(state.get("rest"))}
        places["removed"] = {None: cards_of(state.get("removed"))}
    if name.startswith("shelem"):
        owner = state.get("bidder") if state["phase"] == "discard" else None
        places["widow"] = {owner: set(state.get("widow") or [])}
        places["put-aside"] = {None: set(state.get("aside") or [])}
    if name == "shelem2":
        every = cards_of(state.get("columns"))
        places["columns face down"] = {None: every - column_tops(state)}
    if name == "bridge":
        contract = state.get("contract")
        if contract:
            dummy = partner(contract["declarer"])
            places["dummy"] = {(None if state.get("dummy_shown") else dummy): set(state["hands"][dummy - 1])}
    return places


def visible_now(name: str, state: dict, seat: int | None, events=()) -> set[str]:
    """The cards ``seat`` (None: anyone who is not a player) sees in ``state``;
    ``events`` are the engine's events that made it (the ace draw's turned
    cards are public, H4-1)."""
    out: set[str] = set()
    for cards in public_places(name, state).values():
        out |= cards
    if seat is not None:
        for cards in own_places(name, state, seat).values():
            out |= cards
    for event in events:
        if event.get("type") == "hakem":
            out |= cards_of(event.get("draw"))
    return out


# --- a match's history ----------------------------------------------------------------------------


@dataclass
class History:
    """Every version of one match replayed from its move log, and what each
    viewer could see at each."""

    name: str
    players: int
    states: list = field(default_factory=list)  # states[v]: the state after move v (0: the new match)
    epochs: list = field(default_factory=list)  # epochs[v]: deals applied up to v
    events: list = field(default_factory=list)  # events[v]: the engine's events of move v
    _known: dict = field(default_factory=dict)

    @classmethod
    def replay(cls, name: str, rules: dict, moves) -> History:
        """``moves``: (seq, seat, action) in order; checks that they form one chain."""
        game = engine.get(name)
        state = game.new_match(rules)
        h = cls(name, game.players, [state], [0], [[]])
        epoch = 0
        for i, (seq, seat, action) in enumerate(moves, start=1):
            assert seq == i, f"the move log skips from {i - 1} to {seq}"
            state, events = game.apply(state, CHANCE if seat == 0 else seat, action)
            if action.get("type") == "deal":
                epoch += 1
            h.states.append(state)
            h.epochs.append(epoch)
            h.events.append(events)
        return h

    def pad_to(self, version: int) -> None:
        """Versions without a move (a confirmed leave ends the match, L-3): the state stays."""
        while len(self.states) <= version:
            self.states.append(self.states[-1])
            self.epochs.append(self.epochs[-1])
            self.events.append([])

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def known(self, seat: int | None, v: int) -> set[str]:
        """What ``seat`` could have seen by version ``v`` of the current deal."""
        key = (seat, v)
        if key not in self._known:
            here = visible_now(self.name, self.states[v], seat, self.events[v])
            if v > 0 and self.epochs[v - 1] == self.epochs[v]:
                here |= self.known(seat, v - 1)
            self._known[key] = here
        return self._known[key]

    def allowed(self, seat: int | None, prev: int, v: int) -> set[str]:
        out: set[str] = set()
        for u in range(max(0, min(prev, v)), min(v, self.last) + 1):
            out |= self.known(seat, u)
        return out

    def everything(self, v: int) -> set[str]:
        """Every card anywhere in the state at ``v`` (for the recorder's sanity)."""
        return cards_of({k: x for k, x in self.states[v].items() if k != "rules"})


def frame_leaks(
    history: History, seat: int | None, frame: dict, fallback_v: int | None, text: str | None = None
) -> set[str]:
    """Cards in ``frame`` (sent as ``text``) that ``seat`` could not see at any
    version it reports. A frame without a version (room, pong, ack ...) is
    held to the version the connection last saw."""
    cards = cards_in_text(text) if text is not None else cards_of(frame)
    if not cards:
        return set()
    v = frame.get("v")
    if not isinstance(v, int):
        v = fallback_v if fallback_v is not None else 0
    prev = frame.get("prev", v)
    if not isinstance(prev, int):
        prev = v
    if frame.get("type") == "fair_record":
        prev = v
    return cards - history.allowed(seat, prev, v)


def dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False)
