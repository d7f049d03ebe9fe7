"""Issue 39: a thousand tables starting at once is a thousand of these
starts, each then answered by its four seats' fingerprints and values (F-1,
F-2). Their statements are counted here so that a change adding round trips
to a table's start, or to a fair-deal answer, shows."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engine, fairdeal, fairness
from games import services as play_service
from games.engine import CHANCE
from rooms import services as room_service
from tests.rooms.conftest import make_room

pytestmark = pytest.mark.django_db(transaction=True)

START_STATEMENTS = 15
"""Measured 2026-12-05: the room locked, its seats, the match made, its
first round's fair-deal record opened, the ace draw and the room's frames."""

ANSWER_STATEMENTS = 2
"""One fair-deal answer through the ORM's path: one compare-and-swap of the
record at the version read, and the read (the loop's path is the same two)."""

DEAL_STATEMENTS = 16
"""The first deal once the fourth value is in."""


def test_a_tables_start_has_a_bounded_number_of_statements(alice, bob, charlie, dave, settings):
    settings.FAIR_WAIT_SECONDS = 60  # every seat answers in time: no substitutes (F-4)
    room = make_room(alice, [bob, charlie, dave], rules={"middle_card": False})
    with CaptureQueriesContext(connection) as q:
        match = room_service.start(room, alice)
    sql = [x["sql"] for x in q.captured_queries]
    assert len(sql) <= START_STATEMENTS, "\n".join(s[:120] for s in sql)
    values = [f"{n:064x}" for n in range(1, 5)]
    counts = []
    for seat, value in enumerate(values, start=1):  # F-1
        with CaptureQueriesContext(connection) as q:
            fairness.commit(match.pk, 1, seat, fairdeal.commitment(value))
        counts.append(len(q.captured_queries))
    for seat, value in enumerate(values, start=1):  # F-2: the last value deals
        with CaptureQueriesContext(connection) as q:
            fairness.reveal(match.pk, 1, seat, value)
        counts.append(len(q.captured_queries))
    assert max(counts) <= ANSWER_STATEMENTS, counts
    with CaptureQueriesContext(connection) as q:  # the last value in: the first deal (F-2)
        assert play_service.deal_if_ready(match.pk) is not None
    deal = [x["sql"] for x in q.captured_queries]
    print("\n".join(s[:150] for s in sql + ["--"] + deal))
    assert len(deal) <= DEAL_STATEMENTS, "\n".join(s[:120] for s in deal)
    match.refresh_from_db()
    assert CHANCE not in engine.get("hokm4").to_act(match.state)  # dealt from the four values (F-2)
