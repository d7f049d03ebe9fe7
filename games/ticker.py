"""The deadline ticker (production, ``DEADLINES=celery``): the due turns are
read from the database, not queued one task per move.

Every accepted action writes its next deadline into the match row
(``next_deadline``, in the same transaction). A ticker runs in each Celery
worker process: every ``interval`` seconds it asks for the active matches
whose deadline has come (a partial index keeps that question small however
many matches ever were) and hands each to ``services.expire`` on a small
thread pool. A bot's turn goes to a pool of its own: a bot's search takes up
to its level's budget, and a crowd of bot tables must never queue another
table's clock (a timeout, the next deal, a fair deal's substitute) behind
their searches (issue 21, measured by bench/bot_lag.py).
``expire`` is idempotent by version and serialised by the row lock, so two
workers (or a worker and the beat's sweep) finding the same deadline apply
it once. Nothing is published to the broker on a move's request path.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor

from django.db import close_old_connections

from ops import health, metrics

from . import clock

log = logging.getLogger(__name__)


def due(limit: int = 200) -> list[tuple[int, int, bool]]:
    """(match id, version, a bot's turn) of the active matches whose deadline
    has come, oldest first."""
    from .models import Match

    rows = (
        Match.objects.filter(status=Match.Status.ACTIVE, next_deadline__lte=clock.now_dt())
        .order_by("next_deadline")
        .values_list("pk", "version", "deadlines", "players", "next_deadline", "gone")[:limit]
    )
    found = []
    for pk, version, deadlines, players, at, gone in rows:
        metrics.deadline_due(pk, version, at)  # the deadline lag's start (ops/metrics.py)
        found.append((pk, version, _bot_turn(deadlines, players, gone)))
    return found


def _bot_turn(deadlines: dict | None, players: list | None, gone: dict | None = None) -> bool:
    """Whether the first deadline is a bot seat's, or a stand-in's (L-7: it
    thinks as a bot does); seat 0, the dealer, is neither."""
    from .models import Move, first_due
    from .standin import AFTER, counted

    first = first_due(deadlines, players)
    if first is None:
        return False
    return first[1] == Move.Actor.BOT or counted(gone, first[0]) >= AFTER


class Ticker:
    def __init__(self, interval: float = 0.1, workers: int = 4, bot_workers: int = 2):
        self.interval = interval
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="deadline")
        self.bots = ThreadPoolExecutor(max_workers=bot_workers, thread_name_prefix="bot")
        self.inflight: dict[int, int] = {}
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, name="deadline-ticker", daemon=True)

    def start(self) -> Ticker:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(5)
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.bots.shutdown(wait=False, cancel_futures=True)

    def tick(self) -> int:
        """One look at the due deadlines; returns how many were handed out."""
        handed = 0
        for match_id, version, bot in due():
            with self.lock:
                if self.inflight.get(match_id) == version:
                    continue  # already being played
                self.inflight[match_id] = version
            (self.bots if bot else self.pool).submit(self._expire, match_id, version, bot)
            handed += 1
        return handed

    def run(self) -> None:
        while not self.stopped.is_set():
            try:
                close_old_connections()
                self.tick()
                health.beat()  # /readyz: a ticker ran (ops/health.py)
            except Exception:  # noqa: BLE001 - a broken database must not kill the ticker
                log.exception("deadline ticker")
                self.stopped.wait(1.0)
            self.stopped.wait(self.interval)

    def _expire(self, match_id: int, version: int, bot: bool) -> None:
        from . import services

        try:
            close_old_connections()
            # ``bot`` as read with the version: when it is no bot's turn, there is no thought to make first.
            services.expire(match_id, version, bot=bot)
        except Exception:  # noqa: BLE001
            log.exception("deadline of match %s v%s failed", match_id, version)
        finally:
            with self.lock:
                if self.inflight.get(match_id) == version:
                    del self.inflight[match_id]
            metrics.deadline_done(match_id, version)
            close_old_connections()


_running: Ticker | None = None


def start_in_process(interval: float = 0.1) -> Ticker:
    """Start this process's ticker once (the Celery worker calls it when ready)."""
    global _running
    if _running is None:
        _running = Ticker(interval=interval).start()
    return _running
