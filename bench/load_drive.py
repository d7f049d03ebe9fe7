"""bench/load.py's drive: the start rate, the pages' beats, one side's tables driven, the summary, the floor's run."""

from __future__ import annotations

import asyncio
import os
import random
import time
from pathlib import Path

from bench.load_procs import BIN, CpuMeter, Procs, free_port, wait_http
from bench.load_tables import FloorTable, Stats, connect_all

START_RATE = 15.0
"""Tables whose creators press start in one second at most (``--start-rate``):
a burst (a real site's matches begin over minutes). Each start opens a fair
deal whose four fingerprints and four values must come within
FAIR_WAIT_SECONDS (4 s, F-4); 20 to 50 starts a second on one process of this
2-core machine, beside the others' greetings, had many come late (substitutes);
10 a second had none, and 200 tables took 34 s to connect and start."""

START_LIMIT = 30.0
"""Seconds of driving within which every table must have started (each of
its seats has had the table's state): else it counts as stalled."""


class Beats:
    """Pages' heartbeats: a ping every ``every`` seconds from the moment a table's
    sockets are open, each at a phase of its own (pages are opened at different
    moments: the pings are spread over the period, not sent in a burst at the same
    instant). Started only once the drive began, a socket that connected a minute
    earlier looked gone (R-7: no heartbeat for twice the period), and its first
    ping changed its room's presence: every room at once. While another side is
    driven they pause (``on``), as the tables do."""

    def __init__(self, every: float):
        self.every = every
        self.on = True
        self.tasks: list[asyncio.Future] = []

    def start(self, table) -> None:
        self.tasks += [asyncio.ensure_future(self._beat(table, seat)) for seat in table.connect_seats]

    async def _beat(self, table, seat: int) -> None:
        # the golden ratio spreads them evenly
        await asyncio.sleep((table.index * 4 + seat) * 0.618034 % 1.0 * self.every)
        while True:
            if self.on:
                await table.send(seat, {"type": "ping"})
            await asyncio.sleep(self.every)

    def stop(self) -> None:
        for task in self.tasks:
            task.cancel()


class Side:
    """One server under the client: its tables, their stats and the CPU its
    processes spent, over the segments it was driven. The floor and the site
    are driven in turns, a segment each (``drive``): the machine's speed
    drifts by a fifth within minutes here, and two long runs one after the
    other measured the drift as much as the servers."""

    def __init__(self, name, tables, stats, meter, stall_after, beats: Beats | None = None):
        self.name = name
        self.tables = tables
        self.stats = stats
        self.meter = meter
        self.stall_after = stall_after
        self.beats = beats
        self.driven = 0.0  # seconds

    async def drive(self, seconds: float) -> None:
        """Run the tables for ``seconds``, then pause them. A table's stall
        clock counts only the time it was driven, from its start (every seat
        has had its first state: the greeting of 800 sockets arriving at once
        is the start-up, reported on its own); a table that has not started
        ``START_LIMIT`` seconds of driving in is stalled."""
        began = time.monotonic()
        self.meter.begin()
        for t in self.tables:
            t.resume(began)
        if self.beats is not None:
            self.beats.on = True
        end = began + seconds
        while (now := time.monotonic()) < end:
            await asyncio.sleep(min(1.0, end - now))
            now = time.monotonic()
            for t in self.tables:
                if t.index in t.stats.stalled:
                    continue
                if t.started_at is None:
                    late = self.driven + now - began > START_LIMIT
                else:
                    late = now - t.progress > self.stall_after
                if late:
                    t.stats.stalled.add(t.index)
                    print(
                        f"stalled: {self.name} table {t.index} seen={t.seen} last={t.last_seen()}", flush=True
                    )
        if self.beats is not None:
            self.beats.on = False
        paused = time.monotonic()
        for t in self.tables:
            t.pause(paused)
        self.meter.end()
        self.driven += paused - began


