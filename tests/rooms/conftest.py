"""Fixtures for the table: rooms, sessions and socket connections."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore

from config.asgi import application
from games import clock
from infra import presence
from rooms import services as room_service

CARD = re.compile(r'"((?:[AKQJT98765432][SHDC])|RJ|BJ)"')


@pytest.fixture(autouse=True)
def fast_table(settings):
    settings.TABLE = {**settings.TABLE, "BOT_DELAY": 0.01, "ROUND_PAUSE": 0.05, "HEARTBEAT_SECONDS": 10}
    settings.DEADLINES = "inprocess"
    # No browser here sends fair deal values unless a test does: substitute at once (F-4).
    settings.FAIR_WAIT_SECONDS = 0
    presence.reset_store()
    yield
    clock.settle()
    presence.reset_store()


def session_key_for(user=None) -> str:
    store = SessionStore()
    if user is not None:
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]  # what signing in writes
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    else:
        store["visitor"] = True
    store.save()
    return store.session_key


class Conn:
    """One browser tab at the table."""

    def __init__(self, communicator, name):
        self.comm = communicator
        self.name = name
        self.frames: list[dict] = []
        self.seen = 0  # frames handed to callers so far
        self.state: dict | None = None
        self.room: dict | None = None

    async def send(self, frame):
        await self.comm.send_to(text_data=json.dumps(frame))

    async def send_raw(self, text):
        await self.comm.send_to(text_data=text)

    async def pump(self, timeout=0.05) -> int:
        """Receive whatever is waiting; returns how many frames came."""
        count = 0
        while True:
            # receive_nothing never cancels the application (receive_from's timeout would).
            if await self.comm.receive_nothing(timeout=timeout, interval=0.005):
                return count
            text = await self.comm.receive_from(timeout=5)
            frame = json.loads(text)
            self.frames.append(frame)
            if frame["type"] == "state" and (
                self.state is None or frame["match"] != self.state["match"] or frame["v"] >= self.state["v"]
            ):
                self.state = frame
            elif frame["type"] == "room":
                self.room = frame
            count += 1
            timeout = 0.01

    async def wait_for(self, predicate, timeout=10.0) -> dict:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            for i in range(self.seen, len(self.frames)):
                if predicate(self.frames[i]):
                    self.seen = i + 1
                    return self.frames[i]
            self.seen = len(self.frames)
            if loop.time() > end:
                raise AssertionError(f"{self.name}: no matching frame; last: {self.frames[-3:]}")
            await self.pump(timeout=0.1)

    async def close(self):
        await self.comm.disconnect()


@pytest.fixture
async def connect():
    opened: list[Conn] = []

    async def open_(room, user=None, name=None, session_key=None):
        key = session_key or await sync_to_async(session_key_for)(user)
        comm = WebsocketCommunicator(
            application,
            f"/ws/table/{room.code}/",
            headers=[(b"origin", b"http://testserver"), (b"cookie", f"sessionid={key}".encode())],
        )
        connected, _ = await comm.connect(timeout=5)
        assert connected
        conn = Conn(comm, name or (user.username if user else "visitor"))
        conn.session_key = key
        opened.append(conn)
        # The server greets with the room, then the state when a match exists.
        first = await conn.wait_for(lambda f: f["type"] == "room")
        if first["room"]["match"] is not None:
            await conn.wait_for(lambda f: f["type"] == "state")
        conn.seen = 0
        return conn

    yield open_
    for conn in opened:
        try:
            await conn.close()
        except Exception:  # noqa: BLE001 - already closed by the test
            pass


def make_room(creator, guests, game="hokm4", rules=None, ready=True, bots=()):
    room = room_service.create_room(creator, game, rules or {})
    for number, guest in enumerate(guests, start=2):
        room_service.sit(room, guest, number, move=True)  # from any earlier test table
        if ready:
            room_service.set_ready(room, guest, True)
    for number in bots:
        room_service.set_bot(room, creator, number)
    room.refresh_from_db()
    return room


def cards_in(frame) -> set[str]:
    return set(CARD.findall(json.dumps(frame)))


ROUND_END = {"round_won", "round_scored", "deal_scored"}


def seat_of(conn) -> int | None:
    return conn.state["view"].get("viewer") if conn.state else None


async def pump_all(conns, timeout=0.02):
    """Receive what waits at every connection, all at once: the quiet wait is
    ``timeout`` for the whole table, not once per connection."""
    await asyncio.gather(*(conn.pump(timeout) for conn in conns))


async def play_until(conns, done, max_steps=1500, choose=None):
    """Every player acts from his own view until ``done()``; returns the number of actions sent."""
    sent_at: dict[str, tuple] = {}
    actions = 0
    for _ in range(max_steps):
        await pump_all(conns)
        if done():
            return actions
        for conn in conns:
            st = conn.state
            if not st or st["status"] != "active":
                continue
            view = st["view"]
            if not view.get("legal") or view.get("viewer") not in view.get("to_act", []):
                continue
            key = (st["match"], st["v"])
            if sent_at.get(conn.name) == key:
                continue
            action = (choose or (lambda v: v["legal"][0]))(view)
            if action["type"] == "discard" and "cards" not in action:
                # the legal list holds the count (SH-4); the cards are the bidder's to name
                # (sent as the count alone, the frame is refused and the turn clock discards)
                action = {"type": "discard", "cards": list(view["hand"])[: action["count"]]}
            await conn.send({"type": "act", "action": action, "v": st["v"]})
            sent_at[conn.name] = key
            actions += 1
    states = [
        (c.name, c.state and {k: c.state["view"].get(k) for k in ("phase", "to_act", "legal", "viewer")})
        for c in conns
    ]
    raise AssertionError(f"the game did not reach the expected point: {states}")


def events_of(conn, kinds) -> list[dict]:
    return [e for f in conn.frames if f["type"] == "state" for e in f["events"] if e["type"] in kinds]
