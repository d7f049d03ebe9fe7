"""bench/pages.py's client: keep-alive HTTP clients with their cookies, the samples they take and their report."""

from __future__ import annotations

import asyncio
import random
import time

from bench.load_drive import percentile

# --- the client ------------------------------------------------------------------------------


class Samples:
    def __init__(self):
        self.times: dict[str, list[float]] = {}
        self.errors: dict[str, int] = {}
        self.kinds: dict[str, int] = {}
        self.driven = 0.0

    def add(self, page: str, ms: float) -> None:
        self.times.setdefault(page, []).append(ms)

    def error(self, page: str, kind: str) -> None:
        self.errors[page] = self.errors.get(page, 0) + 1
        self.kinds[kind] = self.kinds.get(kind, 0) + 1

    def all_times(self) -> list[float]:
        return [t for times in self.times.values() for t in times]

    def count(self) -> int:
        return sum(len(t) for t in self.times.values())


class Client:
    """One browser: one keep-alive connection and its own cookies."""

    def __init__(self, host: str, port: int, session: str | None):
        self.host, self.port = host, port
        self.cookies: dict[str, str] = {"sessionid": session} if session else {}
        self.reader = self.writer = None

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None

    async def get(self, path: str) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            "Accept: text/html\r\nAccept-Language: fa\r\n"
            + (f"Cookie: {cookie}\r\n" if cookie else "")
            + "\r\n"
        )
        self.writer.write(request.encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        length, chunked, close = None, False, False
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value.lower():
                chunked = True
            elif name == "connection" and value.lower() == "close":
                close = True
            elif name == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        if chunked:
            body = b""
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                body += chunk[:-2]
        elif length is not None:
            body = await self.reader.readexactly(length)
        else:
            body = await self.reader.read()
            close = True
        if close:
            await self.close()
        return status, body


async def drive(clients, pages, samples: Samples, seconds: float) -> None:
    """Every client requests its pages in turn, one at a time, for ``seconds``."""
    end = time.monotonic() + seconds

    async def one(i: int, client: Client) -> None:
        order = list(pages)
        random.Random(i).shuffle(order)
        k = 0
        while time.monotonic() < end:
            name, path, expected = order[k % len(order)]
            k += 1
            began = time.perf_counter()
            try:
                status, _ = await asyncio.wait_for(client.get(path), 30)
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
                samples.error(name, type(exc).__name__)
                await client.close()
                continue
            ms = (time.perf_counter() - began) * 1000
            if status != expected:
                samples.error(name, f"status {status}")
            else:
                samples.add(name, ms)

    began = time.monotonic()
    await asyncio.gather(*(one(i, c) for i, c in enumerate(clients)))
    samples.driven += time.monotonic() - began


def report(label: str, samples: Samples) -> dict:
    times = samples.all_times()
    out = {
        "requests_s": samples.count() / max(samples.driven, 1e-9),
        "p50": percentile(times, 50),
        "p95": percentile(times, 95),
        "p99": percentile(times, 99),
        "errors": sum(samples.errors.values()),
    }
    for page in sorted(set(samples.times) | set(samples.errors)):
        t = samples.times.get(page, [])
        print(
            f"{label} {page:<12} n={len(t):>6} p50_ms={percentile(t, 50):7.1f} p95_ms={percentile(t, 95):7.1f} "
            f"p99_ms={percentile(t, 99):7.1f} errors={samples.errors.get(page, 0)}",
            flush=True,
        )
    if samples.kinds:
        print(f"{label} errors by kind: {samples.kinds}", flush=True)
    print(
        f"{label} all: requests/s={out['requests_s']:.1f} p50_ms={out['p50']:.1f} p95_ms={out['p95']:.1f} "
        f"p99_ms={out['p99']:.1f} errors={out['errors']}",
        flush=True,
    )
    return out
