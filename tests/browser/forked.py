"""The browser tests' scripts on the live site's database (onsite.py and a few
modules), run as ``python manage.py shell -c CODE`` or ``python -c CODE ARGS``
would run them, but each in a process forked from one that has already
imported the heavy libraries (Django, Daphne and Twisted, Celery, psycopg,
Redis, the engines).

A fresh interpreter spent about 0.9 s of CPU on those imports before the
script's first statement, and the suite runs about a hundred such scripts
(docs/testing.md). The forked process is still a process of its own, with
its own environment, settings, database connections, output and exit, so a
script sees what a fresh one did: nothing of Django is configured before the
fork (settings are read from the environment given here), and a call
returns once the process has exited, its non-daemon threads (the in-process
deadline timers) included, as ``subprocess.run`` did.

The server is ``python -m tests.browser.forked``, one per test process,
started on first use; it reads one request a line (JSON: the arguments, the
environment, two files for the output) and answers ``pid N`` when it forked
and ``exit CODE`` when that child ended.
"""

from __future__ import annotations

import atexit
import importlib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Imported once by the server; none of them reads Django's settings on import.
PRELOAD = [
    "django",
    "django.db.models",
    "django.urls",
    "django.contrib.admin",
    "django.core.management",
    "daphne.server",
    "twisted.internet.asyncioreactor",
    "celery.app",
    "redis.asyncio",
    "psycopg",
    "psycopg_pool",
    "channels.layers",
    "channels.generic.websocket",
    "rest_framework",
    "allauth",
    "pydantic",
    "games.engine",
]

_server: subprocess.Popen | None = None
_pending = b""
_lock = threading.Lock()


# --- the server's side ---------------------------------------------------------------


def _run_child(args: list[str], env: dict, out: str, err: str) -> None:
    """In the forked child: become ``python ARGS`` with ``env``; never returns."""
    code = 0
    try:
        os.environ.clear()
        os.environ.update(env)
        os.chdir(ROOT)
        for path, fd in ((out, 1), (err, 2)):
            target = os.open(path, os.O_WRONLY | os.O_TRUNC)
            os.dup2(target, fd)
            os.close(target)
        nothing = os.open(os.devnull, os.O_RDONLY)
        os.dup2(nothing, 0)
        os.close(nothing)
        try:
            if args[0] == "-c":
                sys.argv = ["-c", *args[2:]]
                exec(compile(args[1], "<string>", "exec"), {"__name__": "__main__"})
            else:  # manage.py and its arguments
                sys.argv = list(args)
                os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
                from django.core.management import execute_from_command_line

                execute_from_command_line(sys.argv)
        except SystemExit as stop:
            if stop.code is None or isinstance(stop.code, int):
                code = stop.code or 0
            else:
                print(stop.code, file=sys.stderr)
                code = 1
        # As the interpreter's own exit: its other threads first, then atexit.
        for thread in threading.enumerate():
            if thread is not threading.current_thread() and not thread.daemon:
                thread.join()
        atexit._run_exitfuncs()
    except BaseException:
        traceback.print_exc()
        code = code or 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def serve() -> None:
    for name in PRELOAD:
        importlib.import_module(name)
    answers = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _run_child(request["args"], request["env"], request["out"], request["err"])
        answers.write(f"pid {pid}\n")
        answers.flush()
        _, status = os.waitpid(pid, 0)
        answers.write(f"exit {os.waitstatus_to_exitcode(status)}\n")
        answers.flush()


# --- the tests' side -----------------------------------------------------------------


def _started() -> subprocess.Popen:
    global _server, _pending
    if _server is None or _server.poll() is not None:
        _pending = b""
        _server = subprocess.Popen(
            [sys.executable, "-m", "tests.browser.forked"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
        )
        atexit.register(_server.kill)
    return _server


def _answer(server: subprocess.Popen, timeout: float) -> str:
    """The server's next line's value, waiting at most ``timeout`` seconds."""
    global _pending
    fd = server.stdout.fileno()
    deadline = time.monotonic() + timeout
    while b"\n" not in _pending:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise TimeoutError
        chunk = os.read(fd, 4096)
        if not chunk:
            raise RuntimeError("the fork server ended")
        _pending += chunk
    line, _, _pending = _pending.partition(b"\n")
    return line.split()[1].decode()


def run(args: list[str], env: dict, timeout: float, check: bool = False) -> subprocess.CompletedProcess:
    """``subprocess.run([python, *args], cwd=ROOT, env=env, capture_output=True,
    text=True, timeout=timeout, check=check)`` on a forked process; ``args`` is
    ``["manage.py", ...]`` or ``["-c", code, *argv]``."""
    command = [sys.executable, *args]
    with _lock, tempfile.TemporaryDirectory() as folder:
        out, err = Path(folder, "out"), Path(folder, "err")
        out.touch()
        err.touch()
        server = _started()
        request = {"args": args, "env": dict(env), "out": str(out), "err": str(err)}
        server.stdin.write(json.dumps(request).encode() + b"\n")
        pid = int(_answer(server, 60))
        try:
            code = int(_answer(server, timeout))
        except TimeoutError:
            os.kill(pid, signal.SIGKILL)
            _answer(server, 60)
            raise subprocess.TimeoutExpired(command, timeout) from None
        done = subprocess.CompletedProcess(command, code, out.read_text(), err.read_text())
    if check:
        done.check_returncode()
    return done


if __name__ == "__main__":
    serve()
