"""A real ``celery worker`` process of the project's app, for the tests that
need one (the arena's two workers, issue 37; the fault tests, issue 14).

One solo-pool worker on one queue (the test's own), without gossip, mingle
or heartbeat, logging at info to a file, in a session of its own so that a
stop reaches the whole process group.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class CeleryWorker:
    """``celery -A config worker`` on ``queue`` with ``env``, its output in ``log``;
    ``name`` is the node's name (two workers on one queue need two); ``extra``,
    more options (``-B`` for an embedded beat)."""

    def __init__(self, env: dict, queue: str, log: Path, name: str | None = None, extra=()):
        self.queue = queue
        self.log = log
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-P",
                "solo",
                "-c",
                "1",
                "-Q",
                queue,
                "-n",
                f"{name or queue}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-l",
                "info",
                *extra,
            ],
            cwd=ROOT,
            env={**env, "CELERY_QUEUE": queue},
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def text(self) -> str:
        return self.log.read_text() if self.log.exists() else ""

    def alive(self) -> bool:
        return self.proc.poll() is None

    def wait_ready(self, timeout: float) -> None:
        """Until the worker says ``ready.``; stopped, with its log's end, if it dies or never does."""
        end = time.monotonic() + timeout
        while "ready." not in self.text():
            if time.monotonic() > end or not self.alive():
                self.stop()
                raise AssertionError("the Celery worker did not start:\n" + self.text()[-3000:])
            time.sleep(0.2)

    def kill(self) -> None:
        """SIGKILL to the worker's process group (no warm shutdown)."""
        if self.alive():
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self, grace: float = 15.0) -> None:
        """SIGTERM (a warm shutdown), SIGKILL after ``grace`` seconds."""
        if self.alive():
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
