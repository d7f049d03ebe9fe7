"""Run the site's processes in production mode and restart any that exits.

    python scripts/serve.py --daphne 2 --port 8000      # Daphne on 8000 and 8001, a worker, the beat
    python scripts/serve.py --daphne 1 --pages 1        # the tables on 8000, the pages on 8001

With ``--pages N`` the pages are served by N Daphne processes of their own
(the ports after the tables' ones): the proxy sends ``/ws/table/`` to the
first ``--daphne`` ports and everything else to the pages' ports (README,
"Several Daphne processes behind a proxy"), so that a page's rendering never
holds the GIL of the process where the tables' moves run (issue 33).

A small supervisor for a machine without one (issue 14: a Celery worker
that exits on a broker failure comes back by itself). Each process is
started again after it exits, with a growing pause (1 s up to 30 s) if it
keeps exiting; SIGINT or SIGTERM stops them all. With systemd, supervisord
or a container orchestrator, run the same commands under it instead.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def commands(args) -> dict[str, list[str]]:
    out = {}
    for i in range(args.daphne + args.pages):
        out[f"daphne-{args.port + i}" + ("-pages" if i >= args.daphne else "")] = [
            str(BIN / "daphne"),
            "-b",
            args.host,
            "-p",
            str(args.port + i),
            # many sockets arriving at once (a restart, a tournament's start): Daphne's
            # default 5 s handshake timeout drops most of them (docs/operations.md)
            "--websocket_connect_timeout",
            "60",
            "config.asgi:application",
        ]
    out["worker"] = [str(BIN / "celery"), "-A", "config", "worker", "-l", "info", "-c", str(args.concurrency)]
    out["beat"] = [
        str(BIN / "celery"),
        "-A",
        "config",
        "beat",
        "-l",
        "info",
        "-s",
        str(ROOT / "db" / "celerybeat"),
    ]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--daphne", type=int, default=1, help="how many Daphne processes (ports from --port)")
    parser.add_argument(
        "--pages", type=int, default=0, help="Daphne processes of their own for the pages (ports after those)"
    )
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--concurrency", type=int, default=2, help="the Celery worker's pool")
    args = parser.parse_args()
    (ROOT / "db").mkdir(exist_ok=True)
    wanted = commands(args)
    running: dict[str, subprocess.Popen] = {}
    pause: dict[str, float] = {name: 1.0 for name in wanted}
    due: dict[str, float] = {name: 0.0 for name in wanted}
    stopping = False

    def stop(*_):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    while not stopping:
        now = time.monotonic()
        for name, cmd in wanted.items():
            proc = running.get(name)
            if proc is not None and proc.poll() is None:
                if now - due[name] > 60:
                    pause[name] = 1.0  # up for a minute: the next exit restarts at once
                continue
            if proc is not None:
                print(
                    f"serve: {name} exited with {proc.returncode}; again in {pause[name]:.0f} s", flush=True
                )
                running.pop(name)
                due[name] = now + pause[name]
                pause[name] = min(30.0, pause[name] * 2)
            if now >= due[name]:
                running[name] = subprocess.Popen(cmd, cwd=ROOT, env=os.environ.copy())
                due[name] = now
                print(f"serve: started {name} (pid {running[name].pid})", flush=True)
        time.sleep(0.5)
    for proc in running.values():
        proc.terminate()
    for proc in running.values():
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    main()
