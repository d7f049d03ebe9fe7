"""The fault tests' players (issue 39): WebSocket clients that behave as the page does, tables of four of them,
and the check that no acknowledged move was lost or applied twice."""

from __future__ import annotations

import asyncio
import json
import random
import time

from asgiref.sync import sync_to_async
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from games.models import Match, Move
from tests.security.policy import choose

PAGE_BACKOFF = (0.4, 1.0, 2.0, 4.0, 8.0, 12.0)
"""The table page's waits before its next attempt (static/js/table/socket.js's
BACKOFF_MS), each stretched by up to 30% at random, from the first again
once a socket was open."""


class Client:
    """A browser tab that reconnects whenever its socket drops: at once
    (``backoff`` None), or after the page's waits (``PAGE_BACKOFF``). Like a
    browser it waits long for a handshake (60 s) rather than giving up and
    adding another one to the server's queue."""

    backoff: tuple[float, ...] | None = None

    def __init__(self, name: str, key: str, user_id: int | None, url: str, origin: str):
        self.name, self.key, self.user_id = name, key, user_id
        self.url, self.origin = url, origin
        self.state: dict | None = None
        self.connects = 0
        self.acting = False
        self.stopped = False
        self.ws = None
        self.sent: dict[str, tuple[int, dict]] = {}  # ref -> (version seen, action)
        self.acks: dict[str, int] = {}  # ref -> version acknowledged
        self.errors: list[dict] = []
        self.acted: set[int] = set()

    @property
    def v(self) -> int | None:
        return self.state["v"] if self.state else None

    async def run(self):
        attempt = 0
        while not self.stopped:
            try:
                async with connect(
                    self.url,
                    origin=self.origin,
                    additional_headers={"Cookie": f"sessionid={self.key}"},
                    open_timeout=60,
                    max_size=2**22,
                ) as ws:
                    self.ws = ws
                    self.connects += 1
                    attempt = 0
                    async for text in ws:
                        await self.handle(json.loads(text))
            except (OSError, ConnectionClosed, InvalidHandshake, InvalidStatus, TimeoutError):
                pass
            self.ws = None
            if self.stopped:
                break
            if self.backoff is None:
                await asyncio.sleep(0.05)
            else:
                base = self.backoff[min(attempt, len(self.backoff) - 1)]
                attempt += 1
                await asyncio.sleep(base * (1 + random.random() * 0.3))

    async def handle(self, frame: dict):
        kind = frame.get("type")
        if kind == "state":
            if self.state is None or frame["match"] != self.state["match"] or frame["v"] >= self.state["v"]:
                self.state = frame
            await self.maybe_act()
        elif kind == "ack":
            self.acks[str(frame["ref"])] = frame["v"]
        elif kind == "error":
            self.errors.append(frame)

    async def maybe_act(self):
        st, ws = self.state, self.ws
        if not self.acting or ws is None or st["status"] != "active":
            return
        view = st["view"]
        if view.get("viewer") not in view.get("to_act", []) or st["v"] in self.acted:
            return
        action = choose(view)
        if action is None:
            return
        self.acted.add(st["v"])
        ref = f"{self.name}-{len(self.sent) + 1}"
        self.sent[ref] = (st["v"], action)
        try:
            await ws.send(json.dumps({"type": "act", "action": action, "v": st["v"], "ref": ref}))
        except ConnectionClosed:
            pass  # sent into a dying socket: neither acknowledged nor, perhaps, applied

    async def sync(self):
        """Ask for the whole table again (what a page does when it knows it is behind)."""
        if self.ws is not None:
            try:
                await self.ws.send(json.dumps({"type": "sync"}))
            except ConnectionClosed:
                pass

    async def nudge(self):
        """Act again from the state in hand (after play resumes)."""
        if self.state is not None:
            await self.maybe_act()


class Player(Client):
    """A page that plays: acts on its turn, and acts again from the state in
    hand when an action got no answer (an error, a dropped socket) after a
    while, as a person would click again; the server's version check makes
    a second click at the same version a refusal, never a second move."""

    retry_after = 1.5

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.acted_at: dict[int, float] = {}
        self.acting = True
        self.resyncs = 0

    async def maybe_act(self):
        st = self.state
        if (
            st is not None
            and st["v"] in self.acted
            and time.monotonic() - self.acted_at.get(st["v"], 0) > self.retry_after
        ):
            self.acted.discard(st["v"])
        before = len(self.sent)
        await super().maybe_act()
        if len(self.sent) > before:
            self.acted_at[st["v"]] = time.monotonic()

    async def handle(self, frame: dict):
        await super().handle(frame)
        kind = frame.get("type")
        if kind == "error" and frame.get("code") == "stale_version":
            await self.sync()
        elif kind == "pong" and frame.get("v") is not None and self.v is not None and frame["v"] > self.v:
            self.resyncs += 1  # the page's heartbeat found it behind (a frame lost): it asks again
            await self.sync()

    async def ping(self):
        if self.ws is not None:
            try:
                await self.ws.send('{"type": "ping"}')
            except Exception:  # noqa: BLE001 - a dying socket: the next one pings
                pass


RULES = {"target": 7, "middle_card": False, "turn_seconds": 60}


