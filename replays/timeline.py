"""Review hands (R-10): a finished match rebuilt from its move log, step by step.

The timeline is made by applying every logged action through the engine again
(never from a copy kept elsewhere) and keeping only what the public saw:
the events (public by the engine contract), a few scalar fields of the public
view, and each trick's cards. Nothing here reads a hand, the widow, the cards
put aside, the hokm2 draft, the shelem2 columns or dummy's cards (R-6, H2-6).
The one exception is bridge, where a finished deal's four hands are shown:
every one of their cards was played face up (they are rebuilt from the tricks).

``build(match, moves)`` is pure: it takes the match row's public fields and
the moves as plain data and returns a dict ready for JSON, or raises
``Unreplayable`` when the record is incomplete.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from games import engine
from games.engine import CHANCE, IllegalAction

from . import doubledummy

# Steps are made for these events; the rest (the draw's cards, the draft,
# early cards laid face down, the columns, dummy's cards) stay out.
AUCTION = {"bid", "passed", "call"}


class Unreplayable(Exception):
    """The move log cannot be replayed (R-10: "a match without a complete record cannot")."""

    def __init__(self, code: str, seq: int | None = None):
        super().__init__(code)
        self.code = code
        self.seq = seq


@dataclass(frozen=True)
class LoggedMove:
    seq: int
    seat: int
    action: dict
    events: list
    auto: bool = False


def check_log(moves: list[LoggedMove]) -> None:
    """R-10: a complete record starts at seq 1 and has no gap."""
    if not moves:
        raise Unreplayable("no_moves")
    if moves[0].seq != 1:
        raise Unreplayable("missing_start", moves[0].seq)
    for before, after in zip(moves, moves[1:], strict=False):
        if after.seq != before.seq + 1:
            raise Unreplayable("gap", before.seq + 1)


def _signature(events: list) -> list:
    """What must agree between the logged events and the replayed ones: the
    order of the events and every card played and trick won."""
    out = []
    for e in json.loads(json.dumps(events)):
        kind = e.get("type")
        if kind == "card_played":
            out.append((kind, e.get("seat"), e.get("card")))
        elif kind == "trick_won":
            out.append((kind, e.get("seat"), tuple(e.get("cards") or ())))
        else:
            out.append((kind,))
    return out


def _call(text: str) -> dict:
    """A bridge call as data: {"call": "P" | "X" | "XX"} or a bid {"level", "strain"}.
    (A call's text such as "2H" would read like a card.)"""
    if text in ("P", "X", "XX"):
        return {"call": text}
    return {"call": "bid", "level": int(text[0]), "strain": text[1:]}


def _contract(contract: dict | None) -> dict | None:
    if not contract:
        return None
    return {
        "level": contract["level"],
        "strain": contract["strain"],
        "doubled": contract.get("doubled", 0),
        "declarer": contract.get("declarer"),
    }


class _Builder:
    def __init__(self, game, players: int):
        self.game = game
        self.players = players
        self.rounds: list[dict] = []
        self.steps: list[dict] = []
        self.trick: list[dict] = []  # the trick on the table
        self.trick_done = False
        self.hakem = None

    # --- the public scalars of the view -------------------------------------------------

    def scores(self, view: dict) -> dict:
        """Tricks (or points) of each side in this round and the match score."""
        name = self.game.name
        score = view.get("score") or {}
        if name.startswith("hokm"):
            return {"won": list(score.get("tricks") or [0, 0]), "match": list(score.get("rounds") or [0, 0])}
        if name.startswith("shelem"):
            return {"won": list(score.get("points") or [0, 0]), "match": list(score.get("totals") or [0, 0])}
        return {"won": list(view.get("tricks_won") or [0, 0]), "match": list(score.get("totals") or [0, 0])}

    @property
    def current(self) -> dict | None:
        return self.rounds[-1] if self.rounds else None

    def new_round(self, event: dict, view: dict) -> None:
        number = event.get("round") or view.get("round") or len(self.rounds) + 1
        leader = event.get("hakem") or event.get("dealer") or event.get("first_bidder") or view.get("hakem")
        before = self.rounds[-1]["score_after"] if self.rounds else [0, 0]
        self.rounds.append(
            {
                "number": number,
                "leader": leader,  # hakem, dealer or first bidder, as the game names it
                "auction": [],
                "bidder": None,
                "bid": None,
                "trump": None,
                "sars": None,
                "contract": None,
                "tricks": [],
                "result": None,
                "score_before": list(before),
                "score_after": list(before),
            }
        )
        self.trick, self.trick_done = [], False

    def step(self, kind: str, view: dict, seq: int, **fields) -> dict:
        rnd = self.current
        step = {
            "i": len(self.steps),
            "seq": seq,
            "round": len(self.rounds) - 1 if rnd else None,
            "kind": kind,
            **fields,
            "trick": [{"seat": c["seat"], "card": c["card"]} for c in self.trick],
            # the index (from 0) of the trick on the table, or of the next one
            "trick_no": (len(rnd["tricks"]) - (1 if self.trick else 0)) if rnd else 0,
            "auction": len(rnd["auction"]) if rnd else 0,
            "trump": rnd["trump"] if rnd else None,
            "sars": rnd["sars"] if rnd else None,
            "contract": rnd["contract"] if rnd else None,
            "bidder": rnd["bidder"] if rnd else None,
            "bid": rnd["bid"] if rnd else None,
            "to_act": sorted(s for s in view.get("to_act", []) if s != CHANCE),
            **self.scores(view),
        }
        step = {k: v for k, v in step.items() if v is not None}
        self.steps.append(step)
        return step

    # --- one replayed move ----------------------------------------------------------------

    def feed(self, move: LoggedMove, events: list, view: dict) -> None:
        for event in events:
            self.event(move, event, view)

    def event(self, move: LoggedMove, event: dict, view: dict) -> None:  # noqa: C901 - one branch per event
        kind = event.get("type")
        seq = move.seq
        if kind == "hakem":
            self.hakem = event.get("seat")
        elif kind == "dealt":
            self.new_round(event, view)
            self.step("deal", view, seq, seat=self.current["leader"])
        elif kind in AUCTION and self.current is not None:
            if kind == "bid":
                entry = {"seat": event["seat"], "bid": event["amount"]}
            elif kind == "passed":
                entry = {"seat": event["seat"], "bid": "pass"}
            else:
                entry = {"seat": event["seat"], **_call(event["call"])}
            self.current["auction"].append(entry)
            self.step("auction", view, seq, seat=event["seat"], auto=move.auto, entry=entry)
        elif kind == "auction_won":
            self.current["bidder"], self.current["bid"] = event["seat"], event["amount"]
        elif kind == "discarded":
            self.step("discard", view, seq, seat=event.get("seat"), count=event.get("count"))
        elif kind == "sars_chosen":
            self.current["sars"] = bool(event.get("sars"))
            self.step("sars", view, seq, seat=event.get("seat"), sars=bool(event.get("sars")))
        elif kind == "trump_named":
            self.current["trump"] = event.get("suit")
            if "sars" in event:
                self.current["sars"] = bool(event["sars"])
            middle = bool(event.get("middle"))  # H4-X1: only that it was the middle card, not which
            if self.game.name.startswith("hokm"):
                self.step("trump", view, seq, seat=event.get("seat"), suit=event.get("suit"), middle=middle)
        elif kind == "auction_over":
            self.current["contract"] = _contract(event.get("contract"))
            self.current["trump"] = view.get("trump")
            self.step("contract", view, seq, seat=(self.current["contract"] or {}).get("declarer"))
        elif kind == "passed_out":
            self.current["result"] = {"passed_out": True}
            self.step("round_end", view, seq, result=self.current["result"])
        elif kind == "card_played":
            if self.trick_done:
                self.trick, self.trick_done = [], False
            if not self.trick:
                self.current["tricks"].append({"cards": [], "winner": None})
            card = {"seat": event["seat"], "card": event["card"], "cut": bool(event.get("cut"))}
            self.trick.append(card)
            self.current["tricks"][-1]["cards"].append(card)
            self.step(
                "card", view, seq, seat=event["seat"], card=event["card"], cut=card["cut"], auto=move.auto
            )
        elif kind == "trick_won":
            trick = self.current["tricks"][-1]
            trick["winner"] = event["seat"]
            if "points" in event:
                trick["points"] = event["points"]
            self.trick_done = True
            # The last card's step shows who took the trick.
            last = self.steps[-1]
            last["winner"] = event["seat"]
            last.update(self.scores(view))
        elif kind in ("round_won", "round_scored", "deal_scored"):
            self.current["result"] = self.round_result(event, view)
            self.current["score_after"] = self.scores(view)["match"]
            if self.game.name == "bridge":
                self.current["hands"] = self.bridge_hands()
            self.step("round_end", view, seq, result=self.current["result"])
        elif kind in ("match_won", "rubber_won"):
            if self.steps and self.steps[-1]["kind"] == "round_end":
                self.steps[-1].update(self.scores(view))
                self.current["score_after"] = self.scores(view)["match"]

    def round_result(self, event: dict, view: dict) -> dict:
        kind = event["type"]
        if kind == "round_won":
            return {"team": event["team"], "points": event["points"], "kot": event.get("kot")}
        if kind == "round_scored":
            return {
                "bidder": event["bidder"],
                "bid": event["bid"],
                "points": list(event["points"]),
                "score": list(event["score"]),
            }
        contract = _contract(event.get("contract"))
        entries = [
            {"team": e["team"], "line": e["line"], "kind": e["kind"], "points": e["points"]}
            for e in event.get("entries", [])
        ]
        return {"contract": contract, "tricks": event.get("tricks"), "entries": entries}

    def bridge_hands(self) -> list | None:
        """B-4 after the deal: every card was played face up, so the four hands
        are the tricks' cards by seat; None if the deal was not played out."""
        tricks = self.current["tricks"]
        if len(tricks) != 13 or any(len(t["cards"]) != 4 for t in tricks):
            return None
        hands = {seat: [] for seat in range(1, 5)}
        for t in tricks:
            for c in t["cards"]:
                hands[c["seat"]].append(c["card"])
        return [engine_sort(hands[seat]) for seat in range(1, 5)]


def engine_sort(cards: list[str]) -> list[str]:
    from games.engine.cards import sort_hand

    return list(sort_hand(cards))


def replay(game_name: str, rules: dict, moves: list[LoggedMove]):
    """Apply the log through the engine; yields (move, events, public view).
    Raises Unreplayable when the engine refuses an action or the events differ."""
    game = engine.get(game_name)
    state = game.new_match(game.validate_rules(rules))
    for move in moves:
        try:
            state, events = game.apply(state, move.seat, move.action)
        except IllegalAction:
            raise Unreplayable("refused", move.seq) from None
        if move.events is not None and _signature(move.events) != _signature(events):
            raise Unreplayable("diverged", move.seq)
        yield move, events, game.view(state, None), state


def build(match: dict, moves: list[LoggedMove], dd: bool = True) -> dict:
    """The public timeline of a match. ``match`` holds: id, game, rules,
    players ([{seat, username, bot}]), status, result, practice."""
    check_log(moves)
    game = engine.get(match["game"])
    builder = _Builder(game, game.players)
    state = None
    for move, events, view, after in replay(match["game"], match.get("rules") or {}, moves):
        builder.feed(move, events, view)
        state = after
    if match.get("status") == "finished":
        final = game.result(state)
        if final is None or list(final.get("score", [])) != list(
            (match.get("result") or {}).get("score", [])
        ):
            raise Unreplayable("diverged", moves[-1].seq)
    rounds = builder.rounds
    if game.name == "bridge" and dd:
        for rnd in rounds:
            if rnd.get("hands"):
                rnd["double_dummy"] = doubledummy.table(rnd["hands"])
    players = [
        {
            "seat": p["seat"],
            "name": p.get("username") or "",
            "bot": bool(p.get("bot")),
            # A bot is named by the page in its language, as the table names it, with its level.
            "level": p.get("level") if p.get("bot") else None,
        }
        for p in sorted(match.get("players") or [], key=lambda p: p["seat"])
    ]
    return {
        "replayable": True,
        "match": {
            "id": match["id"],
            "game": game.name,
            "players": game.players,
            "seats": players,
            "status": match.get("status"),
            "practice": bool(match.get("practice")),
            "result": public_result(match.get("result")),
            "target": public_target(game.name, match.get("rules") or {}),
        },
        "rounds": rounds,
        "steps": builder.steps,
        "chart": [[0, 0]] + [r["score_after"] for r in rounds if r["result"] is not None],
    }


def public_result(result: dict | None) -> dict | None:
    if not result:
        return None
    return {"winner": result.get("winner"), "score": list(result.get("score") or [])}


def public_target(name: str, rules: dict):
    if name.startswith("hokm"):
        return rules.get("target")
    if name.startswith("shelem"):
        return rules.get("cap")
    return None


def unreplayable(match: dict, exc: Unreplayable) -> dict:
    return {
        "replayable": False,
        "reason": exc.code,
        "seq": exc.seq,
        "match": {"id": match["id"], "game": match["game"], "status": match.get("status")},
    }
