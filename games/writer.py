"""One writer of transitions (issue 35): one statement, two implementations.

A ``Transition`` (games/transition.py) is written by one statement: the match
row only at the version it replaces (and only while active: the
compare-and-swap), the move appended, and, when the round ends with it, the
round's row closed and the next round's fair deal record opened (F-1; its
number is the closed round's plus one; nothing when it exists already,
``fairness.open_round``'s idempotence). Either all of it happens or none:
a row that moved on writes nothing, and the caller takes the locked path.

The event loop writes through its own prepared statement (infra/adb.py,
``LoopWriter``), a thread through the ORM's connection (``ThreadWriter``);
both return the same ``Written``: the ended round and the record opened.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection

from infra import adb

from .frames import dumps
from .models import DealRecord
from .transition import Transition

STATEMENT = """
WITH m AS (
    UPDATE games_match SET state = %s::jsonb, version = %s, deadlines = %s::jsonb, next_deadline = %s
    WHERE id = %s AND version = %s AND status = 'active'
    RETURNING id
), mv AS (
    INSERT INTO games_move (match_id, seq, seat, action, actor, user_id, events, created_at)
    SELECT id, %s, %s, %s::jsonb, %s, %s, %s::jsonb, %s FROM m
), r AS (
    UPDATE games_round SET last_seq = %s, ended_at = %s, result = %s::jsonb
    WHERE id = (
        SELECT id FROM games_round WHERE %s AND match_id = (SELECT id FROM m) AND last_seq IS NULL
        ORDER BY number DESC LIMIT 1
    )
    RETURNING number, first_seq
), d AS (
    INSERT INTO games_dealrecord (
        match_id, number, algorithm, "table", seats, phase, server_secret, server_commitment,
        commitments, "values", bots, substituted, deadline, created_at, updated_at
    )
    SELECT m.id, r.number + 1, %s, %s, %s::smallint, %s, %s, %s, %s::jsonb, %s::jsonb, %s::jsonb, %s::jsonb,
        %s::timestamptz, %s::timestamptz, %s::timestamptz
    FROM m, r
    ON CONFLICT (match_id, number) DO NOTHING
    RETURNING id
)
SELECT m.id, r.number, r.first_seq, d.id FROM m LEFT JOIN r ON true LEFT JOIN d ON true
"""


def params(t: Transition) -> list:
    """``STATEMENT``'s parameters for ``t``."""
    match, at, record = t.match, t.at, t.record
    out = [
        dumps(match.state),
        match.version,
        dumps(match.deadlines),
        match.next_deadline,
        match.pk,
        t.prev,
        match.version,
        t.seat,
        dumps(t.action),
        t.actor,
        t.user_id,
        dumps(t.events),
        at,
        match.version,
        at,
        dumps(t.summary()) if t.ends_round else None,
        t.ends_round,
    ]
    if record is None:
        return out + [None] * 13
    return out + [
        record.algorithm,
        record.table,
        record.seats,
        record.phase,
        record.server_secret,
        record.server_commitment,
        dumps(record.commitments),
        dumps(record.values),
        dumps(record.bots),
        dumps(record.substituted),
        record.deadline,
        at,
        at,
    ]


@dataclass
class Written:
    """What the statement did: the round ended (number, first move) and the record opened."""

    closed: tuple[int, int] | None
    opened: DealRecord | None


def _written(t: Transition, number, first_seq, record_id) -> Written:
    closed = (int(number), int(first_seq)) if number is not None else None
    t.closed = closed
    opened = None
    if record_id is not None and t.record is not None:
        opened = t.record
        opened.pk = int(record_id)
        opened.number = closed[0] + 1
        opened.created_at = opened.updated_at = t.at
        opened.match_room_id = t.match.room_id  # rooms' announcement needs no read
    return Written(closed, opened)


class LoopWriter:
    """The event loop's implementation: the statement prepared on each of the
    loop's connections (infra/adb.py)."""

    statement = adb.Statement("takhteh_transition", STATEMENT)

    async def write(self, t: Transition) -> Written | None:
        row = await adb.first(self.statement, params(t))
        return None if row is None else _written(t, *row[1:])


class ThreadWriter:
    """A thread's implementation: the ORM's connection, outside any transaction
    (autocommit: the statement is its own transaction)."""

    def write(self, t: Transition) -> Written | None:
        with connection.cursor() as cursor:
            cursor.execute(STATEMENT, params(t))
            row = cursor.fetchone()
        return None if row is None else _written(t, *row[1:])


loop_writer = LoopWriter()
thread_writer = ThreadWriter()
