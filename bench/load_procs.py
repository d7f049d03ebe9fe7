"""bench/load.py's processes: ports, the site's environment, Daphne and the worker, CPU and memory meters, the site's counters."""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
BIN = Path(sys.executable).parent
ROUND_PAUSE = 1.0


# --- processes -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def site_env(args) -> dict:
    return {
        **os.environ,
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "SECRET_KEY": "bench-load-secret-key-not-for-a-real-site-0123456789abcdef",
        "SITE_HTTPS": "false",
        "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DEADLINES": "celery",
        "ROUND_PAUSE": str(ROUND_PAUSE),
        # A person sends a few frames a second; the benchmark's seats, with no
        # think time, play as fast as frames come back. The flood guard (8 a
        # second per socket, a burst of 40) is lifted for them: the floor has
        # none, and a refused card would wait for its turn's clock.
        "FRAME_RATE": "10000",
        "FRAME_BURST": "10000",
        "CHANNEL_PREFIX": f"bench{os.getpid()}",
        "CACHE_PREFIX": f"bench{os.getpid()}",
        "CELERY_QUEUE": f"bench{os.getpid()}",
        "LOG_LEVEL": "ERROR",
        "PYTHONUNBUFFERED": "1",
    }


def wait_http(url: str, timeout: float = 60) -> None:
    end = time.time() + timeout
    while time.time() < end:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status < 500:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"nothing answers at {url}")


class Procs:
    def __init__(self, logdir: Path):
        self.procs: list[tuple[str, subprocess.Popen]] = []
        self.logdir = logdir
        logdir.mkdir(parents=True, exist_ok=True)

    def start(self, name: str, cmd: list[str], env: dict) -> subprocess.Popen:
        log = (self.logdir / f"{name}.log").open("w")
        proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=raise_fd_limit,
        )
        self.procs.append((name, proc))
        return proc

    def rss_mb(self, name_prefix: str) -> float:
        total = 0
        for name, proc in self.procs:
            if name.startswith(name_prefix):
                total += _rss_tree(proc.pid)
        return total / 1024

    def stop(self) -> None:
        for _name, proc in self.procs:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for _name, proc in self.procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


DAPHNE_FLAGS = ["--websocket_connect_timeout", "60"]
"""As docs/operations.md runs Daphne: its default drops a socket whose
handshake the application has not accepted within 5 s, and a thousand
tables arriving at once (or a restart's reconnections) queue longer than
that for their sessions and users: the pages retry, and add to the queue."""


def daphne_cmd(port: int) -> list[str]:
    return [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), *DAPHNE_FLAGS, "config.asgi:application"]


def start_worker(procs: Procs, env: dict) -> subprocess.Popen:
    """One Celery worker (the deadline ticker) on the run's own queue."""
    cmd = [
        str(BIN / "celery"),
        "-A",
        "config",
        "worker",
        "-l",
        "warning",
        "-c",
        "1",
        "-Q",
        env["CELERY_QUEUE"],
    ]
    return procs.start("worker", [*cmd, "--without-gossip", "--without-mingle"], env)


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _rss_tree(pid: int) -> int:
    """RSS of a process and its children (a Celery worker's pool), in KiB."""
    total = _rss_kb(pid)
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    return total + sum(_rss_tree(int(c)) for c in children)


