"""The arena benchmark's observer (bench/arena_events.py): a WebSocket client of
the arena's standings socket (the ASGI consumer, over the channel layer) on an
event loop of its own, counting every frame."""

from __future__ import annotations

import asyncio
import threading
import time


class Socket:
    """A WebSocket client of the arena's socket on an event loop of its own: keeps,
    for each standings frame, when it arrived and when its standings were read
    (its ``at``), both on this process's wall clock."""

    def __init__(self, arena_id: int):
        self.arena_id = arena_id
        self.frames = 0
        self.arrivals: list[tuple[float, float]] = []  # (arrived, at), in arrival order
        self.last: dict | None = None
        self.ready = threading.Event()
        self.stop = threading.Event()
        self.error: str | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self.thread.start()
        if not self.ready.wait(30):
            raise RuntimeError(f"the arena socket did not connect: {self.error}")

    def _run(self) -> None:
        try:
            asyncio.run(self._listen())
        except Exception as exc:  # noqa: BLE001 - reported by start() / the result
            self.error = repr(exc)
            self.ready.set()

    async def _listen(self) -> None:
        from channels.testing import WebsocketCommunicator

        from config.asgi import application
        from events import ticker

        # The benchmark's clock is the ticker: the consumer must not start the
        # embedded one (real time) on this loop.
        ticker._running.add(asyncio.get_running_loop())
        comm = WebsocketCommunicator(
            application, f"/ws/arena/{self.arena_id}/", headers=[(b"origin", b"http://localhost")]
        )
        connected, _ = await comm.connect(timeout=20)
        if not connected:
            raise RuntimeError("refused")
        hello = await comm.receive_json_from(timeout=20)
        assert hello["type"] == "standings"
        self.ready.set()
        while not self.stop.is_set():
            if await comm.receive_nothing(timeout=0.2):  # (a receive that times out would stop the consumer)
                continue
            frame = await comm.receive_json_from(timeout=10)
            if frame.get("type") == "standings":
                self.arrivals.append((time.time(), float(frame.get("at", 0.0))))
                self.frames += 1
                self.last = frame
        await comm.disconnect()

    def wait_for(self, committed: float, timeout: float = 30.0) -> None:
        """Until a frame read after ``committed`` has arrived (or ``timeout``)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.arrivals and self.arrivals[-1][1] >= committed:
                return
            time.sleep(0.05)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)
