"""Prometheus metrics of each process (issue 39).

Daphne serves its own at ``/metrics`` (``ops.views.metrics``); a Celery
worker, whose deadline ticker and bots run in its main process, serves its
own on ``WORKER_METRICS_PORT`` (loopback only) when that is set.

The move path calls in with one function each (``acted``, ``refused``); the
rest is measured from outside it: sockets and the event loop's lag by the
ASGI entry (``ops.asgi``), database round trips by a wrapper on Django's
connections and on the event loop's own (``infra.adb``), Redis round trips
by a wrapper on redis-py's connections (one per command or pipeline sent).
Nothing here raises into its caller. ``METRICS=off`` turns every hook into
an early return (for measuring their cost).
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import threading
import time

from prometheus_client import REGISTRY, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily

from . import context

ENABLED = os.environ.get("METRICS", "on").lower() not in ("off", "0", "false")

now = time.perf_counter

_FAST = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)

MOVE = Histogram(
    "takhteh_move_seconds",
    "A table socket's act frame: arrival to its broadcast and ack",
    ["game"],
    buckets=_FAST,
)
ACTIONS = Counter(
    "takhteh_actions", "Table socket frames by result: accepted, or the refusal's code", ["result"]
)
SOCKETS = Gauge("takhteh_sockets_open", "Open WebSockets of this process by kind", ["kind"])
DEADLINE_LAG = Histogram(
    "takhteh_deadline_lag_seconds",
    "A turn's deadline: due to played by the ticker",
    buckets=(0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0),
)
SUBSTITUTES = Counter(
    "takhteh_fair_substitutes", "Fair deal values replaced by the server's substitute (F-4)"
)
BOT_THINK = Histogram(
    "takhteh_bot_think_seconds", "A bot's decision time by level", ["level"], buckets=_FAST + (10.0,)
)
DB_TRIPS = Counter(
    "takhteh_db_round_trips",
    "Database statements sent: Django's connections (orm) and the event loop's (loop)",
    ["path"],
)
REDIS_TRIPS = Counter("takhteh_redis_round_trips", "Redis commands or pipelines sent")
LOOP_LAG = Histogram(
    "takhteh_event_loop_lag_seconds",
    "How late the event loop ran a timer (sampled every 0.25 s)",
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)

_moves: dict[str, object] = {}
_results: dict[str, object] = {}
_levels: dict[str, object] = {}
_orm = DB_TRIPS.labels("orm")
_loop = DB_TRIPS.labels("loop")


# --- the hooks ----------------------------------------------------------------------


def acted(consumer, began: float) -> None:
    """An accepted act frame (its ack sent): latency by game, the result, the match in the log context."""
    if not ENABLED:
        return
    game = getattr(consumer, "_game", None) or "unknown"
    child = _moves.get(game)
    if child is None:
        child = _moves[game] = MOVE.labels(game)
    child.observe(now() - began)
    result("accepted")
    match = getattr(consumer, "match_id", None)
    if match is not None:
        context.note(match=match)


def refused(code: str) -> None:
    """A refused frame, by its error code."""
    if ENABLED:
        result(code)


def result(name: str) -> None:
    child = _results.get(name)
    if child is None:
        child = _results[name] = ACTIONS.labels(name)
    child.inc()


_due: dict[tuple[int, int], float] = {}


def deadline_due(match_id: int, version: int, at) -> None:
    """The ticker saw this deadline due (``at``: when it was due, a datetime)."""
    if ENABLED and at is not None and len(_due) < 100_000:
        _due.setdefault((match_id, version), at.timestamp())


def deadline_done(match_id: int, version: int) -> None:
    """The ticker played (or found already played) this deadline."""
    at = _due.pop((match_id, version), None)
    if ENABLED and at is not None:
        DEADLINE_LAG.observe(max(0.0, time.time() - at))


def substituted(count: int = 1) -> None:
    if ENABLED and count:
        SUBSTITUTES.inc(count)


def bot_thought(level: str, seconds: float) -> None:
    if not ENABLED:
        return
    child = _levels.get(level)
    if child is None:
        child = _levels[level] = BOT_THINK.labels(level)
    child.observe(seconds)


def socket_opened(kind: str) -> None:
    if ENABLED:
        SOCKETS.labels(kind).inc()


def socket_closed(kind: str) -> None:
    if ENABLED:
        SOCKETS.labels(kind).dec()


# --- measured from outside the move path ---------------------------------------------


def _count_orm(execute, sql, params, many, context):
    _orm.inc()
    return execute(sql, params, many, context)


def _on_connection(sender, connection, **kwargs):
    if _count_orm not in connection.execute_wrappers:
        connection.execute_wrappers.append(_count_orm)


def _counting(fn, child):
    def counted(*args, **kwargs):
        child.inc()
        return fn(*args, **kwargs)

    counted.__wrapped__ = fn
    counted.__name__ = getattr(fn, "__name__", "counted")
    return counted


def _wrap_adb() -> None:
    """The event loop's own connections (infra/adb.py): each statement is one round trip."""
    try:
        from infra import adb
    except Exception:  # noqa: BLE001 - no such module (any more): nothing to count there
        return
    for name in ("_execute", "fetchone", "fetchall"):
        fn = getattr(adb, name, None)
        if fn is not None and not hasattr(fn, "__wrapped__"):
            setattr(adb, name, _counting(fn, _loop))


