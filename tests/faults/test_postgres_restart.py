"""Issue 39: PostgreSQL restarted mid-match, tables playing.

The site's processes (Daphne and a Celery worker with its deadline ticker)
reach PostgreSQL through a TCP proxy the test controls, never the shared
server itself: the "restart" drops every connection at once and refuses new
ones for a few seconds, as a restarting server does, then lets them through
again. Meanwhile ``FAULT_TABLES`` hokm4 tables (10) of four real WebSocket
players keep playing, each page acting again from the state in hand when an
action got no answer, as a person clicks again.

Promises: no acknowledged move lost, none applied twice (one chain of
versions per match, every player's move in the log one that was sent, at
the version its sender saw), every table playing again within 10 s of the
database answering, and no process left dead.
"""

from __future__ import annotations

import asyncio
import os

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from tests.faults.harness_players import until
from tests.faults.harness_procs import TcpProxy

pytestmark = [pytest.mark.faults, pytest.mark.celery, pytest.mark.django_db(transaction=True)]

TABLES = int(os.environ.get("FAULT_TABLES", "10"))
DOWN_SECONDS = 3.0


@pytest.mark.timeout(300)
async def test_a_postgres_restart_loses_no_acknowledged_move(fault_site, capsys):
    db = connection.settings_dict
    proxy = TcpProxy(db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432))
    try:
        site = await fault_site.open(
            TABLES,
            database_url=f"postgres://{db['USER']}:{db['PASSWORD']}@127.0.0.1:{proxy.port}/{db['NAME']}",
        )
        server = site.server

        # --- the fault
        before = await site.versions()
        dropped = await sync_to_async(proxy.cut)()
        await asyncio.sleep(DOWN_SECONDS)  # the server is down this long (the fault itself, not a wait)
        at_resume = await site.versions()
        proxy.resume()
        live = [pk for pk, (_v, status) in at_resume.items() if status == "active"]

        first_move: dict[int, float] = {}
        began = asyncio.get_running_loop().time()

        async def all_moved_on():
            now = await site.versions(live)
            for pk in live:
                if pk not in first_move and (now[pk][0] > at_resume[pk][0] or now[pk][1] != "active"):
                    first_move[pk] = asyncio.get_running_loop().time() - began
            return len(first_move) == len(live)

        recovered = await until(all_moved_on, 30)
        assert recovered is not None and recovered <= 10, (
            recovered,
            at_resume,
            await site.versions(live),
            server.log.read_text()[-2000:],
        )
        # ... and go on playing: 10 more moves each (or the end)
        target = {pk: at_resume[pk][0] + 10 for pk in live}

        async def played_on():
            now = await site.versions(live)
            return all(now[pk][0] >= target[pk] or now[pk][1] != "active" for pk in live)

        assert await until(played_on, 60) is not None, await site.versions(live)
        alive = site.alive()
    finally:
        await fault_site.close()
        proxy.close()

    assert alive, "Daphne or the worker died"
    after = await site.versions()
    totals = await site.check_logs()
    with capsys.disabled():
        print(
            f"\n[postgres restart] {TABLES} tables, {len(site.clients)} sockets; {dropped} connections dropped, "
            f"refused for {DOWN_SECONDS:.0f} s; moves before the cut {sum(v for v, _ in before.values())}, "
            f"at the resume {sum(v for v, _ in at_resume.values())}, at the end {sum(v for v, _ in after.values())}; "
            f"every table playing again {recovered:.1f} s after the database answered "
            f"(median table {sorted(first_move.values())[len(first_move) // 2]:.1f} s); "
            f"{totals['acked']} acknowledged moves, lost 0, doubled 0; {totals['unacked']} sent without an ack; "
            f"Daphne and the worker alive"
        )
