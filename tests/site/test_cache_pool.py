"""Issue 13: every context of a process shares one Redis cache client and pool.

Django keeps one cache object per context; under Daphne each connection is a
context of its own, and each used to open a new TCP connection to Redis on
its first cache call. Counted here on the Redis server itself.
"""

from __future__ import annotations

import asyncio

import pytest
import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import caches

pytestmark = pytest.mark.skipif(not settings.REDIS_URL, reason="the Redis cache is production's")


def _connections_received() -> int:
    return int(redis.Redis.from_url(settings.REDIS_URL).info("stats")["total_connections_received"])


async def _arrival(k: int) -> None:
    """What a WebSocket connection's hello does: a cache call on a worker thread, in its own context."""
    await sync_to_async(caches["default"].set, thread_sensitive=False)(f"pool-test:{k}", k, 30)


def test_sixty_arrivals_share_the_process_pool():
    async def arrivals():
        # each task is a context of its own, as each connection is under Daphne
        await asyncio.gather(*(asyncio.ensure_future(_arrival(k)) for k in range(60)))

    asyncio.run(arrivals())  # the pool exists now
    before = _connections_received()
    asyncio.run(arrivals())
    opened = _connections_received() - before - 1  # the count's own connection
    assert opened <= 8, f"{opened} new Redis connections for 60 arrivals"
    assert caches["default"].get("pool-test:59") == 59


def test_the_cache_objects_of_two_contexts_share_one_client():
    seen = []

    async def one():
        seen.append(await sync_to_async(lambda: caches["default"]._cache, thread_sensitive=False)())

    async def two():
        await asyncio.gather(asyncio.ensure_future(one()), asyncio.ensure_future(one()))

    asyncio.run(two())
    assert len(seen) == 2 and seen[0] is seen[1]


def test_every_cache_call_of_the_process_goes_through_one_redis_client(monkeypatch):
    """Issue 39: Django's client made a ``redis.Redis`` for every call (its
    table of reply callbacks cost as much CPU as the call); here one per pool."""
    cache = caches["default"]
    cache.set("pool-test:client", 1, 30)  # the client exists now
    made = []
    real = redis.Redis.__init__

    def counting(self, *args, **kwargs):
        made.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(redis.Redis, "__init__", counting)
    for k in range(20):
        cache.set(f"pool-test:client{k}", k, 30)
        assert cache.get(f"pool-test:client{k}") == k
    assert made == []
    assert cache._cache.get_client() is cache._cache.get_client(write=True)
