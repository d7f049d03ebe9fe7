"""Django's Redis cache with one client, and so one connection pool, per process.

Django keeps a cache object per context (``django.core.cache.caches`` is an
asgiref ``Local``): under Daphne every WebSocket connection and every request
runs in a context of its own, so each made a new ``RedisCacheClient`` with a
new pool, and its first cache call opened a new TCP connection to Redis (a
name lookup, a connect and a handshake). At a storm of arrivals that was a
good part of each connection's hello (issue 13, profiled). The client is
thread-safe (redis-py's pool is), so every cache object of the process with
the same servers and options shares one.
"""

from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache
from django.utils.functional import cached_property

_clients: dict = {}
_lock = threading.Lock()


class SharedRedisCache(RedisCache):
    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
            return client


# --- What everyone sees alike, computed once for everyone (issue 33) ------------------------
#
# A page's part that is the same for every visitor (the leaderboard's page, a
# player's statistics, the count of open tables) is kept in the cache for a
# few seconds, under a generation of its topic: whoever changes what it is
# made of calls ``touch(topic)`` (after commit), and the next reader makes it
# anew. One round trip reads the value and its topic's generation together.


def _generation_key(topic: str) -> str:
    return f"shared-gen:{topic}"


def shared(key: str, make, seconds: float, topic: str):
    """``make()``, or its copy made less than ``seconds`` ago in ``topic``'s current generation."""
    from django.core.cache import cache

    gen_key, value_key = _generation_key(topic), f"shared:{topic}:{key}"
    try:
        found = cache.get_many([gen_key, value_key])
    except Exception:  # noqa: BLE001 - the cache down: the page is made without it
        return make()
    generation = found.get(gen_key, 0)
    kept = found.get(value_key)
    if kept is not None and kept[0] == generation:
        return kept[1]
    value = make()
    try:
        cache.set(value_key, (generation, value), seconds)
    except Exception:  # noqa: BLE001
        pass
    return value


def touch(topic: str) -> None:
    """Every ``shared`` copy of ``topic`` is out of date from now on."""
    from django.core.cache import cache

    key = _generation_key(topic)
    try:
        try:
            cache.incr(key)
        except ValueError:  # no generation yet
            cache.add(key, 1, None) or cache.incr(key)
    except Exception:  # noqa: BLE001 - the cache down: copies expire by their own time
        pass


def touch_on_commit(topic: str) -> None:
    """``touch`` now and again once the transaction commits: a reader between the
    two may keep a copy of what is being replaced, the second touch ends it."""
    from django.db import transaction

    touch(topic)
    transaction.on_commit(lambda: touch(topic))
