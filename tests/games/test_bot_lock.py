"""A bot thinks before it takes the match's row lock (issue 21, C-8), and a
deadline still running on its thread is waited for (``clock.settle``).

A strong bot's search takes up to a few hundred milliseconds. While it
searched under the lock, every other action of the table (a player's
leave, the tea, a rematch) queued behind it, and a test's database flush
beside it deadlocked (CI failed on that). Real threads, one PostgreSQL
connection each.
"""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.db import connection, transaction

from games import clock, engine
from games import services as play_service
from games.models import Match, Move
from rooms import services as room_service

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _inprocess(settings):
    settings.DEADLINES = "inprocess"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    yield
    clock.settle()


def _bot_to_act(alice):
    """A hokm4 match (alice and three bots) at a bot's turn, its deadline due."""
    room = room_service.create_room(alice, "hokm4", {"middle_card": False})
    for number in (2, 3, 4):
        room_service.set_bot(room, alice, number, level="easy")
    match = room_service.start(room, alice)
    game = engine.get("hokm4")
    for _ in range(60):
        match.refresh_from_db()
        seat = min(game.to_act(match.state))
        if seat not in (0, 1):
            Match.objects.filter(pk=match.pk).update(deadlines={str(seat): clock.now() - 1})
            return match, seat
        if seat == 1:
            play_service.play(match.pk, game.auto_action(match.state, 1), user=alice, version=match.version)
        else:
            Match.objects.filter(pk=match.pk).update(deadlines={"0": clock.now() - 1})
            assert play_service.expire(match.pk, match.version) is not None
    raise AssertionError("no bot turn")


def _in_another_connection(fn):
    """``fn()`` on a thread of its own (its own connection); its result or its exception."""
    out: dict = {}

    def run():
        try:
            out["value"] = fn()
        except Exception as exc:  # noqa: BLE001 - handed back to the test
            out["error"] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    assert not thread.is_alive()
    return out


def _try_lock(match_id):
    with transaction.atomic():
        return (
            Match.objects.select_for_update(nowait=True)
            .filter(pk=match_id)
            .values_list("version", flat=True)[0]
        )


def test_c8_the_bot_searches_without_holding_the_matchs_row_lock(alice, monkeypatch):
    match, seat = _bot_to_act(alice)
    real = play_service.bot_action
    seen = []

    def thinking(game, state, at, level="normal", seed=0):
        # While the bot searches, another connection can lock the row at once (NOWAIT).
        seen.append(_in_another_connection(lambda: _try_lock(match.pk)))
        return real(game, state, at, level=level, seed=seed)

    monkeypatch.setattr(play_service, "bot_action", thinking)
    before = Move.objects.filter(match=match).count()
    assert play_service.expire(match.pk, match.version) is not None
    assert seen == [{"value": match.version}], seen
    assert Move.objects.filter(match=match).count() == before + 1
    assert Move.objects.filter(match=match).latest("seq").seat == seat


def test_c8_a_thought_about_a_version_that_moved_on_is_dropped(alice, monkeypatch):
    match, seat = _bot_to_act(alice)
    real = play_service.bot_action

    def overtaken(game, state, at, level="normal", seed=0):
        # Meanwhile the match moved on (a leave, the tea...): here, its version.
        _in_another_connection(lambda: Match.objects.filter(pk=match.pk).update(version=match.version + 1))
        return real(game, state, at, level=level, seed=seed)

    monkeypatch.setattr(play_service, "bot_action", overtaken)
    before = Move.objects.filter(match=match).count()
    assert play_service.expire(match.pk, match.version) is None  # stale now: nothing applied
    assert Move.objects.filter(match=match).count() == before


def test_c8_the_bot_plays_what_it_would_have_played_under_the_lock(alice):
    """Thought out before the lock or under it, the same seed gives the same card."""
    match, seat = _bot_to_act(alice)
    expected = play_service._think(match, seat)
    assert play_service.expire(match.pk, match.version) is not None
    assert Move.objects.filter(match=match).latest("seq").action == expected


def test_settle_waits_for_a_deadline_still_running_on_its_thread():
    started, release = threading.Event(), threading.Event()
    ran = []

    def slow_expire(match_id, version):
        started.set()
        release.wait(10)
        ran.append((match_id, version))

    saved = dict(clock._handlers)
    clock._handlers["expire"] = slow_expire
    try:

        async def fire_and_leave():
            task = asyncio.get_running_loop().create_task(clock._fire(5, 9))
            while not started.is_set():
                await asyncio.sleep(0.01)
            task.cancel()  # the loop goes away; the handler's thread does not

        asyncio.run(fire_and_leave())
        assert clock.settle(timeout=0.2) is False  # still in its transaction
        release.set()
        assert clock.settle(timeout=10) is True
        assert ran == [(5, 9)]
    finally:
        release.set()
        clock._handlers.update(saved)