def _wrap_redis() -> None:
    import redis.asyncio.connection as aconn
    import redis.connection as sconn

    for module in (sconn, aconn):
        cls = getattr(module, "AbstractConnection", None) or module.Connection
        fn = cls.send_packed_command
        if hasattr(fn, "__wrapped__"):
            continue
        cls.send_packed_command = _counting(fn, REDIS_TRIPS)


class LiveTables:
    """Active matches (one query per scrape, kept 5 s)."""

    def __init__(self):
        self.value, self.at = 0.0, -1e9
        self.lock = threading.Lock()

    def describe(self):
        return [GaugeMetricFamily("takhteh_live_tables", "Active matches in the database")]

    def collect(self):
        with self.lock:
            if time.monotonic() - self.at > 5:
                from django.db import connection

                try:
                    from games.models import Match

                    self.value = float(Match.objects.filter(status=Match.Status.ACTIVE).count())
                    self.at = time.monotonic()
                    # a scrape's thread (the worker's endpoint makes one per request) keeps no connection
                    if not connection.in_atomic_block:
                        connection.close()
                except Exception:  # noqa: BLE001 - the database down (or an async caller): the last figure stays
                    pass
        yield GaugeMetricFamily("takhteh_live_tables", "Active matches in the database", value=self.value)


_installed = False


def install() -> None:
    """Once per process (the ops app's ``ready``)."""
    global _installed
    if _installed or not ENABLED:
        return
    _installed = True
    from django.db.backends.signals import connection_created

    connection_created.connect(_on_connection, weak=False, dispatch_uid="ops-db-round-trips")
    _wrap_adb()
    _wrap_redis()
    REGISTRY.register(LiveTables())


_lag_loops: set[int] = set()


def watch_loop(interval: float = 0.25) -> None:
    """Sample this event loop's lag (once per loop; called by the ASGI entry)."""
    if not ENABLED:
        return
    loop = asyncio.get_running_loop()
    if id(loop) in _lag_loops:
        return
    _lag_loops.add(id(loop))

    async def sample():
        while True:
            began = loop.time()
            await asyncio.sleep(interval)
            LOOP_LAG.observe(max(0.0, loop.time() - began - interval))

    loop.create_task(sample(), name="event-loop-lag", context=contextvars.Context())


def serve_worker() -> int | None:
    """A Celery worker's own endpoint on ``WORKER_METRICS_PORT`` (loopback unless
    ``WORKER_METRICS_ADDR`` says otherwise); None when not asked for."""
    port = os.environ.get("WORKER_METRICS_PORT")
    if not ENABLED or not port:
        return None
    from prometheus_client import start_http_server

    start_http_server(int(port), addr=os.environ.get("WORKER_METRICS_ADDR", "127.0.0.1"))
    return int(port)