async def open_tables(make_user, count: int, tag: str) -> list[tuple]:
    """``count`` hokm4 rooms of four signed-in players each, every seat ready,
    with their session keys, made in bulk (a few statements for any count;
    250 tables through the room services one seat at a time took a minute)."""

    def setup():
        from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
        from django.contrib.auth.hashers import make_password
        from django.contrib.sessions.backends.db import SessionStore
        from django.contrib.sessions.models import Session
        from django.utils import timezone
        from django.utils.crypto import get_random_string

        from accounts.models import Profile
        from accounts.validators import username_key
        from rooms.models import Room, Seat

        User = get_user_model()
        password = make_password("correct-horse-battery")
        users = User.objects.bulk_create(
            [
                User(username=f"{tag}{t}p{i}", username_key=username_key(f"{tag}{t}p{i}"), password=password)
                for t in range(count)
                for i in range(1, 5)
            ]
        )
        Profile.objects.bulk_create([Profile(user=u) for u in users], ignore_conflicts=True)
        store = SessionStore()
        expire = timezone.now() + timezone.timedelta(days=1)
        keys = []
        rows = []
        for user in users:
            key = get_random_string(32)
            data = {
                SESSION_KEY: str(user.pk),
                BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                HASH_SESSION_KEY: user.get_session_auth_hash(),
            }
            rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=expire))
            keys.append(key)
        Session.objects.bulk_create(rows)
        rooms = Room.objects.bulk_create(
            [
                Room(game="hokm4", rules=dict(RULES), creator=users[4 * t], is_private=True)
                for t in range(count)
            ]
        )
        Seat.objects.bulk_create(
            [
                Seat(room=room, number=n, user=users[4 * t + n - 1], ready=True)
                for t, room in enumerate(rooms)
                for n in range(1, 5)
            ]
        )
        return [
            (
                room,
                users[4 * t : 4 * t + 4],
                [(u.username, keys[4 * t + i], u.pk) for i, u in enumerate(users[4 * t : 4 * t + 4])],
            )
            for t, room in enumerate(rooms)
        ]

    return await sync_to_async(setup)()


def versions(match_ids: list[int]) -> dict[int, tuple[int, str]]:
    return {
        pk: (v, s)
        for pk, v, s in Match.objects.filter(pk__in=match_ids).values_list("pk", "version", "status")
    }


async def until(predicate, timeout: float, every: float = 0.05) -> float | None:
    began = time.monotonic()
    while time.monotonic() - began < timeout:
        if await predicate():
            return time.monotonic() - began
        await asyncio.sleep(every)
    return None


async def shut_down(clients: list[Client], tasks: list, server=None, worker=None) -> None:
    """A fault test's end: every page stops and closes its socket, their tasks
    end, then the site's Daphne and worker are stopped (when given)."""
    for c in clients:
        c.stopped = True
        c.acting = False
        if c.ws is not None:
            await c.ws.close()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if server is not None:
        await sync_to_async(server.stop)()
    if worker is not None:
        await sync_to_async(worker.stop)()


async def keep_nudging(clients: list[Player], stop: asyncio.Event, heartbeat: float = 2.0):
    """Each page looks at its state twice a second (its own timer) and beats
    every ``heartbeat`` seconds (the site's pages: 10 s; shorter here so that
    a test need not wait for it)."""
    beat = time.monotonic()
    while not stop.is_set():
        for c in clients:
            await c.nudge()
        if time.monotonic() - beat > heartbeat:
            beat = time.monotonic()
            for c in clients:
                await c.ping()
        try:
            await asyncio.wait_for(stop.wait(), 0.5)
        except TimeoutError:
            pass


def check_log(match_id: int, seats: list[Player]) -> dict:
    """Every acknowledged move is in the log once, at its version, as sent;
    every player's move in the log is one sent, once; one chain of versions."""
    moves = list(Move.objects.filter(match_id=match_id).order_by("seq"))
    final = Match.objects.get(pk=match_id).version
    assert [m.seq for m in moves] == list(range(1, final + 1)), f"match {match_id}: a gap or a double"
    by_seq = {m.seq: m for m in moves}
    acked = 0
    for c in seats:
        for ref, v in c.acks.items():
            move = by_seq.get(v)
            assert move is not None, f"acknowledged move {ref} (v{v}) is not in the log"
            assert move.user_id == c.user_id and move.action == c.sent[ref][1], (ref, move.action)
            acked += 1
    sent = {ref: (c, v, action) for c in seats for ref, (v, action) in c.sent.items()}
    claimed: set[str] = set()
    for move in moves:
        if move.actor != Move.Actor.PLAYER:
            continue
        refs = [
            r
            for r, (c, v, a) in sent.items()
            if c.user_id == move.user_id and v == move.seq - 1 and a == move.action
        ]
        assert refs, (match_id, move.seq, move.action)
        fresh = [r for r in refs if r not in claimed]
        assert fresh, (match_id, move.seq, "applied twice")
        claimed.add(fresh[0])
    return {
        "acked": acked,
        "moves": final,
        "unacked": sum(1 for c in seats for r in c.sent if r not in c.acks),
    }
