"""Pages under load, beside a bare Django view served the same way (issue 33).

    python bench/pages.py                                  # 64 clients, 60 s a side
    python bench/pages.py --concurrency 64 --duration 60 --tables 200
    python bench/pages.py --url http://127.0.0.1:8000      # a site already running (see below)

It starts the site in production mode (PostgreSQL, Redis, one Daphne process
and a Celery worker, as ``bench/load.py`` does) on a database of its own,
fills it with players, finished matches, their ledger and waiting rooms, and
drives it with C concurrent clients for D seconds over the home page, the
lobby, the leaderboard, a player's profile, a room page and a school lesson;
half the clients are signed in, half anonymous (each keeps its cookies and
one keep-alive connection, as a browser does). In the same run, the same
client drives the floor for D seconds: ``/bench-floor/``, the site's base
layout rendered by a view that makes no query, served by the same process
through the same middleware (``bench/pages_site``: the site's settings plus
that one URL), requested without a session. The two sides run in turns of
ten seconds so both meet the same machine.

``--tables T`` plays ``bench/load.py``'s T live tables (with its own floor)
on the same site while the pages are loaded; its last line is printed too.
``--pages-processes N`` serves the pages, and the floor with them, from N
Daphne processes of their own beside the tables' one (``scripts/serve.py
--pages N``, the README's proxy); client i asks process i mod N.

It prints per page p50/p95/p99 and errors, the ratio of requests a second
to the floor's (``ratio_rps=R``), and as its last line exactly:

    pages conc=C tables=T: requests/s=R p95_ms=P floor_p95_ms=F ratio_p95=Q errors=E

An error is an answer of 500 or more, any answer other than the page's
expected status, or a failed or dropped connection. With ``--url`` the site
must have been started with ``DJANGO_SETTINGS_MODULE=bench.pages_site.settings``
(for the floor) and the database must be the one ``--database-url`` names.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load_data import drop_database, reset_database  # noqa: E402
from bench.load_procs import BIN, PY, Procs, free_port, raise_fd_limit, site_env, start_worker, wait_http  # noqa: E402
from bench.pages_client import Client, Samples, drive, report  # noqa: E402
from bench.pages_data import pages_of, prepare  # noqa: E402

SEGMENT_SECONDS = 10.0
FLOOR = "/bench-floor/"


# --- the run ---------------------------------------------------------------------------------


def start_site(args, procs: Procs) -> tuple[str, list[str], dict]:
    """The tables' process and the pages' processes (the same one unless ``--pages-processes``)."""
    env = {**site_env(args), "DJANGO_SETTINGS_MODULE": "bench.pages_site.settings"}
    if args.url:
        return args.url.rstrip("/"), [args.url.rstrip("/")], env
    reset_database(args.database_url)
    subprocess.run([PY, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    start_worker(procs, env)
    urls = []
    for i in range(1 + args.pages_processes):
        port = free_port()
        name = "daphne" if i == 0 else f"daphne-pages{i}"
        procs.start(
            name, [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"], env
        )
        urls.append(f"http://127.0.0.1:{port}")
    for url in urls:
        wait_http(f"{url}/healthz")
    return urls[0], urls[1:] or urls, env


def start_tables(args, url: str, logs: Path) -> subprocess.Popen | None:
    if not args.tables:
        return None
    duration = 2 * args.duration + 20
    cmd = [
        PY,
        str(ROOT / "bench" / "load.py"),
        "--url",
        url,
        "--tables",
        str(args.tables),
        "--think",
        args.think,
        "--duration",
        str(duration),
        "--database-url",
        args.database_url,
        "--redis-url",
        args.redis_url,
        "--logs",
        str(logs / "load"),
    ]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_driving(load: subprocess.Popen, lines: list[str], timeout: float = 300) -> None:
    """Until bench/load.py says its tables are started and driven."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        line = load.stdout.readline()
        if not line:
            raise SystemExit("bench/load.py ended before its tables were driven:\n" + "".join(lines[-20:]))
        lines.append(line)
        print(f"  [load] {line.rstrip()}", flush=True)
        if line.startswith("driving"):
            return
    raise SystemExit("bench/load.py's tables never started")


