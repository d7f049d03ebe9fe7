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
from notify import push
from rooms import broadcast
from rooms import services as room_service
from rooms.models import Room
from tests.rooms.conftest import make_room

pytestmark = pytest.mark.django_db(transaction=True)

START_STATEMENTS = 9
"""Measured 2026-12-06 (15 on 12-05, with the push subscribers read cold):
BEGIN, the room locked, its seats, the room's status, the match made, its
first round's fair-deal record opened, the match's clocks, COMMIT, and the
invites to the room (R-9). The push subscribers are kept a few seconds by
the process (warm here, as at a thousand starts). The room frame
after the commit is built from the room, seats and match in hand, the
fair-deal record's announcement knows its room, and a start resets the seats'
rematch flags only when one is set: none of them reads or writes again."""

ANSWER_STATEMENTS = 2
"""One fair-deal answer through the ORM's path: one compare-and-swap of the
record at the version read, and the read (the loop's path is the same two)."""

DEAL_STATEMENTS = 10
"""The first deal once the fourth value is in (16 on 12-05): BEGIN, the
match locked, its rounds counted, the fair-deal record locked once (the ace
draw's and the deal's decks written without a savepoint each, the deal
using the record the draw locked), the draw's and the deal's moves in one
statement, the round, the match, COMMIT."""


def test_a_tables_start_has_a_bounded_number_of_statements(alice, bob, charlie, dave, settings):
    settings.FAIR_WAIT_SECONDS = 60  # every seat answers in time: no substitutes (F-4)
    room = make_room(alice, [bob, charlie, dave], rules={"middle_card": False})
    push.subscribed_ids()  # the process's few seconds' copy, as every start but the first finds it
    with CaptureQueriesContext(connection) as q, broadcast.collecting() as box:
        match = room_service.start(room, alice)
    sql = [x["sql"] for x in q.captured_queries]
    assert len(sql) <= START_STATEMENTS, "\n".join(s[:120] for s in sql)
    # The room frame built from what the start had in hand is the one a read gives.
    sent = [m["room"] for g, m in box if m["type"] == "room.update"]
    assert sent == [broadcast.room_snapshot(Room.objects.select_related("creator").get(pk=room.pk))]
    assert sent[0]["status"] == "playing" and sent[0]["match"] == match.pk and sent[0]["creator"] == "alice"
    fair = [m for g, m in box if m["type"] == "fair.state"]
    assert [g for g, m in box if m["type"] == "fair.state"] == [broadcast.table_group(room.pk)], fair
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
