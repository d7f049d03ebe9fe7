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
