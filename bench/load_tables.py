"""bench/load.py's client: one table's four sockets (the site's, a bot table's, the floor's) and the moves they time."""

from __future__ import annotations

import asyncio
import hashlib
import random
import secrets
import time

import orjson  # the client's JSON, the same for the site and the floor (the client shares their machine)

# --- the client --------------------------------------------------------------------------------


class Stats:
    def __init__(self):
        self.latencies: list[float] = []
        self.sent_at: list[float] = []  # perf_counter when each measured action was sent
        self.moves = 0
        self.errors: dict[str, int] = {}
        self.stalled: set[int] = set()
        self.error_at: list[float] = []  # perf_counter of each error
        # With ``--dump PATH``: every measured move as [sent (epoch s), latency (s), table,
        # version, the event types of the frame that completed it] (when and where slow moves happen).
        self.log: list | None = None

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1
        self.error_at.append(time.perf_counter())


class Table:
    connect_seats = (0, 1, 2, 3)
    fresh: set | None = None  # the seats that had a state frame since Site.reconnect began

    def __init__(self, index: int, stats: Stats, think: tuple[float, float], rng: random.Random):
        self.index = index
        self.stats = stats
        self.think = think
        self.rng = rng
        self.sockets: list = [None] * 4
        self.seen = [-1] * 4
        self.match = None
        self.pending: dict[int, float] = {}  # version an action was sent at -> when
        self.acting_for: tuple | None = None
        self.rematched: set = set()
        self.progress = time.monotonic()
        self.started_at: float | None = None  # when every connected seat first had the table
        self.running = False  # driven in segments (Side.drive): paused between them
        self.paused_at: float | None = None
        self.driven = False
        self.fair_values: dict = {}  # ((match, round), seat index) -> the value committed to
        self.fair_revealed: set = set()  # ((match, round), seat index) whose value was sent
        self.latest: list = [None] * 4  # per seat: the last state frame
        self.greeted: set = set()  # seats that have had their greeting (the room frame)
        self.all_greeted: asyncio.Event | None = None  # set once every seat has had it

    def greeted_event(self) -> asyncio.Event:
        if self.all_greeted is None:
            self.all_greeted = asyncio.Event()
        return self.all_greeted

    async def think_then(self, coro_fn):
        low, high = self.think
        if high > 0:
            await asyncio.sleep(self.rng.uniform(low, high))
        await coro_fn()

    def state_of(self, text: str, seat: int | None = None) -> dict | None:
        """The state frame in ``text``, or None (an error frame is counted)."""
        frame = orjson.loads(text)
        kind = frame.get("type")
        if kind == "state" and self.fresh is not None and seat is not None:
            self.fresh.add(seat)  # reconnected and resynced (Site.reconnect)
        if kind == "room" and seat is not None:
            self.greeted.add(seat)
            if len(self.greeted) == len(self.connect_seats):
                self.greeted_event().set()
        elif kind == "error":
            self.stats.error(frame.get("code", "?"))
        elif kind == "fair_state":
            self.fair(frame)
        return frame if kind == "state" else None

    def fair(self, frame: dict) -> None:
        """F-1/F-2, as a browser does: each seat of this table sends its
        fingerprint, then its value, once each per round (so a deal waits for
        the last value, not for the substitutes' deadline). The table's
        ``fair_state`` frames may arrive out of order; a seat's value, once
        made, is kept for the round, as the page keeps it (static/js/table/fair.js)."""
        key = (frame.get("match"), frame.get("round"))
        for i in self.connect_seats:
            if self.sockets[i] is None:
                continue
            value = self.fair_values.get((key, i))
            if frame.get("phase") == "commit" and frame["commitments"][i] is None and value is None:
                value = self.fair_values[(key, i)] = secrets.token_hex(32)
                commitment = hashlib.sha256(bytes.fromhex(value)).hexdigest()
                asyncio.ensure_future(
                    self.send(i, {"type": "fair_commit", "round": key[1], "commitment": commitment})
                )
            elif frame.get("phase") == "reveal" and value is not None and (key, i) not in self.fair_revealed:
                self.fair_revealed.add((key, i))
                asyncio.ensure_future(self.send(i, {"type": "fair_reveal", "round": key[1], "value": value}))

    def rematch_if_finished(self, seat: int, frame: dict) -> bool:
        """A finished match: this seat agrees to play again (once)."""
        if frame["status"] != "finished" or (self.match, seat) in self.rematched:
            return False
        self.rematched.add((self.match, seat))
        asyncio.ensure_future(self.send(seat, {"type": "rematch", "agree": True}))
        return True

    def frame(self, seat: int, text: str) -> None:
        frame = self.state_of(text, seat)
        if frame is None:
            return
        if frame["match"] != self.match:
            self.match, self.seen, self.pending, self.acting_for = frame["match"], [-1] * 4, {}, None
        if frame["v"] < self.seen[seat]:
            return  # older than what this seat has (a page ignores it too)
        self.seen[seat] = frame["v"]
        self.latest[seat] = frame
        begins = self.started_at is None and min(self.seen) >= 0
        if begins:
            self.started_at = self.progress = time.monotonic()
        everyone = min(self.seen)
        for v in [v for v in self.pending if v < everyone]:
            # every seat of the table has a version after the one the action was sent at
            sent = self.pending.pop(v)
            self.stats.latencies.append(time.perf_counter() - sent)
            self.stats.sent_at.append(sent)
            self.stats.moves += 1
            self.progress = time.monotonic()
            if self.stats.log is not None:
                late = self.stats.latencies[-1]
                self.stats.log.append(
                    [
                        time.time() - late,
                        late,
                        self.index,
                        v,
                        [e.get("type") for e in frame.get("events") or []],
                    ]
                )
        if not self.running:
            return
        if self.rematch_if_finished(seat, frame):
            return
        if self.started_at is None:
            return  # a table plays once its four seats are there (a seat not yet connected sees no move)
        if begins:  # the last seat arrived: whoever was already to act acts now
            for other in range(4):
                if other != seat and self.latest[other] is not None:
                    self.act_on(other, self.latest[other])
        self.act_on(seat, frame)

    def last_seen(self) -> list:
        """Per seat: its last state frame's (v, status, legal actions, deadlines), for a stall's report."""
        return [
            (f["v"], f["status"], len(f["view"].get("legal") or []), f["deadlines"]) if f else None
            for f in self.latest
        ]

    def act_on(self, seat: int, frame: dict) -> None:
        """``seat`` plays a random legal action of ``frame`` after the think time,
        if it is this seat's newest frame and nobody acted on this version yet."""
        legal = frame["view"].get("legal") or []
        key = (frame["match"], frame["v"])
        if frame["status"] == "active" and legal and frame["v"] == self.seen[seat] and self.acting_for != key:
            self.acting_for = key
            action = self.rng.choice(legal)

            async def act(v=frame["v"]):
                if not self.running:
                    if self.acting_for == key:
                        self.acting_for = None  # acted on when the table is driven again (kick)
                    return
                if self.seen[seat] != v:
                    return  # the table moved on meanwhile (a clock's move)
                self.pending[v] = time.perf_counter()
                await self.send(seat, {"type": "act", "action": action, "v": v})

            asyncio.ensure_future(self.think_then(act))

    def pause(self, now: float) -> None:
        self.running = False
        self.paused_at = now

    def resume(self, now: float) -> None:
        """Driven again: the time paused is no stall, and whoever is to act acts."""
        if self.paused_at is not None:
            self.progress += now - self.paused_at
            self.paused_at = None
        elif not self.driven:
            self.progress = now  # its first turn: the stall clock starts now
        self.driven = True
        self.running = True
        self.kick()

    def kick(self) -> None:
        if self.started_at is None:
            return
        for seat, frame in enumerate(self.latest):
            if frame is not None and not self.rematch_if_finished(seat, frame):
                self.act_on(seat, frame)

    async def send(self, seat: int, frame: dict) -> None:
        ws = self.sockets[seat]
        if ws is not None:
            try:
                await ws.send(orjson.dumps(frame).decode())
            except Exception:  # noqa: BLE001 - counted as an error of the table
                self.stats.error("send_failed")


