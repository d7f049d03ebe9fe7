"""Issue 14: the database's connection count levels off over 200
connect / move / disconnect cycles of table sockets (pg_stat_activity):
the sockets' database calls run on a fixed pool of threads, one kept
connection each (infra/lanes.py), never one new connection per call."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings as django_settings
from django.db import connection

from .test_table_guards import started_hokm4, to_act

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]


def _backends() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        return cursor.fetchone()[0]


async def test_the_connection_count_levels_off_over_200_socket_cycles(
    connect, alice, bob, charlie, dave, capsys
):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL")
    room, conns = await started_hokm4(connect, alice, bob, charlie, dave)
    counts = []
    for cycle in range(200):
        tab = await connect(room, None if cycle % 2 else alice, f"tab{cycle}")
        await tab.send({"type": "ping"})
        await tab.wait_for(lambda f: f["type"] == "pong")
        if cycle % 20 == 0:  # a move now and then, by whoever is to act
            for conn in conns:
                await conn.pump(0.05)
            player = to_act(conns)
            legal = player.state["view"]["legal"]
            if legal:
                await player.send({"type": "act", "action": legal[0], "v": player.state["v"]})
                await player.wait_for(lambda f: f["type"] in {"ack", "error"})
        await tab.close()
        if cycle % 10 == 9:
            counts.append(await sync_to_async(_backends)())
    with capsys.disabled():
        print(f"\n[pg_stat_activity over 200 socket cycles, every 10] {counts}")
    # Issue 33: every thread borrows from the process's bounded pool (its size, whatever the
    # number of threads), beside the event loop's own connections and this test's.
    pool = django_settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"]
    ceiling = pool + int(django_settings.TABLE["MOVE_CONNECTIONS"]) + 2
    assert max(counts) <= ceiling, counts
    assert counts[-1] <= counts[len(counts) // 2] + 1, counts  # level, not growing
