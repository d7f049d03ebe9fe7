"""Issue 13: the deal after a round's pause (the clock's, on a Celery worker)
is a short transaction: every round of every table pays it. Its statements
are counted here so that a change adding round trips shows."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engine, fairdeal, fairness
from games import services as play_service
from games.engine import CHANCE
from games.models import DealRecord, Round
from rooms import broadcast
from tests.games.test_plain_path import _dealt_state, _match

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_deal_after_a_round_is_one_short_transaction(make_user, settings, push_set_kept):
    settings.DEADLINES = "inprocess"
    settings.FAIR_WAIT_SECONDS = 60
    settings.TABLE = {**settings.TABLE, "ROUND_PAUSE": 0.0}
    users = [make_user(f"deal{i}") for i in range(4)]
    match = _match(users, "hokm4", _dealt_state("hokm4", 3))
    fairness.open_round(match, 1)
    game = engine.get("hokm4")
    rng = random.Random(1)
    while True:  # the round, to its last card (which opens round 2's record, F-1)
        match.refresh_from_db()
        to_act = game.to_act(match.state) - {CHANCE}
        if not to_act or game.round_over(match.state):
            break
        seat = min(to_act)
        with broadcast.collecting():
            play_service.play(
                match.pk, rng.choice(game.legal_actions(match.state, seat)), user=users[seat - 1]
            )
    values = [f"{n:064x}" for n in range(1, 5)]
    for seat, value in enumerate(values, start=1):  # every seat answers in time (F-1, F-2)
        fairness.commit(match.pk, 2, seat, fairdeal.commitment(value))
    for seat, value in enumerate(values, start=1):
        fairness.reveal(match.pk, 2, seat, value)
    match.refresh_from_db()
    with broadcast.collecting() as box, CaptureQueriesContext(connection) as q:
        outcome = play_service.expire(match.pk, match.version, bot=False)
    assert outcome is not None and outcome.version == match.version + 1
    sql = [x["sql"] for x in q.captured_queries]
    # BEGIN, the match locked, the rounds counted, the record locked and marked dealt,
    # the move, the round, the match, COMMIT (and the savepoint around the record)
    assert len(sql) <= 11, "\n".join(s[:120] for s in sql)
    assert sum("FOR UPDATE" in s for s in sql) == 2
    record = DealRecord.objects.get(match=match, number=2)
    assert record.phase == DealRecord.Phase.DEALT and record.values == values
    assert Round.objects.filter(match=match, number=2, first_seq=outcome.version).exists()
    assert box  # the deal's frames