class BotTable(Table):
    """A table of one account and three bots (bench/bot_lag.py): only seat 1
    connects; it plays at once and counts every version the table makes."""

    connect_seats = (0,)

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.versions = 0
        self.last_v = None

    def frame(self, seat: int, text: str) -> None:
        frame = self.state_of(text, seat)
        if frame is None:
            return
        if frame["match"] != self.match:
            self.match, self.last_v, self.acting_for = frame["match"], None, None
        self.latest[seat] = frame
        if self.last_v is not None and frame["v"] > self.last_v:
            self.versions += frame["v"] - self.last_v
            self.progress = time.monotonic()
        self.last_v = max(self.last_v or 0, frame["v"])
        if self.started_at is None:
            self.started_at = self.progress = time.monotonic()
        if not self.running:
            return
        if self.rematch_if_finished(seat, frame):
            return
        self.act_on(seat, frame)

    def act_on(self, seat: int, frame: dict) -> None:
        legal = frame["view"].get("legal") or []
        key = (frame["match"], frame["v"])
        if frame["status"] == "active" and legal and self.acting_for != key:
            self.acting_for = key
            asyncio.ensure_future(
                self.send(seat, {"type": "act", "action": self.rng.choice(legal), "v": frame["v"]})
            )


class FloorTable(Table):
    """The same client against the floor: one message per move, rotating among the seats."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.seq = 0
        self.turn = 0
        self.started_at = time.monotonic()  # no greeting: it starts with its first message

    def frame(self, seat: int, text: str) -> None:
        frame = orjson.loads(text)
        self.seen[seat] = max(self.seen[seat], frame["seq"])
        if self.seq in self.pending and min(self.seen) >= self.seq:
            sent = self.pending.pop(self.seq)
            self.stats.latencies.append(time.perf_counter() - sent)
            self.stats.sent_at.append(sent)
            self.stats.moves += 1
            self.progress = time.monotonic()
            self.start_next()

    def kick(self) -> None:
        if not self.pending:  # no move of this table in flight
            self.start_next()

    def start_next(self) -> None:
        if not self.running:
            return
        self.seq += 1
        self.turn = (self.turn + 1) % 4
        seq, turn = self.seq, self.turn

        async def act():
            if not self.running:
                return  # paused during the think time: kicked again with the next segment
            self.pending[seq] = time.perf_counter()
            await self.send(turn, {"seq": seq, "from": turn, "pad": "x" * 64})

        asyncio.ensure_future(self.think_then(act))


async def connect_all(tables, urls_for, headers_for, stats, concurrency=64, on_table=None) -> float:
    """Every seat's socket, ``concurrency`` handshakes at a time; ``on_table(table)``
    once each table's seats are all connected."""
    import websockets

    gate = asyncio.Semaphore(concurrency)
    started = time.perf_counter()
    ready = []
    waiting = {id(t): len(t.connect_seats) for t in tables}

    async def one(table, seat):
        async with gate:
            try:
                ws = await websockets.connect(
                    urls_for(table, seat),
                    additional_headers=headers_for(table, seat),
                    max_size=2**22,
                    open_timeout=120,
                    ping_interval=None,
                    close_timeout=1,
                )
            except Exception as exc:  # noqa: BLE001
                stats.error(f"connect:{type(exc).__name__}")
                return
        table.sockets[seat] = ws
        ready.append(asyncio.ensure_future(reader(table, seat, ws, stats)))
        waiting[id(table)] -= 1
        if waiting[id(table)] == 0 and on_table is not None:
            on_table(table)

    await asyncio.gather(*(one(t, s) for t in tables for s in t.connect_seats))
    return time.perf_counter() - started


async def reader(table, seat, ws, stats):
    try:
        async for text in ws:
            table.frame(seat, text)
    except Exception:  # noqa: BLE001
        if table.running:
            stats.error("socket_dropped")
