"""Issue 39: Redis restarted while tables play.

The site's processes (Daphne and a Celery worker with its deadline ticker)
use a redis-server of the test's own on a free port (the shared Redis is
never touched). With ``FAULT_TABLES`` hokm4 tables (10) of four real
WebSocket players playing, that server is killed (SIGKILL, no persistence:
the channel layer's subscriptions, the cache, presence, the ticker's
heartbeat and the broker's queues are all gone) and started again on the
same port after ``DOWN_SECONDS``.

Promises: no acknowledged move lost, none applied twice, every table
playing again within 10 s of Redis answering, no process left dead, and the
channel layer, presence and the ticker recover by themselves: frames reach
the other seats again, every room's presence is written again, /readyz is
200 again (its ticker check reads the heartbeat from the new Redis).
"""

from __future__ import annotations

import asyncio
import json
import os
import urllib.error
import urllib.request
import uuid

import pytest
import redis
from asgiref.sync import sync_to_async
from django.db import connection

from tests.faults.harness import (
    Daphne,
    Player,
    PrivateRedis,
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
DOWN_SECONDS = 2.0


def readyz(port: int) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=3) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())
    except OSError:
        return 0, {}


@pytest.mark.timeout(240)
async def test_a_redis_restart_loses_no_acknowledged_move_and_everything_recovers(
    tmp_path, make_user, capsys
):
    tag = uuid.uuid4().hex[:8]
    db = connection.settings_dict
    private = PrivateRedis(tmp_path)
    await sync_to_async(private.start)()
    env = site_env(
        f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        private.url,
        tag,
    )
    tables = await open_tables(make_user, TABLES, f"rd{tag[:4]}")
    codes = [room.code for room, _p, _k in tables]
    direct = redis.Redis.from_url(private.url, socket_connect_timeout=1, socket_timeout=2)
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
        assert await until(lambda: _all_at_least(ids, 2), 60) is not None, "the first deals"
        for c in clients:
            await c.sync()
        tasks.append(asyncio.ensure_future(keep_nudging(clients, stop)))
        assert await until(lambda: _all_at_least(ids, 15), 120) is not None, "the tables play"
        assert (await sync_to_async(readyz)(server.port))[0] == 200

        # --- the fault
        before = await sync_to_async(versions)(ids)
        await sync_to_async(private.kill)()
        await asyncio.sleep(DOWN_SECONDS)  # Redis is down this long (the fault itself, not a wait)
        status, body = await sync_to_async(readyz)(server.port)
        assert status == 503 and "redis" in body["down"], (status, body)
        at_restart = await sync_to_async(versions)(ids)
        await sync_to_async(private.start)()
        resyncs_at_restart = sum(c.resyncs for c in clients)
        live = [pk for pk, (_v, s) in at_restart.items() if s == "active"]

        async def all_moved_on():
            now = await sync_to_async(versions)(live)
            return all(now[pk][0] > at_restart[pk][0] or now[pk][1] != "active" for pk in live)

        recovered = await until(all_moved_on, 30)
        assert recovered is not None and recovered <= 10, (recovered, server.log.read_text()[-2000:])

        async def ready():
            return (await sync_to_async(readyz)(server.port))[0] == 200

        ready_after = await until(ready, 20, every=0.2)
        assert ready_after is not None, await sync_to_async(readyz)(server.port)

        async def presence_back():
            keys = await sync_to_async(
                lambda: {k.decode() for k in direct.scan_iter("*presence*", count=1000)}
            )()
            return all(any(f":{code}:" in k for k in keys) for code in codes)

        presence_after = await until(presence_back, 30, every=0.5)
        assert presence_after is not None, "presence was not written again"

        # ... and go on playing, the frames through the layer again: 10 more moves each (or the end)
        target = {pk: at_restart[pk][0] + 10 for pk in live}
        resyncs_then = sum(c.resyncs for c in clients)

        async def played_on():
            now = await sync_to_async(versions)(live)
            return all(now[pk][0] >= target[pk] or now[pk][1] != "active" for pk in live)

        assert await until(played_on, 60) is not None, await sync_to_async(versions)(live)

        # the layer carries the frames again: every seat is at its table's version without asking
        async def seats_current():
            now = await sync_to_async(versions)(ids)
            return all(c.v == now[pk][0] for room_pk, pk in matches.items() for c in seats_of[room_pk])

        stop.set()  # no more acting or heartbeats: only the layer's frames from here
        for c in clients:
            c.acting = False
        assert await until(seats_current, 15) is not None
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
        await sync_to_async(private.kill)()

    assert alive, "Daphne or the worker died"
    after = await sync_to_async(versions)(ids)
    totals = {"acked": 0, "moves": 0, "unacked": 0}
    for room_pk, match_id in matches.items():
        found = await sync_to_async(check_log)(match_id, seats_of[room_pk])
        for k in totals:
            totals[k] += found[k]
    with capsys.disabled():
        print(
            f"\n[redis restart] {TABLES} tables, {len(clients)} sockets; Redis killed and down {DOWN_SECONDS:.0f} s; "
            f"moves before {sum(v for v, _ in before.values())}, at the restart "
            f"{sum(v for v, _ in at_restart.values())}, at the end {sum(v for v, _ in after.values())}; "
            f"every table playing again {recovered:.1f} s after Redis answered, /readyz 200 after "
            f"{ready_after:.1f} s, presence of every room back after {presence_after:.1f} s; "
            f"{totals['acked']} acknowledged moves, lost 0, doubled 0; {totals['unacked']} sent without an ack; "
            f"page resyncs by heartbeat {resyncs_then - resyncs_at_restart} after the restart; "
            f"Daphne and the worker alive"
        )


async def _true(value) -> bool:
    return bool(value)


async def _all_at_least(ids, version) -> bool:
    now = await sync_to_async(versions)(ids)
    return all(v >= version or s != "active" for v, s in now.values())
