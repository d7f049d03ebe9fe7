"""The production ticker (games/ticker.py): a bot's turn never queues another
table's clock behind its search (issue 21, C-8)."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime

import pytest

from games import clock, engine, services, ticker
from games.models import Match, Move, first_due
from rooms import services as room_service
from tests.rooms.conftest import make_room


@pytest.mark.django_db(transaction=True)
def test_due_tells_a_bots_turn_from_a_clock_of_people(alice, bob, charlie, dave, settings):
    settings.DEADLINES = "celery"  # nothing scheduled in-process: the rows are what the ticker reads
    people = room_service.start(make_room(alice, [bob, charlie, dave], rules={"middle_card": False}), alice)
    bots_room = room_service.create_room(bob, "hokm4", {"middle_card": False})
    for seat in (2, 3, 4):
        room_service.set_bot(bots_room, bob, seat)
    bots = room_service.start(bots_room, bob)
    game = engine.get("hokm4")
    # Move the bots' match on until a bot acts, then make both deadlines due.
    bots.refresh_from_db()
    while 1 in game.to_act(bots.state):
        services.play(bots.pk, game.auto_action(bots.state, 1), user=bob, version=bots.version)
        bots.refresh_from_db()
    past = clock.now() - 1
    for match in (people, bots):
        match.refresh_from_db()
        seat = str(min(game.to_act(match.state)))
        Match.objects.filter(pk=match.pk).update(
            deadlines={seat: past}, next_deadline=datetime.fromtimestamp(past, tz=UTC)
        )
    found = {pk: bot for pk, _v, bot in ticker.due()}
    assert found[people.pk] is False
    assert found[bots.pk] is True
    # The next deal (seat 0) is the dealer's, never a bot's.
    assert ticker._bot_turn({"0": past, "2": past + 5}, bots.players) is False
    assert ticker._bot_turn({"3": past}, bots.players) is True


def test_the_first_deadline_is_read_one_way_by_expire_and_the_ticker():
    """games.models.first_due: the seat and who plays it (C-8: the clock, a bot, the dealer)."""
    players = [{"seat": 1, "user_id": 7}, {"seat": 2, "bot": True}, {"seat": 3, "user_id": 8}]
    assert first_due({}, players) is None and first_due(None, players) is None
    assert first_due({"3": 10.0, "2": 12.0}, players) == (3, Move.Actor.CLOCK)
    assert first_due({"3": 12.0, "2": 10.0}, players) == (2, Move.Actor.BOT)
    assert first_due({"3": 10.0, "1": 10.0}, players) == (1, Move.Actor.CLOCK)  # a tie: the lower seat
    assert first_due({"0": 10.0, "2": 11.0}, players) == (0, Move.Actor.DEALER)
    # with ``now``: only what is due by then (50 ms early counts)
    assert first_due({"2": 10.0}, players, now=9.0) is None
    assert first_due({"2": 10.0}, players, now=9.96) == (2, Move.Actor.BOT)
    assert first_due({"2": 10.0, "3": 20.0}, players, now=15.0) == (2, Move.Actor.BOT)


def test_a_crowd_of_bot_turns_does_not_hold_up_a_timeout(monkeypatch):
    """Five bot tables each thinking for a long time, then one person's timeout:
    the timeout is played at once, on the pool the bots cannot fill."""
    release = threading.Event()
    played: dict[int, float] = {}
    told: dict[int, bool] = {}

    def expire(match_id, version, bot=None):
        told[match_id] = bot  # whether the row said it was a bot's turn (no thought first when not)
        if match_id < 100:  # the bots' tables: a search that lasts until released
            release.wait(10)
        played[match_id] = time.monotonic()

    rows = [(i, 1, True) for i in range(1, 6)] + [(100, 1, False)]
    monkeypatch.setattr(ticker, "due", lambda limit=200: rows)
    monkeypatch.setattr(services, "expire", expire)
    tick = ticker.Ticker(interval=60, workers=2, bot_workers=2)
    try:
        started = time.monotonic()
        assert tick.tick() == 6
        deadline = time.monotonic() + 5
        while 100 not in played and time.monotonic() < deadline:
            time.sleep(0.01)
        assert 100 in played and played[100] - started < 1.0
        assert told[100] is False
        assert not any(i in played for i in range(1, 6))  # the bots are still thinking
        # The bots in flight are not handed out twice (the timeout, done, would be: its row is stale here).
        assert tick.tick() == 1
    finally:
        release.set()
        tick.pool.shutdown(wait=True)
        tick.bots.shutdown(wait=True)
