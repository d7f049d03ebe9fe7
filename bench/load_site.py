"""bench/load.py's site run: the site started (or reached), its tables prepared, driven beside the floor."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import time
from pathlib import Path

from bench.load_data import reset_database
from bench.load_drive import START_RATE, Beats, Floor, Side, close_all, drive_in_turns, summary
from bench.load_procs import (
    PY,
    ROOT,
    ROUND_PAUSE,
    Counters,
    CpuMeter,
    Procs,
    daphne_cmd,
    free_port,
    site_env,
    start_worker,
    wait_http,
)
from bench.load_tables import BotTable, Stats, Table, connect_all

SEGMENT_SECONDS = 10.0
"""The length of a turn when ``--segments`` is not given."""


class Site:
    """The site in production mode (or one already running, ``--url``) under the client."""

    def __init__(self, args, think):
        self.args, self.think = args, think
        self.procs = Procs(Path(args.logs))

    async def open(self) -> Side:
        args, procs = self.args, self.procs
        env = site_env(args)
        ports = []
        if args.url:
            ports = [int(args.url.rsplit(":", 1)[1].strip("/"))]
        else:
            t0 = time.perf_counter()
            # Off the client's loop (here and below): the floor's sockets, already open, must
            # answer their server's pings meanwhile (Daphne closes a socket after 50 s without).
            await asyncio.to_thread(reset_database, args.database_url)
            await asyncio.to_thread(
                subprocess.run,
                [PY, "manage.py", "migrate", "--noinput", "-v", "0"],
                cwd=ROOT,
                env=env,
                check=True,
            )
            print(f"database migrated in {time.perf_counter() - t0:.1f} s", flush=True)
            start_worker(procs, env)
            for i in range(args.processes):
                port = free_port()
                ports.append(port)
                procs.start(f"daphne{i}", daphne_cmd(port), env)
            for port in ports:
                await asyncio.to_thread(wait_http, f"http://127.0.0.1:{port}/healthz")
            pids = {name: proc.pid for name, proc in procs.procs}
            print(f"processes: {pids}", flush=True)
        t0 = time.perf_counter()
        layout = Path(args.logs) / "tables.json"
        bot_tables = getattr(args, "bot_tables", 0)
        await asyncio.to_thread(
            subprocess.run,
            [
                PY,
                str(ROOT / "bench" / "load.py"),
                "--prepare",
                str(args.tables),
                "--bot-tables",
                str(bot_tables),
                "--out",
                str(layout),
            ],
            cwd=ROOT,
            env=env,
            check=True,
        )
        self.setup_s = time.perf_counter() - t0
        rooms = json.loads(layout.read_text())
        self.rss_idle = procs.rss_mb("daphne")
        stats = Stats()
        stats.log = [] if getattr(args, "dump", "") else None  # bench/bot_lag.py has no --dump
        self.bot_stats = Stats()  # the bots' tables: their errors and stalls, never in the moves measured
        rng = random.Random(2)
        self.tables = [
            BotTable(i, self.bot_stats, (0, 0), rng) if room.get("bots") else Table(i, stats, self.think, rng)
            for i, room in enumerate(rooms)
        ]

        def port_of(t, seat):
            # A proxy with room affinity (the README's nginx: the table's address hashed)
            # sends every socket of a table to one process; --split, the worst case, seat
            # n to process n mod the number of processes.
            return ports[(seat if args.split else t.index) % len(ports)]

        def url(t, seat):
            return f"ws://127.0.0.1:{port_of(t, seat)}/ws/table/{rooms[t.index]['code']}/"

        def headers(t, seat):
            port = port_of(t, seat)
            return {
                "Cookie": f"sessionid={rooms[t.index]['sessions'][seat]}",
                "Origin": f"http://127.0.0.1:{port}",
            }

        self.url_of, self.headers_of, self.ports = url, headers, ports
        counters = Counters(procs, [] if args.url else ports)
        self.beats = Beats(10.0)
        sockets = sum(len(t.connect_seats) for t in self.tables)
        meter = CpuMeter(procs, args.database_url.rsplit("/", 1)[1])
        cpu = [await asyncio.to_thread(meter.sample)]
        before = await asyncio.to_thread(counters.read)
        self.connect_began = time.monotonic()
        self.connect_s = await connect_all(self.tables, url, headers, stats, on_table=self.beats.start)
        await _all_greeted(self.tables, 60)
        self.greeted_s = time.monotonic() - self.connect_began
        cpu.append(await asyncio.to_thread(meter.sample))
        connected = await asyncio.to_thread(counters.read)
        await self.start_tables(getattr(args, "start_rate", START_RATE), getattr(args, "start_window", 0))
        await _all_started(self.tables, 60)
        starts_s = time.monotonic() - self.connect_began - self.greeted_s
        cpu.append(await asyncio.to_thread(meter.sample))
        started = await asyncio.to_thread(counters.read)
        print(
            f"site: {len(self.tables)} tables created in {self.setup_s:.1f} s, "
            f"{sockets} sockets connected in {self.connect_s:.1f} s, every page greeted "
            f"{self.greeted_s:.1f} s after the first socket began to connect",
            flush=True,
        )
        print(Counters.per("per arrival (socket)", before, connected, sockets), flush=True)
        print(Counters.per("per table start", connected, started, len(self.tables)), flush=True)
        for phase, a, b, wall in (
            ("arrivals", cpu[0], cpu[1], self.greeted_s),
            ("starts", cpu[1], cpu[2], starts_s),
        ):
            print(f"{phase} cpu s: {_cpu_delta(a, b)} (in {wall:.1f} s of wall time)", flush=True)
        self.rss_conn = procs.rss_mb("daphne")
        self.side = Side("site", self.tables, stats, meter, self.think[1] + ROUND_PAUSE + 5, self.beats)
        return self.side

    async def start_tables(self, rate: float, window: int = 0) -> None:
        """Each table's creator starts its match, as the page's button does, once
        every seat's page has loaded (had its greeting), in the tables' order, at
        most ``rate`` tables a second, once every socket is open (started while the
        others connected, their fair deals' answers came late: the arrivals' work
        held the GIL the event loop needed for the answers). People
        start when their table is full, not a thousand at one instant; a match
        started before its seats were there dealt its first round's fair deal to
        nobody (F-4: substitutes)."""
        began = time.monotonic()
        starting: list = []
        for i, t in enumerate(self.tables):
            try:
                await asyncio.wait_for(t.greeted_event().wait(), 60)
            except TimeoutError:
                continue  # a page never loaded (a failed socket, counted): its table stalls
            if window > 0:  # at most ``window`` tables started and not yet begun (their states arrived)
                while len(starting := [s for s in starting if s.started_at is None]) >= window:
                    await asyncio.sleep(0.005)
                starting.append(t)
            await t.send(0, {"type": "start"})
            if rate > 0 and window <= 0:
                await asyncio.sleep(max(0.0, began + (i + 1) / rate - time.monotonic()))

    async def reconnect(self) -> dict:
        """Daphne (one process) SIGKILLed and started again on its port; every
        page connects again at once, as the table's page does. Seconds from the
        new process answering /healthz until every socket is open again and has
        had its table's state (its greeting: the database's version)."""
        procs = self.procs
        index = next(i for i, (name, _p) in enumerate(procs.procs) if name == "daphne0")
        _name, proc = procs.procs.pop(index)
        self.beats.stop()
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        killed = time.perf_counter()
        for t in self.tables:
            t.sockets = [None] * 4
            t.fresh = set()
        port = self.ports[0]
        procs.start("daphne0", daphne_cmd(port), site_env(self.args))
        await asyncio.to_thread(wait_http, f"http://127.0.0.1:{port}/healthz")
        up = time.perf_counter()
        meter = CpuMeter(procs, self.args.database_url.rsplit("/", 1)[1])
        counters = Counters(procs, [port])
        cpu_before = await asyncio.to_thread(meter.sample)
        before = await asyncio.to_thread(counters.read)
        stats = Stats()
        self.beats = Beats(10.0)
        connect = asyncio.ensure_future(
            connect_all(
                self.tables, self.url_of, self.headers_of, stats, concurrency=256, on_table=self.beats.start
            )
        )
        while (
            any(len(t.fresh) < len(t.connect_seats) for t in self.tables) and time.perf_counter() - up < 300
        ):
            await asyncio.sleep(0.02)
        resynced = time.perf_counter() - up
        cpu_after = await asyncio.to_thread(meter.sample)
        after = await asyncio.to_thread(counters.read)
        connected = await connect
        behind = sum(len(t.connect_seats) - len(t.fresh) for t in self.tables)
        for t in self.tables:
            t.fresh = None
        out = {
            "restart_s": up - killed,
            "reconnect_s": resynced if not behind else float("nan"),
            "reconnect_errors": sum(stats.errors.values()),
        }
        print(
            f"reconnect: Daphne killed and answering again in {out['restart_s']:.1f} s; "
            f"{sum(len(t.connect_seats) for t in self.tables)} sockets open again in {connected:.1f} s and "
            f"every one with its table's state {resynced:.1f} s after the new process answered; "
            f"{behind} without; errors={stats.errors or 0}",
            flush=True,
        )
        sockets = sum(len(t.connect_seats) for t in self.tables)
        print(Counters.per("per reconnection (socket)", before, after, sockets), flush=True)
        print(
            f"reconnect cpu s: {_cpu_delta(cpu_before, cpu_after)} (in {resynced:.1f} s of wall time)",
            flush=True,
        )
        return out

    def summary(self) -> dict:
        args, side, tables, procs = self.args, self.side, self.tables, self.procs
        stats = side.stats
        out = summary("site", stats, side.driven)
        out["cpu_ms"] = side.meter.report("site", stats.moves)
        if stats.log is not None:
            Path(args.dump).write_text(json.dumps(stats.log))
        begun = [t.started_at for t in tables if t.started_at is not None]
        out["start_s"] = max(begun) - self.connect_began if len(begun) == len(tables) else float("nan")
        print(
            f"site: {len(begun)} of {len(tables)} tables started (every seat had the table's state); "
            f"the last {out['start_s']:.1f} s after the first socket began to connect",
            flush=True,
        )
        bots = [t for t in tables if isinstance(t, BotTable)]
        out["bot_versions"] = sum(t.versions for t in bots)
        out["bot_errors"] = sum(self.bot_stats.errors.values())
        if bots:
            print(
                f"bots: {len(bots)} tables made {out['bot_versions']} versions, "
                f"errors={self.bot_stats.errors or 0}",
                flush=True,
            )
        out.update(
            setup_s=self.setup_s,
            connect_s=self.connect_s,
            rss_daphne_mb=self.rss_conn,
            rss_worker_mb=procs.rss_mb("worker"),
            rss_per_1000_sockets_mb=(self.rss_conn - self.rss_idle) / max(1, 4 * len(tables)) * 1000,
        )
        print(
            f"rss: daphne {self.rss_conn:.0f} MiB ({out['rss_per_1000_sockets_mb']:.0f} MiB per 1,000 sockets), "
            f"worker {out['rss_worker_mb']:.0f} MiB",
            flush=True,
        )
        return out

    async def close(self) -> None:
        try:
            if getattr(self, "beats", None) is not None:
                self.beats.stop()
            await close_all(getattr(self, "tables", []))
        finally:
            self.procs.stop()


async def _all_greeted(tables, timeout: float) -> None:
    try:
        await asyncio.wait_for(asyncio.gather(*(t.greeted_event().wait() for t in tables)), timeout)
    except TimeoutError:
        print(f"not every page greeted within {timeout:.0f} s", flush=True)


async def _all_started(tables, timeout: float) -> None:
    end = time.monotonic() + timeout
    while any(t.started_at is None for t in tables) and time.monotonic() < end:
        await asyncio.sleep(0.02)


async def run_site(args, think) -> dict:
    """The site alone, driven ``args.duration`` seconds at once (bench/bot_lag.py)."""
    site = Site(args, think)
    try:
        side = await site.open()
        await side.drive(args.duration)
        return site.summary()
    finally:
        await site.close()


async def run_both(args, think) -> tuple[dict | None, dict]:
    """The floor (unless ``--no-floor``) and the site, both started and
    connected, then driven in turns (``Side``): ``--segments`` each."""
    floor = None if args.no_floor else Floor(args, think)
    site = Site(args, think)
    try:
        sides = []
        if floor is not None:
            sides.append(await floor.open())
        sides.append(await site.open())
        segments = args.segments or max(1, round(args.duration / SEGMENT_SECONDS))
        print(
            f"driving {len(sides)} side(s) in {segments} turns of {args.duration / segments:.1f} s each",
            flush=True,
        )
        await drive_in_turns(sides, args.duration, segments)
        floor_out = floor.summary() if floor is not None else None
        site_out = site.summary()
        if args.reconnect and not args.url and args.processes == 1:
            site_out.update(await site.reconnect())
        return floor_out, site_out
    finally:
        if floor is not None:
            await floor.close()
        await site.close()


def _cpu_delta(before: dict, after: dict) -> str:
    """CPU seconds of each kind of process between two ``CpuMeter.sample``s."""
    return " ".join(f"{k}={after.get(k, 0.0) - v:.1f}" for k, v in before.items())