class CpuMeter:
    """CPU time (user + system) of the processes that serve the moves, over
    the drive: the run's own server processes (with their children), the
    PostgreSQL backends of ``database`` (none for the floor), the Redis
    server and this client. Divided by the moves it is the cost of a move
    per process, a figure that holds better than moves per second on a
    shared, noisy machine (the other work slows everything, not the count of
    CPU seconds a move needs)."""

    TICK = os.sysconf("SC_CLK_TCK")

    def __init__(self, procs: Procs, database: str | None):
        self.procs = procs
        self.database = database
        self.start: dict[str, float] | None = None
        self.total: dict[str, float] = {}

    @classmethod
    def _cpu(cls, pid: int) -> float:
        try:
            parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(parts[11]) + int(parts[12])) / cls.TICK

    @classmethod
    def _tree(cls, pid: int) -> float:
        try:
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            children = []
        return cls._cpu(pid) + sum(cls._tree(int(c)) for c in children)

    def sample(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for name, proc in self.procs.procs:
            key = name.rstrip("0123456789") or name
            out[key] = out.get(key, 0.0) + self._tree(proc.pid)
        out["postgres"] = out["redis"] = 0.0
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if self.database and cmd.startswith("postgres:") and f" {self.database} " in cmd:
                out["postgres"] += self._cpu(int(pid))
            elif cmd.startswith("redis-server"):
                out["redis"] += self._cpu(int(pid))
        out["client"] = self._cpu(os.getpid())
        return out

    def begin(self) -> None:
        self.start = self.sample()

    def end(self) -> None:
        """Add the CPU time since ``begin`` to this meter's total (a side is
        driven in several segments, the other side's between them)."""
        now = self.sample()
        for key, value in now.items():
            self.total[key] = self.total.get(key, 0.0) + value - self.start.get(key, value)
        self.start = None

    def report(self, name: str, moves: int) -> dict[str, float]:
        """CPU milliseconds per move of each kind of process over the segments measured, printed on one line."""
        if self.start is not None:
            self.end()
        per = {k: v * 1000 / max(1, moves) for k, v in self.total.items()}
        per["total"] = sum(per.values())
        print(
            f"{name:6} cpu ms per move: " + " ".join(f"{k}={v:.2f}" for k, v in per.items()),
            flush=True,
        )
        return per


class Counters:
    """The site's own counters (``/metrics``, ops/metrics.py) and CPU seconds of
    its processes, read at the phases' edges: what one arrival (a socket's
    handshake, session, user and greeting) and one table's start cost, in
    database and Redis round trips and CPU, however slow the shared machine is
    that hour. Empty without metrics (``METRICS=off``) or with ``--url``."""

    NAMES = {
        'takhteh_db_round_trips_total{path="orm"}': "db_orm",
        'takhteh_db_round_trips_total{path="loop"}': "db_loop",
        "takhteh_redis_round_trips_total": "redis",
        "takhteh_fair_substitutes_total": "substitutes",
    }

    def __init__(self, procs: Procs, ports: list[int]):
        self.procs, self.ports = procs, ports

    def read(self) -> dict[str, float]:
        if not self.ports:
            return {}
        out: dict[str, float] = {}
        for port in self.ports:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
                    text = r.read().decode()
            except OSError:
                text = ""
            for line in text.splitlines():
                key, _, value = line.rpartition(" ")
                if key in self.NAMES:
                    out[self.NAMES[key]] = out.get(self.NAMES[key], 0.0) + float(value)
        cpu = CpuMeter(self.procs, None)
        out["daphne_cpu"] = sum(cpu._tree(p.pid) for name, p in self.procs.procs if name.startswith("daphne"))
        out["worker_cpu"] = sum(cpu._tree(p.pid) for name, p in self.procs.procs if name == "worker")
        return out

    @staticmethod
    def per(label: str, before: dict, after: dict, count: int) -> str:
        """One line: the difference of each counter divided by ``count``."""
        if not before or not after or not count:
            return f"{label}: no counters (a site not started here)"
        d = {k: (after[k] - before.get(k, 0.0)) / count for k in after}
        cpu = f"cpu ms daphne {d['daphne_cpu'] * 1000:.1f} worker {d['worker_cpu'] * 1000:.1f}"
        if "db_orm" not in d:
            return f"{label}: {cpu} (round trips not counted: metrics off)"
        return (
            f"{label}: db round trips {d['db_orm'] + d.get('db_loop', 0.0):.1f} (orm {d['db_orm']:.1f}, loop "
            f"{d.get('db_loop', 0.0):.1f}), redis {d.get('redis', 0.0):.1f}, {cpu}, "
            f"fair substitutes {d.get('substitutes', 0.0) * count:.0f}"
        )
