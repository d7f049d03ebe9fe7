"""Fixtures for the ledger and leaderboards: matches ended through the real services."""

from __future__ import annotations

import pytest
from django.db import transaction

from games import accept, clock, engine
from games import services as play_service
from games.engine import CHANCE
from games.models import Match, Move
from rooms.models import Room
from rooms.services import start
from tests.rooms.conftest import make_room

PERSIAN_DIGITS = "۰۱۲۳۴۵۶۷۸۹"


@pytest.fixture(autouse=True)
def quiet_table(settings):
    # Deadlines in-process (no server loop here: nothing is scheduled), never a
    # shared Celery queue; short pauses.
    settings.DEADLINES = "inprocess"
    settings.TABLE = {**settings.TABLE, "BOT_DELAY": 0.01, "ROUND_PAUSE": 0.01}
    settings.FAIR_WAIT_SECONDS = 0  # no browser here: every human seat's value is its substitute (F-4)
    # Many players per test: a fast password hash.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    yield
    clock.settle()


def build_match(game: str, users, bots=()) -> Match:
    """An active match of ``game``: seat n holds users[n-1], or a bot for seats in ``bots``."""
    n = engine.get(game).players
    creator = next(u for u in users if u is not None)
    room = Room.objects.create(game=game, creator=creator, status=Room.Status.PLAYING)
    players, it = [], iter(users)
    for seat in range(1, n + 1):
        if seat in bots:
            players.append({"seat": seat, "user_id": None, "username": None, "bot": True})
        else:
            user = next(it)
            players.append({"seat": seat, "user_id": user.pk, "username": user.username, "bot": False})
    return Match.objects.create(
        room=room,
        game=game,
        rules={},
        state=engine.get(game).new_match({}),
        players=players,
        practice=bool(bots),
    )


def finish(match: Match, winner: int, score) -> Match:
    """End ``match`` through the play service's own ending (signal inside the transaction)."""
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        accept.finish(locked, {"winner": winner, "score": list(score)})
    match.refresh_from_db()
    return match


def abandon(match: Match, leaver_seat: int) -> Match:
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        play_service.abandon(locked, leaver_seat)
    match.refresh_from_db()
    return match


def finished(game: str, users, winner: int, score, bots=()) -> Match:
    return finish(build_match(game, users, bots), winner, score)


def started_room(creator, guests, game="hokm4", rules=None, bots=()):
    """A real room, every guest ready, started by its creator: (room, match)."""
    room = make_room(creator, guests, game=game, rules=rules, bots=bots)
    match = start(room, creator)
    room.refresh_from_db()
    return room, match


def play_out(match_id: int, max_actions: int = 5000) -> Match:
    """Drive a match to its end through ``games.services.play``: the dealer
    deals, every seat plays its automatic (legal) move."""
    for _ in range(max_actions):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.ACTIVE:
            return match
        game = engine.get(match.game)
        seat = min(game.to_act(match.state))
        if seat == CHANCE:
            play_service.play(match_id, accept.shuffled(match, game), seat=CHANCE, actor=Move.Actor.DEALER)
        else:
            play_service.play(
                match_id, game.auto_action(match.state, seat), seat=seat, actor=Move.Actor.CLOCK
            )
    raise AssertionError("the match did not end")