async def drive_in_turns(sides: list[Side], duration: float, segments: int) -> None:
    """Each side ``duration`` seconds in all, in ``segments`` turns."""
    for _ in range(segments):
        for side in sides:
            await side.drive(duration / segments)


async def close_all(tables):
    await asyncio.gather(
        *(ws.close() for t in tables for ws in t.sockets if ws is not None), return_exceptions=True
    )


def percentile(values, q) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))
    return values[k]


def summary(name: str, stats: Stats, elapsed: float) -> dict:
    ms = [v * 1000 for v in stats.latencies]
    out = {
        "moves": stats.moves,
        "moves_s": stats.moves / elapsed if elapsed else 0,
        "p50": percentile(ms, 50),
        "p90": percentile(ms, 90),
        "p99": percentile(ms, 99),
        "max": max(ms) if ms else float("nan"),
        "stalls": len(stats.stalled),
        "errors": sum(stats.errors.values()),
    }
    print(
        f"{name:6} moves={out['moves']} moves/s={out['moves_s']:.1f} p50={out['p50']:.1f} p90={out['p90']:.1f} "
        f"p99={out['p99']:.1f} max={out['max']:.1f} ms stalls={out['stalls']} errors={stats.errors or 0}",
        flush=True,
    )
    if stats.sent_at and elapsed > 2 * STEADY_AFTER:
        # The same moves without the start-up (every socket's greeting, every table's first deal).
        first = min(stats.sent_at)
        steady = [
            v * 1000 for v, t in zip(stats.latencies, stats.sent_at, strict=True) if t - first >= STEADY_AFTER
        ]
        late_errors = sum(1 for t in stats.error_at if t - first >= STEADY_AFTER)
        out.update(
            steady_p50=percentile(steady, 50),
            steady_p99=percentile(steady, STEADY_Q),
            steady_errors=late_errors,
        )
        print(
            f"{name:6} after the first {STEADY_AFTER:.0f} s: moves={len(steady)} p50={out['steady_p50']:.1f} "
            f"p90={percentile(steady, 90):.1f} p99={out['steady_p99']:.1f} ms errors={late_errors}",
            flush=True,
        )
    return out


STEADY_AFTER = 30.0
STEADY_Q = 99


# --- the runs ------------------------------------------------------------------------------


class Floor:
    """The bare Channels app under the client (bench/floor)."""

    def __init__(self, args, think):
        self.args, self.think = args, think
        self.procs = Procs(Path(args.logs))

    async def open(self) -> Side:
        args = self.args
        port = free_port()
        env = {**os.environ, "REDIS_URL": args.redis_url, "DJANGO_SETTINGS_MODULE": "bench.floor.settings"}
        self.procs.start(
            "floor",
            [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "bench.floor.asgi:application"],
            env,
        )
        wait_http(f"http://127.0.0.1:{port}/")
        stats = Stats()
        rng = random.Random(1)
        self.tables = [FloorTable(i, stats, self.think, rng) for i in range(args.tables)]
        meter = CpuMeter(self.procs, None)
        before = meter.sample()
        connected = await connect_all(
            self.tables, lambda t, s: f"ws://127.0.0.1:{port}/ws/floor/t{t.index}/", lambda t, s: {}, stats
        )
        after = meter.sample()
        # The arrivals' floor: a bare Channels socket's handshake and group, nothing read.
        print(
            f"floor: {4 * len(self.tables)} sockets connected in {connected:.1f} s; cpu s: "
            + " ".join(f"{k}={after[k] - v:.1f}" for k, v in before.items() if k != "postgres"),
            flush=True,
        )
        self.side = Side("floor", self.tables, stats, meter, self.think[1] + 5)
        return self.side

    def summary(self) -> dict:
        side = self.side
        out = summary("floor", side.stats, side.driven)
        out["cpu_ms"] = side.meter.report("floor", side.stats.moves)
        out["rss_mb"] = self.procs.rss_mb("floor")
        return out

    async def close(self) -> None:
        try:
            await close_all(getattr(self, "tables", []))
        finally:
            self.procs.stop()
