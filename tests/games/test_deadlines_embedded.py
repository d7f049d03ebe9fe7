"""Turn deadlines in the embedded default (C-8, L-5): the in-process asyncio timers of the Daphne
process, the sweep behind them, and the hokm2 draft's own clocks. The Celery worker's are in
test_deadlines.py."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async

from games import clock, engine, services
from games.engine import CHANCE
from games.models import Match, Move
from rooms import services as room_service
from tests.rooms.conftest import make_room

from .test_deadlines import SCALE, TURN, auto_moves, lateness, start_hokm4

# --- the embedded default: in-process timers -----------------------------------------------------


@pytest.fixture
def embedded_mode(settings):
    settings.DEADLINES = "inprocess"
    settings.TABLE = {**settings.TABLE, "TURN_SCALE": SCALE, "BOT_DELAY": 0.05, "ROUND_PAUSE": 0.2}
    yield
    clock.settle()


async def _bind():
    clock.bind_loop(asyncio.get_running_loop())


async def await_until(predicate, timeout):
    end = time.time() + timeout
    while time.time() < end:
        if await sync_to_async(predicate)():
            return True
        await asyncio.sleep(0.05)
    return await sync_to_async(predicate)()


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
async def test_c_8_embedded_a_timed_out_turn_gets_one_automatic_move(
    embedded_mode, alice, bob, charlie, dave, capsys
):
    await _bind()
    room, match = await sync_to_async(start_hokm4)(alice, bob, charlie, dave)
    deadline = min(float(t) for t in match.deadlines.values())
    assert await await_until(lambda: auto_moves(match), TURN + 5)
    first = (await sync_to_async(auto_moves)(match))[0]
    late = await sync_to_async(lateness)(match.pk, first.seq, deadline)
    assert -0.05 <= late < 0.5, late
    assert await await_until(lambda: len(auto_moves(match)) >= 3, 3 * TURN + 5)
    seqs = await sync_to_async(lambda: list(Move.objects.filter(match=match).values_list("seq", flat=True)))()
    assert seqs == list(range(1, len(seqs) + 1))
    with capsys.disabled():
        print(f"\n[deadline lateness, embedded] first automatic move {late * 1000:.0f} ms after its deadline")


@pytest.mark.django_db(transaction=True)
def test_c_8_embedded_a_duplicate_or_stale_expiry_does_nothing(embedded_mode, alice, bob, charlie, dave):
    room, match = start_hokm4(alice, bob, charlie, dave)
    version = match.version
    # Not due yet: an early timer does nothing.
    assert services.expire(match.pk, version) is None
    Match.objects.filter(pk=match.pk).update(deadlines={k: time.time() - 1 for k in match.deadlines})
    assert services.expire(match.pk, version) is not None
    assert services.expire(match.pk, version) is None  # the same deadline again: stale
    assert Match.objects.get(pk=match.pk).version == version + 1


@pytest.mark.django_db(transaction=True)
def test_c_8_embedded_a_move_before_the_deadline_wins(embedded_mode, alice, bob, charlie, dave):
    room, match = start_hokm4(alice, bob, charlie, dave)
    seat = min(engine.get("hokm4").to_act(match.state))
    services.play(match.pk, {"type": "trump", "suit": "D"}, seat=seat, version=match.version)
    Match.objects.filter(pk=match.pk).update(deadlines={k: time.time() - 1 for k in match.deadlines})
    assert services.expire(match.pk, match.version) is None  # the old deadline's version is gone
    assert Move.objects.get(match=match, seq=match.version + 1).actor == Move.Actor.PLAYER


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
async def test_c_8_embedded_lost_timers_are_covered_by_the_sweep(embedded_mode, alice, bob, charlie, dave):
    room, match = await sync_to_async(start_hokm4)(alice, bob, charlie, dave)  # no loop bound: no timer armed
    # The clock jumps past the deadline and the sweep's grace (the now() seam, no wall-clock wait).
    assert not await sync_to_async(services.sweep)()  # not yet overdue: nothing played
    clock.set_now(lambda: time.time() + TURN + 2.2)
    try:
        assert not await sync_to_async(auto_moves)(match)
        moved = await sync_to_async(services.sweep)()
        assert moved == 1  # the overdue turn only: the next one is not due on the new clock
        assert len(await sync_to_async(auto_moves)(match)) == 1
    finally:
        clock.set_now(None)


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
async def test_l_5_embedded_an_absent_players_turns_keep_being_played(embedded_mode, alice):
    await _bind()

    def setup():
        room = room_service.create_room(alice, "hokm4", {"turn_seconds": 10, "middle_card": False})
        for seat in (2, 3, 4):
            room_service.set_bot(room, alice, seat)
        return room_service.start(room, alice)

    match = await sync_to_async(setup)()
    assert await await_until(lambda: len(auto_moves(match)) >= 3, 8 * TURN + 10)
    assert {m.seat for m in await sync_to_async(auto_moves)(match)} == {1}


def test_c_8_hokm2_drafting_seats_each_keep_their_own_deadline(transactional_db, alice, bob, settings):
    settings.DEADLINES = "inprocess"
    room = make_room(alice, [bob], game="hokm2", rules={"turn_seconds": 10})
    match = room_service.start(room, alice)
    match.refresh_from_db()
    game = engine.get("hokm2")
    seat = min(game.to_act(match.state))
    services.play(match.pk, game.auto_action(match.state, seat), seat=seat, version=match.version)  # trump
    match.refresh_from_db()
    assert game.to_act(match.state) == {1, 2}
    first = dict(match.deadlines)
    clock.set_now(lambda: time.time() + 1)  # a second later, by the clock seam
    try:
        services.play(match.pk, {"type": "draft", "take": True}, seat=1, version=match.version)
    finally:
        clock.set_now(None)
    match.refresh_from_db()
    assert match.deadlines["2"] == first["2"]  # seat 2's clock did not restart when seat 1 drafted
    assert match.deadlines["1"] > first["1"]
    assert CHANCE not in game.to_act(match.state)
