"""Recorded matches for the replay tests (R-10): real rooms, real play service, real move log."""

from __future__ import annotations

import json
import re

import pytest

from games import engine, services
from games.engine import CHANCE
from games.models import Match, Move
from rooms import services as room_service
from tests.rooms.conftest import make_room

# A card anywhere inside a string, not glued to other letters or digits.
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(?:[AKQJT98765432][SHDC]|RJ|BJ)(?![A-Za-z0-9])")

SHORT_RULES = {
    "hokm4": {"target": 3, "middle_card": True},
    "hokm2": {"target": 3},
    "shelem4": {"cap": 300},
    "shelem2": {"cap": 300},
    "bridge": {},
}


@pytest.fixture(autouse=True)
def instant_table(settings):
    """No pause between rounds, no clock of our own: the test drives every move."""
    settings.TABLE = {**settings.TABLE, "BOT_DELAY": 0, "ROUND_PAUSE": 0}
    settings.DEADLINES = "inprocess"


def start_match(game: str, creator, guests, bots=(), rules=None) -> Match:
    room = make_room(creator, guests, game=game, rules={**SHORT_RULES[game], **(rules or {})}, bots=bots)
    match = room_service.start(room, creator)
    match.refresh_from_db()
    return match


def play_out(match: Match, stop_after: int | None = None, limit: int = 6000) -> Match:
    """Every seat plays the engine's automatic move through the play service;
    the deal after a round comes from the service's own deadline (C-7)."""
    game = engine.get(match.game)
    for _ in range(limit):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return match
        if stop_after is not None and match.version >= stop_after:
            return match
        to_act = game.to_act(match.state)
        if CHANCE in to_act:
            assert services.expire(match.pk, match.version) is not None
            continue
        seat = min(to_act)
        services.play(match.pk, game.auto_action(match.state, seat), seat=seat, version=match.version)
    raise AssertionError("the match did not end")


def strings_in(value):
    """Every string of a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_in(v)


def cards_named(value) -> set[str]:
    """Every card named anywhere in a JSON value (or a text)."""
    texts = [value] if isinstance(value, str) else strings_in(value)
    return {m for text in texts for m in CARD_TOKEN.findall(text)}


def rounds_of_log(match: Match) -> list[dict]:
    """Per round (deal): the cards dealt and, after each move, the cards played face up so far."""
    rounds: list[dict] = []
    for seq, action, events in (
        Move.objects.filter(match=match).order_by("seq").values_list("seq", "action", "events")
    ):
        if action.get("type") == "deal":
            rounds.append({"dealt": set(action["deck"]), "played": set(), "by_seq": {}})
        for e in events:
            if e.get("type") == "card_played":
                rounds[-1]["played"].add(e["card"])
        if rounds:
            rounds[-1]["by_seq"][seq] = set(rounds[-1]["played"])
    return rounds


def leaks(timeline: dict, match: Match) -> set[str]:
    """Cards the timeline names that were not played face up in that round
    (by that step, for a step). Zero tolerated."""
    log = rounds_of_log(match)
    found = set()
    for i, rnd in enumerate(timeline.get("rounds", [])):
        found |= cards_named(rnd) - log[i]["played"]
    for step in timeline.get("steps", []):
        if step.get("round") is None:
            found |= cards_named(step)
            continue
        found |= cards_named(step) - log[step["round"]]["by_seq"][step["seq"]]
    rest = {k: v for k, v in timeline.items() if k not in ("rounds", "steps")}
    return found | cards_named(rest)


def dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False)