async def run(args, urls: list[str], data: dict) -> tuple[dict, dict]:
    """Client i asks the pages' process i mod their number (the floor's clients alike)."""
    where = [(urlsplit(u).hostname, urlsplit(u).port or 80) for u in urls]
    pages = [(name, path, 200) for name, path in pages_of(data)]
    sessions = data["sessions"]
    site_clients = [
        Client(*where[i % len(where)], sessions[i % len(sessions)] if i % 2 == 0 else None)
        for i in range(args.concurrency)
    ]
    floor_clients = [Client(*where[i % len(where)], None) for i in range(args.concurrency)]
    # Warm both (templates compiled, connections open, anonymous sessions made).
    await drive(site_clients, pages, Samples(), 3)
    await drive(floor_clients, [("floor", FLOOR, 200)], Samples(), 2)
    site, floor = Samples(), Samples()
    segments = max(1, round(args.duration / SEGMENT_SECONDS))
    for _ in range(segments):
        await drive(floor_clients, [("floor", FLOOR, 200)], floor, args.duration / segments)
        await drive(site_clients, pages, site, args.duration / segments)
    for c in site_clients + floor_clients:
        await c.close()
    return report("floor", floor), report("site ", site)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--duration", type=float, default=60, help="seconds of driving per side")
    parser.add_argument("--tables", type=int, default=0, help="bench/load.py's live tables meanwhile")
    parser.add_argument("--think", default="2-5", help="the tables' think time (bench/load.py)")
    parser.add_argument(
        "--pages-processes",
        type=int,
        default=0,
        help="Daphne processes of their own for the pages and the floor (0: the tables' process)",
    )
    parser.add_argument("--url", default="")
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "BENCH_DATABASE_URL", "postgres://takhteh:takhteh@127.0.0.1:5432/takhteh_bench_pages"
        ),
    )
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13"))
    parser.add_argument("--logs", default=str(ROOT / "artifacts" / "pages"))
    parser.add_argument("--drop", action="store_true", help="drop the benchmark's database at the end")
    parser.add_argument("--prepare", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.prepare:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.pages_site.settings")
        prepare(Path(args.prepare))
        return
    raise_fd_limit()
    logs = Path(args.logs)
    logs.mkdir(parents=True, exist_ok=True)
    procs = Procs(logs)
    load = None
    load_lines: list[str] = []
    try:
        url, page_urls, env = start_site(args, procs)
        layout = logs / "pages.json"
        subprocess.run([PY, __file__, "--prepare", str(layout)], cwd=ROOT, env=env, check=True)
        data = json.loads(layout.read_text())
        load = start_tables(args, url, logs)
        if load is not None:
            wait_driving(load, load_lines)
        floor, site = asyncio.run(run(args, page_urls, data))
        if load is not None:
            for line in load.stdout:
                load_lines.append(line)
                print(f"  [load] {line.rstrip()}", flush=True)
            load.wait()
    finally:
        if load is not None and load.poll() is None:
            load.terminate()
        procs.stop()
        if args.drop and not args.url:
            drop_database(args.database_url)
    last_load = next((line for line in reversed(load_lines) if line.startswith("load tables=")), "")
    if last_load:
        print(last_load.rstrip(), flush=True)
    print(f"ratio_rps={site['requests_s'] / floor['requests_s']:.2f}", flush=True)
    print(
        f"ratios to the floor: p95 {site['p95'] / floor['p95']:.2f}x, "
        f"requests/s {site['requests_s'] / floor['requests_s']:.2f}x; load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    print(
        f"pages conc={args.concurrency} tables={args.tables}: requests/s={site['requests_s']:.1f} "
        f"p95_ms={site['p95']:.1f} floor_p95_ms={floor['p95']:.1f} ratio_p95={site['p95'] / floor['p95']:.2f} "
        f"errors={site['errors'] + floor['errors']}"
    )


if __name__ == "__main__":
    main()
