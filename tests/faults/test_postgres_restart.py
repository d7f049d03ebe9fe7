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
import uuid

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from tests.faults.harness import (
    Daphne,
    Player,
    TcpProxy,
    Worker,
    check_log,
    keep_nudging,
    open_tables,
    room_service,
    site_env,
    until,
    versions,
)

pytestmark = [pytest.mark.faults, pytest.mark.celery, pytest.mark.django_db(transaction=True)]

TABLES = int(os.environ.get("FAULT_TABLES", "10"))
DOWN_SECONDS = 3.0


@pytest.mark.timeout(240)
async def test_a_postgres_restart_loses_no_acknowledged_move(settings, tmp_path, make_user, capsys):
    if not settings.REDIS_URL:
        pytest.skip("needs Redis (REDIS_URL)")
    tag = uuid.uuid4().hex[:8]
    db = connection.settings_dict
    proxy = TcpProxy(db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432))
    env = site_env(
        f"postgres://{db['USER']}:{db['PASSWORD']}@127.0.0.1:{proxy.port}/{db['NAME']}",
        settings.REDIS_URL,
        tag,
    )
    tables = await open_tables(make_user, TABLES, f"pg{tag[:4]}")
    worker = server = None
    clients: list[Player] = []
    tasks = []
    stop = asyncio.Event()
    try:
        worker = await sync_to_async(Worker)(env, tmp_path)
        server = Daphne(tmp_path, env)
        await sync_to_async(server.start)()
        origin = f"http://127.0.0.1:{server.port}"
        seats_of = {}
        for room, _players, keys in tables:
            url = f"ws://127.0.0.1:{server.port}/ws/table/{room.code}/"
            seats_of[room.pk] = [Player(name, key, uid, url, origin) for name, key, uid in keys]
            clients += seats_of[room.pk]
        tasks = [asyncio.ensure_future(c.run()) for c in clients]
        assert await until(lambda: _true(all(c.connects for c in clients)), 60) is not None, "clients connect"
        matches = {}
        for room, players, _keys in tables:
            matches[room.pk] = (await sync_to_async(room_service.start)(room, players[0])).pk
        ids = list(matches.values())
        # Started by this process (another channel prefix): every page asks for its table once.
        assert await until(lambda: _all_at_least(ids, 2), 60) is not None, "the first deals"
        for c in clients:
            await c.sync()
        tasks.append(asyncio.ensure_future(keep_nudging(clients, stop)))
        assert await until(lambda: _all_at_least(ids, 15), 120) is not None, "the tables play"

        # --- the fault
        before = await sync_to_async(versions)(ids)
        dropped = await sync_to_async(proxy.cut)()
        await asyncio.sleep(DOWN_SECONDS)  # the server is down this long (the fault itself, not a wait)
        at_resume = await sync_to_async(versions)(ids)
        proxy.resume()
        live = [pk for pk, (_v, status) in at_resume.items() if status == "active"]

        first_move: dict[int, float] = {}
        began = asyncio.get_running_loop().time()

        async def all_moved_on():
            now = await sync_to_async(versions)(live)
            for pk in live:
                if pk not in first_move and (now[pk][0] > at_resume[pk][0] or now[pk][1] != "active"):
                    first_move[pk] = asyncio.get_running_loop().time() - began
            return len(first_move) == len(live)

        recovered = await until(all_moved_on, 30)
        assert recovered is not None and recovered <= 10, (
            recovered,
            at_resume,
            await sync_to_async(versions)(live),
            server.log.read_text()[-2000:],
        )
        # ... and go on playing: 10 more moves each (or the end)
        target = {pk: at_resume[pk][0] + 10 for pk in live}

        async def played_on():
            now = await sync_to_async(versions)(live)
            return all(now[pk][0] >= target[pk] or now[pk][1] != "active" for pk in live)

        assert await until(played_on, 60) is not None, await sync_to_async(versions)(live)
        alive = server.proc.poll() is None and worker.alive()
    finally:
        stop.set()
        for c in clients:
            c.stopped = True
            c.acting = False
            if c.ws is not None:
                await c.ws.close()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if server is not None:
            await sync_to_async(server.stop)()
        if worker is not None:
            await sync_to_async(worker.stop)()
        proxy.close()

    assert alive, "Daphne or the worker died"
    after = await sync_to_async(versions)(ids)
    totals = {"acked": 0, "moves": 0, "unacked": 0}
    for room_pk, match_id in matches.items():
        found = await sync_to_async(check_log)(match_id, seats_of[room_pk])
        for k in totals:
            totals[k] += found[k]
    with capsys.disabled():
        print(
            f"\n[postgres restart] {TABLES} tables, {len(clients)} sockets; {dropped} connections dropped, "
            f"refused for {DOWN_SECONDS:.0f} s; moves before the cut {sum(v for v, _ in before.values())}, "
            f"at the resume {sum(v for v, _ in at_resume.values())}, at the end {sum(v for v, _ in after.values())}; "
            f"every table playing again {recovered:.1f} s after the database answered "
            f"(median table {sorted(first_move.values())[len(first_move) // 2]:.1f} s); "
            f"{totals['acked']} acknowledged moves, lost 0, doubled 0; {totals['unacked']} sent without an ack; "
            f"Daphne and the worker alive"
        )


async def _true(value) -> bool:
    return bool(value)


async def _all_at_least(ids, version) -> bool:
    now = await sync_to_async(versions)(ids)
    return all(v >= version or s != "active" for v, s in now.values())
