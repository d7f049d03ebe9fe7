"""The fault tests' processes (issue 39): Daphne, the Celery worker, a TCP proxy in front of PostgreSQL the
test can cut, a private Redis, and the site's environment."""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from pathlib import Path

from django.db import connection

from tests.celery_worker import CeleryWorker

ROOT = Path(__file__).resolve().parents[2]

DAPHNE_FLAGS = ["--websocket_connect_timeout", "60"]
"""As docs/operations.md runs it: Daphne drops a socket whose handshake the
application has not accepted within 5 s by default, and with hundreds of
sockets arriving at once (a restart) the session and user reads queue
longer than that: the page would retry, and add to the queue."""


def raise_fd_limit() -> None:
    """Thousands of sockets in one process (the test's clients, Daphne)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def direct_database_url() -> str:
    """The test database, as the site's processes reach it without a proxy."""
    db = connection.settings_dict
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Daphne:
    """The site's Daphne process, started (and started again) on one port."""

    def __init__(self, tmp: Path, env: dict):
        self.port = free_port()
        self.tmp = tmp
        self.env = env
        self.starts = 0
        self.proc = None

    def start(self) -> float:
        self.starts += 1
        self.log = self.tmp / f"daphne-{self.starts}.log"
        began = time.monotonic()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                *DAPHNE_FLAGS,
                "config.asgi:application",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=raise_fd_limit,
        )
        # A condition wait, long enough for a loaded 2-core machine: a restarted
        # Daphne answers its first /healthz behind every page's reconnection at
        # once (1,000 sockets), which took over 30 s there beside other work.
        end = time.monotonic() + 90
        while time.monotonic() < end:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1) as r:
                    if r.status == 200:
                        return time.monotonic() - began
            except OSError:
                time.sleep(0.1)
        raise AssertionError("Daphne did not start:\n" + self.log.read_text()[-3000:])

    def kill(self):
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class TcpProxy:
    """Forwards 127.0.0.1:<port> to a server; ``cut()`` drops every connection
    and refuses new ones (the server is restarting) until ``resume()``."""

    def __init__(self, target_host: str, target_port: int):
        self.target = (target_host, target_port)
        self.port = free_port()
        self.open = threading.Event()
        self.open.set()
        self.lock = threading.Lock()
        self.pairs: set[socket.socket] = set()
        self.listener = socket.create_server(("127.0.0.1", self.port), backlog=256)
        self.listener.settimeout(0.2)
        self.stopped = False
        self.accepted = 0
        self.thread = threading.Thread(target=self._serve, daemon=True, name="pg-proxy")
        self.thread.start()

    def _serve(self):
        while not self.stopped:
            try:
                client, _ = self.listener.accept()
            except (TimeoutError, OSError):
                continue
            if not self.open.is_set():
                client.close()  # as a server that is down: connection refused or reset
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            self.accepted += 1
            with self.lock:
                self.pairs |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket):
        try:
            src.settimeout(None)
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
                with self.lock:
                    self.pairs.discard(s)

    def cut(self) -> int:
        """Every connection dropped at once; new ones refused. Returns how many were dropped."""
        self.open.clear()
        with self.lock:
            pairs = list(self.pairs)
        for s in pairs:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        return len(pairs) // 2

    def resume(self):
        self.open.set()

    def close(self):
        self.stopped = True
        self.cut()
        self.listener.close()


class PrivateRedis:
    """A redis-server of the test's own on a free port (the shared one is never touched)."""

    def __init__(self, tmp: Path):
        self.port = free_port()
        self.tmp = tmp
        self.proc = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        self.starts += 1
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.tmp),
                "--maxclients",
                "4000",
            ],
            stdout=(self.tmp / f"redis-{self.starts}.log").open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    stop = kill


class Worker(CeleryWorker):
    """A Celery worker (its deadline ticker plays the deals and timeouts) with the given
    environment, on a queue of its own; started (``ready.``) when made, stopped warm."""

    def __init__(self, env: dict, tmp: Path):
        queue = f"faults-{uuid.uuid4().hex[:8]}"
        super().__init__(env, queue, tmp / f"worker-{queue}.log")
        self.wait_ready(60)


def site_env(database_url: str, redis_url: str, tag: str) -> dict:
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "CHANNEL_PREFIX": f"faults{tag}",
        "CACHE_PREFIX": f"faults-{tag}",
        "DEADLINES": "celery",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DEBUG": "false",
        "TURN_SCALE": "1",
        "ROUND_PAUSE": "0.2",
        "FAIR_WAIT_SECONDS": "0",
        "BOT_LEVEL": "easy",
        "LOG_LEVEL": "WARNING",
        "DB_CONN_MAX_AGE": "0",
        "PYTHONUNBUFFERED": "1",
    }
