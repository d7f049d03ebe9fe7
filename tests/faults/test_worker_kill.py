"""Issue 14 (C-8): the Celery worker holding a turn's countdown is killed; the deadline fires once.

A real worker receives the turn's ``expire_turn`` task with its countdown
(Celery keeps such a task in the worker's memory, unacknowledged, until it
is due) and is killed with SIGKILL before the deadline. Nothing plays the
turn while no worker lives; the next worker's ticker reads the overdue
deadline from the match row and plays it. The killed worker's task comes
back from the broker later (its visibility timeout): sent again here, it
finds a newer version and does nothing.

Nothing lost means: the turn gets exactly one automatic move, at the
version it was made for, and the move log stays one chain.
"""

from __future__ import annotations

import time

import pytest

from games.models import Match, Move
from games.tasks import expire_turn
from tests.games.test_deadlines import TURN, auto_moves, celery_mode, start_hokm4, wait_until  # noqa: F401

pytestmark = [pytest.mark.faults, pytest.mark.celery, pytest.mark.django_db(transaction=True)]


@pytest.mark.timeout(150)
def test_c_8_killing_the_worker_that_holds_a_countdown_still_fires_the_deadline_once(
    celery_mode,  # noqa: F811
    settings,
    alice,
    bob,
    charlie,
    dave,
    capsys,
):
    holder = celery_mode()
    # 12 s for this turn: time enough for a loaded machine's worker to receive the task first
    settings.TABLE = {**settings.TABLE, "TURN_SCALE": 0.2}
    room, match = start_hokm4(alice, bob, charlie, dave, turn_seconds=60)
    version = match.version
    deadline = min(float(t) for t in match.deadlines.values())
    expire_turn.apply_async((match.pk, version), countdown=max(0.0, deadline - time.time()))
    assert wait_until(lambda: holder.received() >= 1, 10), holder.log.read_text()[-2000:]
    assert time.time() < deadline - 0.5, "the worker must be killed while it still holds the countdown"
    holder.kill()
    killed_at = time.time()

    # nobody alive: the turn waits past its deadline
    assert wait_until(lambda: time.time() > deadline + 0.5, deadline - time.time() + 5)
    assert not auto_moves(match)

    successor = celery_mode()
    assert wait_until(lambda: auto_moves(match), 3 * TURN + 15), successor.log.read_text()[-2000:]
    played = auto_moves(match)[0]
    late = played.created_at.timestamp() - deadline
    # the killed worker's task comes back from the broker: a newer version, nothing to do
    before = successor.finished(False)
    expire_turn.apply_async((match.pk, version))
    assert wait_until(lambda: successor.finished(False) > before, 15), successor.log.read_text()[-2000:]
    assert wait_until(lambda: time.time() > played.created_at.timestamp() + 2 * TURN, 10)

    turn = Move.objects.filter(match=match, seq=version + 1)
    assert turn.count() == 1 and turn.get().actor == Move.Actor.CLOCK and turn.get().seat == played.seat
    seqs = list(Move.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert Match.objects.get(pk=match.pk).version == seqs[-1]
    with capsys.disabled():
        print(
            f"\n[worker kill] killed {deadline - killed_at:.1f} s before the deadline; the next worker "
            f"played the turn {late:.1f} s after it (its start-up); one move; the returned task did nothing"
        )
