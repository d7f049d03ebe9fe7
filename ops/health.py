"""``/readyz`` (issue 39): is this process fit to take traffic?

``/healthz`` (config/views.py) stays the load balancer's cheap liveness
check. ``/readyz`` asks each part the site needs, with short timeouts:

- ``database``: a ``SELECT 1``;
- ``redis``: a ``PING`` (channel layer, cache, broker and presence all live there);
- ``ticker`` (production deadlines, ``DEADLINES=celery``): some worker's
  deadline ticker ran within ``READY_TICKER_SECONDS`` (10): each ticker
  writes its heartbeat (``beat``) into the cache at most once a second.

200 when all answer; 503 with the failing parts named in ``down``.
"""

from __future__ import annotations

import os
import threading
import time

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

HEARTBEAT_KEY = "ops:ticker-heartbeat"
_last_beat = 0.0
_clients: dict[str, object] = {}
_lock = threading.Lock()


def beat(now: float | None = None) -> None:
    """The ticker's heartbeat (one call per tick; written at most once a second)."""
    global _last_beat
    now = time.time() if now is None else now
    if now - _last_beat < 1.0:
        return
    _last_beat = now
    try:
        cache.set(HEARTBEAT_KEY, now, timeout=3600)
    except Exception:  # noqa: BLE001 - Redis down: the ticker goes on, /readyz says so
        _last_beat = 0.0


def ticker_age() -> float | None:
    """Seconds since some ticker last beat, None when none ever did."""
    value = cache.get(HEARTBEAT_KEY)
    return None if value is None else max(0.0, time.time() - float(value))


def _redis_client(url: str):
    with _lock:
        client = _clients.get(url)
        if client is None:
            import redis

            client = _clients[url] = redis.Redis.from_url(
                url, socket_connect_timeout=1.5, socket_timeout=1.5, **getattr(settings, "REDIS_SSL", {})
            )
        return client


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_redis() -> None:
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return  # the embedded site has no Redis
    if not _redis_client(url).ping():
        raise RuntimeError("no PONG")


def check_ticker() -> None:
    age = ticker_age()
    limit = float(os.environ.get("READY_TICKER_SECONDS", "10"))
    if age is None:
        raise RuntimeError("no ticker has run")
    if age > limit:
        raise RuntimeError(f"last ran {age:.0f} s ago")


def checks() -> dict:
    found = {"database": check_database, "redis": check_redis}
    if getattr(settings, "DEADLINES", "") == "celery" and getattr(settings, "PRODUCTION", False):
        found["ticker"] = check_ticker
    return found


@never_cache
def readyz(request):
    status: dict[str, str] = {}
    for name, check in checks().items():
        if name == "ticker" and status.get("redis", "ok") != "ok":
            status[name] = "unknown: redis is down"
            continue
        try:
            check()
            status[name] = "ok"
        except Exception as exc:  # noqa: BLE001 - any failure means "down"
            detail = str(exc) if isinstance(exc, RuntimeError) else type(exc).__name__
            status[name] = f"down: {detail}"
    down = [name for name, value in status.items() if value.startswith("down")]
    return JsonResponse(
        {"status": "ok" if not down else "down", "down": down, "checks": status}, status=503 if down else 200
    )
