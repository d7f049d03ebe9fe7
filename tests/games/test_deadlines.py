"""Turn deadlines (C-8, L-5): automatic legal moves, exactly once, surviving lost workers.

The Celery tests start a real worker (and beat) in a subprocess against the
test database and real Redis; nothing runs in eager mode. The embedded tests
use the in-process asyncio timers of the Daphne process.
"""

from __future__ import annotations

import os
import re
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app
from games import engine, services
from games.models import Match, Move
from rooms import services as room_service
from tests.celery_worker import CeleryWorker
from tests.rooms.conftest import make_room

ROOT = Path(__file__).resolve().parents[2]
SCALE = 0.1  # every turn lasts a tenth: the 10 s choice becomes 1 s
TURN = 10 * SCALE


def start_hokm4(alice, bob, charlie, dave, **rules):
    room = make_room(alice, [bob, charlie, dave], rules={"middle_card": False, "turn_seconds": 10, **rules})
    match = room_service.start(room, alice)
    match.refresh_from_db()
    return room, match


def auto_moves(match):
    return list(Move.objects.filter(match=match, actor=Move.Actor.CLOCK).order_by("seq"))


def wait_until(predicate, timeout, step=0.05):
    end = time.time() + timeout
    while time.time() < end:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


def lateness(match_id, seq, deadline):
    move = Move.objects.get(match_id=match_id, seq=seq)
    return move.created_at.timestamp() - deadline


# --- Celery ----------------------------------------------------------------------------------


class Worker(CeleryWorker):
    """A worker on the test's queue and database (``beat``: with Celery beat in it)."""

    def __init__(self, queue: str, beat: bool, tmp: Path):
        db = connection.settings_dict
        env = {
            **os.environ,
            "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}",
            "REDIS_URL": settings.REDIS_URL,
            "CELERY_QUEUE": queue,
            "DEADLINES": "celery",
            "TURN_SCALE": str(SCALE),
            "BOT_DELAY": "0.05",
            "BOT_LEVEL": "easy",
            "ROUND_PAUSE": "0.2",
            "FAIR_WAIT_SECONDS": "0",
            "SWEEP_SECONDS": "1",
            "CACHE_PREFIX": f"celery-test-{queue}",
        }
        extra = ["-B", "-s", str(tmp / f"beat-{uuid.uuid4().hex[:6]}")] if beat else []
        log = tmp / f"worker-{uuid.uuid4().hex[:6]}.log"
        super().__init__(env, queue, log, name=f"w-{uuid.uuid4().hex[:6]}", extra=extra)
        self.wait_ready(30)

    def received(self) -> int:
        return len(re.findall(r"Task games\.tasks\.expire_turn\[[^]]+\] received", self.log.read_text()))

    def finished(self, value: bool) -> int:
        return len(
            re.findall(
                rf"Task games\.tasks\.expire_turn\[[^]]+\] succeeded in [0-9.]+s: {value}",
                self.log.read_text(),
            )
        )


@pytest.fixture
def celery_mode(settings, tmp_path):
    if not settings.REDIS_URL:
        pytest.skip("needs Redis (REDIS_URL)")
    queue = f"test-{uuid.uuid4().hex[:8]}"
    settings.DEADLINES = "celery"
    settings.TABLE = {**settings.TABLE, "TURN_SCALE": SCALE, "BOT_DELAY": 0.05, "ROUND_PAUSE": 0.2}
    old_queue = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = queue
    workers = []

    def start(beat=False):
        worker = Worker(queue, beat, tmp_path)
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        # the test has asserted what it asserts: no warm shutdown (its wait for the
        # task at hand cost seconds per test); the worker's connection ends with it
        if worker.proc.poll() is None:
            worker.kill()
    celery_app.conf.task_default_queue = old_queue


