"""Helpers for the fairness tests: a match made directly, a round dealt through games.fairness.

The play service (games/services.py) runs the protocol at the real table
(tests/rooms/test_fair_socket.py, tests/browser/test_fair_table.py); here a
small loop does the same without a socket: open the record, commit and reveal,
deal from ``fairness.chance_action``, log the moves and play the round out.
"""

from __future__ import annotations

import hashlib

import pytest
from django.utils import timezone

from games import engine, fairdeal, fairness
from games.engine import CHANCE
from games.models import Match, Move, Round


def value_for(label: str) -> str:
    return hashlib.sha256(label.encode()).hexdigest()


def make_match(creator, game="hokm4", humans=None, rules=None) -> Match:
    """A match of ``game``: ``humans`` maps seat -> user, every other seat is a bot."""
    from rooms.models import Room

    eng = engine.get(game)
    humans = humans or {1: creator}
    room = Room.objects.create(game=game, creator=creator, status=Room.Status.PLAYING)
    rules = eng.validate_rules(rules or {})
    players = []
    for seat in range(1, eng.players + 1):
        user = humans.get(seat)
        players.append(
            {
                "seat": seat,
                "user_id": user.pk if user else None,
                "username": user.username if user else f"bot{seat}",
                "bot": user is None,
            }
        )
    return Match.objects.create(
        room=room,
        game=game,
        rules=rules,
        state=eng.new_match(rules),
        players=players,
        practice=len(humans) < eng.players,
    )


SEEN: dict[tuple[int, int], set] = {}
"""(match id, seat) -> every card that seat's view showed as its own: what its browser records."""


def _watch(match: Match, state: dict) -> None:
    game = engine.get(match.game)
    for seat in range(1, game.players + 1):
        view = game.view(state, seat)
        seen = SEEN.setdefault((match.pk, seat), set())
        seen.update(view.get("hand") or [])
        seen.update(view.get("widow") or [])
        if view.get("draft_card"):
            seen.add(view["draft_card"])


def seen_by(match: Match, seat: int) -> list[str]:
    return sorted(SEEN.get((match.pk, seat), set()))


def _log(match: Match, seat: int, action: dict, state: dict, events: list, actor) -> None:
    match.version += 1
    match.state = state
    _watch(match, state)
    Move.objects.create(match=match, seq=match.version, seat=seat, action=action, actor=actor, events=events)


def exchange(match: Match, number: int, values: dict[int, str]) -> None:
    """Every human seat in ``values`` commits, then reveals (F-1, F-2)."""
    for seat, value in values.items():
        fairness.commit(match.pk, number, seat, fairdeal.commitment(value))
    for seat, value in values.items():
        fairness.reveal(match.pk, number, seat, value)


def deal(match: Match, number: int) -> list:
    """Apply every due chance step from fairness.chance_action (the draw, then the deal)."""
    game = engine.get(match.game)
    events = []
    while CHANCE in game.to_act(match.state):
        kind, cards = game.pending_chance(match.state)
        action = fairness.chance_action(match, number, kind, cards)
        state, new = game.apply(match.state, CHANCE, action)
        _log(match, CHANCE, action, state, new, Move.Actor.DEALER)
        events += new
        if kind == "deal":
            Round.objects.create(match=match, number=number, first_seq=match.version)
            break
    match.save()
    return events


def play_out(match: Match, number: int) -> list:
    """Every seat plays its automatic action until the round is over; the round is closed."""
    game = engine.get(match.game)
    events = []
    for _ in range(400):
        if game.round_over(match.state) or not game.to_act(match.state):
            break
        seat = min(game.to_act(match.state))
        action = game.auto_action(match.state, seat)
        state, new = game.apply(match.state, seat, action)
        _log(match, seat, action, state, new, Move.Actor.CLOCK)
        events += new
    match.save()
    Round.objects.filter(match=match, number=number).update(last_seq=match.version, ended_at=timezone.now())
    return events


def fair_round(match: Match, number: int, values: dict[int, str], finish: bool = True) -> Round:
    fairness.open_round(match, number)
    exchange(match, number, values)
    deal(match, number)
    if finish:
        play_out(match, number)
    return Round.objects.get(match=match, number=number)


@pytest.fixture
def hokm_match(alice, bob):
    """hokm4: alice in seat 1, bob in seat 3, bots in 2 and 4."""
    return make_match(alice, "hokm4", {1: alice, 3: bob})


@pytest.fixture(autouse=True)
def _fair_wait(settings):
    """The fair deal's own tests run with the site's wait (F-4), not the other tests' none."""
    settings.FAIR_WAIT_SECONDS = 4.0
