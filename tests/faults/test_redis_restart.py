"""Issue 39: Redis restarted while tables play.

The site's processes (Daphne and a Celery worker with its deadline ticker)
use a redis-server of the test's own on a free port (the shared Redis is
never touched). With ``FAULT_REDIS_TABLES`` hokm4 tables (50, 200 sockets) of four real
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
import time
import urllib.error
import urllib.request

import pytest
import redis
from asgiref.sync import sync_to_async

from tests.faults.harness_players import until
from tests.faults.harness_procs import PrivateRedis

pytestmark = [pytest.mark.faults, pytest.mark.celery, pytest.mark.django_db(transaction=True)]

TABLES = int(os.environ.get("FAULT_REDIS_TABLES", "50"))
DOWN_SECONDS = 2.0


def readyz(port: int) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=3) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())
    except OSError:
        return 0, {}


@pytest.mark.timeout(300)
async def test_a_redis_restart_loses_no_acknowledged_move_and_everything_recovers(
    tmp_path, fault_site, capsys
):
    private = PrivateRedis(tmp_path)
    await sync_to_async(private.start)()
    direct = redis.Redis.from_url(private.url, socket_connect_timeout=1, socket_timeout=2)
    try:
        site = await fault_site.open(TABLES, redis_url=private.url)
        server, clients = site.server, site.clients
        assert (await sync_to_async(readyz)(server.port))[0] == 200

        # --- the fault
        before = await site.versions()
        await sync_to_async(private.kill)()
        await asyncio.sleep(DOWN_SECONDS)  # Redis is down this long (the fault itself, not a wait)
        status, body = await sync_to_async(readyz)(server.port)
        assert status == 503 and "redis" in body["down"], (status, body)
        at_restart = await site.versions()
        await sync_to_async(private.start)()
        resyncs_at_restart = sum(c.resyncs for c in clients)
        live = [pk for pk, (_v, s) in at_restart.items() if s == "active"]
        first_move: dict[int, float] = {}
        began = time.monotonic()

        async def all_moved_on():
            now = await site.versions(live)
            for pk in live:
                if pk not in first_move and (now[pk][0] > at_restart[pk][0] or now[pk][1] != "active"):
                    first_move[pk] = time.monotonic() - began
            return len(first_move) == len(live)

        recovered = await until(all_moved_on, 30)
        assert recovered is not None and recovered <= 10, (
            recovered,
            len(live) - len(first_move),
            server.log.read_text()[-2000:],
        )

        async def ready():
            return (await sync_to_async(readyz)(server.port))[0] == 200

        ready_after = await until(ready, 20, every=0.2)
        assert ready_after is not None, await sync_to_async(readyz)(server.port)

        async def presence_back():
            keys = await sync_to_async(
                lambda: {k.decode() for k in direct.scan_iter("*presence*", count=1000)}
            )()
            return all(any(f":{code}:" in k for k in keys) for code in site.codes)

        presence_after = await until(presence_back, 30, every=0.5)
        assert presence_after is not None, "presence was not written again"

        # ... and go on playing, the frames through the layer again: 10 more moves each (or the end)
        target = {pk: at_restart[pk][0] + 10 for pk in live}
        resyncs_then = sum(c.resyncs for c in clients)

        async def played_on():
            now = await site.versions(live)
            return all(now[pk][0] >= target[pk] or now[pk][1] != "active" for pk in live)

        assert await until(played_on, 60 + TABLES) is not None, await site.versions(live)

        # the layer carries the frames again: every seat is at its table's version without asking
        async def seats_current():
            now = await site.versions()
            return all(
                c.v == now[pk][0] for room_pk, pk in site.matches.items() for c in site.seats_of[room_pk]
            )

        site.pause()
        assert await until(seats_current, 15) is not None
        alive = site.alive()
    finally:
        await fault_site.close()
        await sync_to_async(private.kill)()

    assert alive, "Daphne or the worker died"
    after = await site.versions()
    totals = await site.check_logs()
    median = sorted(first_move.values())[len(first_move) // 2]
    with capsys.disabled():
        print(
            f"\n[redis restart] {TABLES} tables, {len(clients)} sockets; Redis killed and down {DOWN_SECONDS:.0f} s; "
            f"moves before {sum(v for v, _ in before.values())}, at the restart "
            f"{sum(v for v, _ in at_restart.values())}, at the end {sum(v for v, _ in after.values())}; "
            f"every table playing again {recovered:.1f} s after Redis answered (median table {median:.1f} s), "
            f"/readyz 200 after {ready_after:.1f} s, presence of every room back after {presence_after:.1f} s; "
            f"{totals['acked']} acknowledged moves, lost 0, doubled 0; {totals['unacked']} sent without an ack; "
            f"page resyncs by heartbeat {resyncs_then - resyncs_at_restart} after the restart; "
            f"Daphne and the worker alive"
        )