pytestmark_celery = [pytest.mark.celery, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_c_8_a_timed_out_turn_gets_exactly_one_automatic_move_near_its_deadline(
    celery_mode, alice, bob, charlie, dave, capsys
):
    celery_mode()
    room, match = start_hokm4(alice, bob, charlie, dave)
    hakem_deadline = min(float(t) for t in match.deadlines.values())
    assert wait_until(lambda: auto_moves(match), TURN + 10)
    first = auto_moves(match)[0]
    assert first.action["type"] == "trump"  # the hakem's choice was made for him (C-8)
    late = lateness(match.pk, first.seq, hakem_deadline)
    assert -0.05 <= late < 1.5, late
    # the turns after it time out too, one automatic move each, never two for one turn
    assert wait_until(lambda: len(auto_moves(match)) >= 4, 4 * TURN + 10)
    moves = list(Move.objects.filter(match=match).order_by("seq"))
    assert [m.seq for m in moves] == list(range(1, len(moves) + 1))
    game = engine.get("hokm4")
    match.refresh_from_db()
    assert game.result(match.state) is None and game.to_act(match.state)
    with capsys.disabled():
        print(f"\n[deadline lateness, Celery] first automatic move {late * 1000:.0f} ms after its deadline")


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_c_8_the_same_task_delivered_twice_applies_once(celery_mode, alice, bob, charlie, dave):
    """Two more deliveries of one (match, version) deadline, besides the
    worker's own ticker: exactly one automatic move for that turn."""
    from games.tasks import expire_turn

    worker = celery_mode()
    room, match = start_hokm4(alice, bob, charlie, dave)
    version = match.version
    due = max(0.0, min(float(t) for t in match.deadlines.values()) - time.time())
    expire_turn.apply_async((match.pk, version), countdown=due)
    expire_turn.apply_async((match.pk, version), countdown=due)
    assert wait_until(lambda: worker.finished(True) + worker.finished(False) >= 2, TURN + 10), (
        worker.log.read_text()[-2000:]
    )
    assert wait_until(lambda: Match.objects.get(pk=match.pk).version > version, TURN + 5)
    applied = Move.objects.filter(match=match, seq=version + 1)
    assert applied.count() == 1 and applied.get().actor == Move.Actor.CLOCK
    # at most one of the two deliveries applied it (the ticker may have been first); the rest did nothing
    assert worker.finished(True) <= 1


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_c_8_a_move_just_before_the_deadline_wins_and_the_ticker_does_nothing(
    celery_mode, alice, bob, charlie, dave
):
    celery_mode()
    room, match = start_hokm4(alice, bob, charlie, dave, turn_seconds=20)  # 2 s
    seat = min(engine.get("hokm4").to_act(match.state))
    deadline = float(match.deadlines[str(seat)])
    assert wait_until(lambda: time.time() >= deadline - 0.3, 5, 0.01)
    services.play(match.pk, {"type": "trump", "suit": "H"}, seat=seat, version=match.version)
    # well past the old deadline: the ticker saw the new one, not the old
    assert wait_until(lambda: time.time() >= deadline + 0.5, 5, 0.05)
    first = Move.objects.get(match=match, seq=match.version + 1)
    assert first.actor == Move.Actor.PLAYER and first.action == {"type": "trump", "suit": "H"}
    assert not Move.objects.filter(match=match, seq=match.version + 1, actor=Move.Actor.CLOCK).exists()


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_c_8_a_killed_worker_loses_no_deadline(celery_mode, alice, bob, charlie, dave):
    """The deadline lives in the match row, not in a worker's memory: with the
    only worker killed nothing moves, and the next worker to start plays the
    overdue turn at once (and the beat's sweep would too)."""
    worker = celery_mode()
    worker.kill()
    room, match = start_hokm4(alice, bob, charlie, dave, turn_seconds=10)  # 1 s
    deadline = min(float(t) for t in match.deadlines.values())
    assert wait_until(lambda: time.time() > deadline + 1.0, 5)
    assert not auto_moves(match)  # nobody was there to play it
    celery_mode(beat=True)
    assert wait_until(lambda: auto_moves(match), 3 * TURN + 15)
    assert len([m for m in auto_moves(match) if m.seq == match.version + 1]) == 1


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_l_5_a_disconnected_players_turns_keep_being_played_until_he_returns(celery_mode, alice):
    """Nobody is connected: the absent player's turns are played for him (the three bots play theirs)."""
    celery_mode()
    room = room_service.create_room(alice, "hokm4", {"turn_seconds": 10, "middle_card": False})
    for seat in (2, 3, 4):
        room_service.set_bot(room, alice, seat)
    match = room_service.start(room, alice)
    assert wait_until(lambda: len(auto_moves(match)) >= 3, 8 * TURN + 15)
    seats = {m.seat for m in auto_moves(match)}
    assert seats == {1}  # only the absent human's turns are automatic; bots play as bots
    assert Move.objects.filter(match=match, actor=Move.Actor.BOT).exists()
    # he returns and plays himself: his move is his own, not the clock's
    game = engine.get("hokm4")
    for _ in range(200):
        match.refresh_from_db()
        if 1 in game.to_act(match.state):
            try:
                services.play(
                    match.pk, game.legal_actions(match.state, 1)[0], user=alice, version=match.version
                )
                break
            except services.PlayError:
                continue
        time.sleep(0.02)
    assert Move.objects.filter(match=match, seat=1, actor=Move.Actor.PLAYER).exists()


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(150)
def test_l_7_the_stand_in_plays_each_turn_once_across_a_killed_worker(celery_mode, alice):
    """Nobody connected: after two clock moves the stand-in plays alice's turns
    (the normal bot's choice, on the 5 s clock, scaled here). The only worker
    is killed in the middle and another one started: no turn played twice,
    none lost, and the stand-in goes on."""
    from games import standin

    worker = celery_mode()
    room = room_service.create_room(alice, "hokm4", {"turn_seconds": 10, "middle_card": False})
    for seat in (2, 3, 4):
        room_service.set_bot(room, alice, seat)
    match = room_service.start(room, alice)

    assert wait_until(lambda: len(auto_moves(match)) >= 3, 12 * TURN + 20), worker.log.read_text()[-2000:]
    match.refresh_from_db()
    assert match.gone.get("1", 0) >= standin.AFTER
    worker.kill()
    killed_at = Match.objects.get(pk=match.pk).version
    time.sleep(1.0)
    assert Match.objects.get(pk=match.pk).version == killed_at  # nobody plays meanwhile
    celery_mode(beat=True)
    assert wait_until(lambda: len(auto_moves(match)) >= 6, 12 * TURN + 30)
    moves = list(Move.objects.filter(match=match).order_by("seq"))
    assert [m.seq for m in moves] == list(range(1, len(moves) + 1))  # none lost, none doubled
    match.refresh_from_db()  # the row first, then the moves up to its version (the match plays on)
    clock_moves = [m for m in auto_moves(match) if m.seq <= match.version]
    assert {m.seat for m in clock_moves} == {1}
    # Each clock move counted once in his row (the third on were the stand-in's: still the
    # clock's moves in the log, L-5, no leave); the match goes on.
    assert match.status == Match.Status.ACTIVE and match.leaver_seat is None
    assert match.gone == {"1": len(clock_moves)}
