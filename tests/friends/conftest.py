"""Fixtures for friends (R-9): a settable clock, friendships, rooms and sockets."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from config.asgi import application
from friends import clock
from friends import services as friends
from games import clock as game_clock
from infra import presence
from tests.rooms.conftest import Conn, make_room, session_key_for

__all__ = ["make_room", "befriend", "open_me", "T0"]

T0 = dt.datetime(2026, 3, 21, 12, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def reset_clock_and_presence(settings):
    settings.DEADLINES = "inprocess"
    settings.TABLE = {**settings.TABLE, "BOT_DELAY": 0.01, "ROUND_PAUSE": 0.05}
    clock.set_now(None)
    presence.reset_store()
    yield
    clock.set_now(None)
    game_clock.settle()
    presence.reset_store()


@pytest.fixture
def at():
    """at(minutes=9, seconds=0): fix the friends clock that long after T0."""

    def set_(minutes=0, seconds=0):
        clock.set_now(T0 + dt.timedelta(minutes=minutes, seconds=seconds))
        return clock.now()

    return set_


def befriend(a, b):
    friends.send_request(a, b.username)
    friends.accept_request(b, a.username)


async def open_me(user):
    """The per-user socket (ws/me/) of ``user`` with his session cookie; returns (communicator, hello)."""
    key = await sync_to_async(session_key_for)(user)
    comm = WebsocketCommunicator(
        application,
        "/ws/me/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", f"sessionid={key}".encode())],
    )
    connected, _ = await comm.connect(timeout=5)
    assert connected
    hello = json.loads(await comm.receive_from(timeout=5))
    assert hello["type"] == "hello"
    return comm, hello


async def next_frame(comm, kind, timeout=5.0) -> dict:
    loop_end = timezone.now() + dt.timedelta(seconds=timeout)
    while timezone.now() < loop_end:
        frame = json.loads(await comm.receive_from(timeout=timeout))
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


__all__ += ["Conn", "next_frame"]


from tests.rooms.conftest import connect  # noqa: E402,F401 - the table's socket fixture
