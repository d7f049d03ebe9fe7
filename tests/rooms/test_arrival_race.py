"""R-4 / issue 14: a version committed while a connection arrives reaches it.

A page that connects at the moment of a move (a deal at the start of a
match, another seat's card) reads the state while that move commits. The
connection listens to its groups before it reads, so the move's frame
reaches it; before, it joined them after the read, missed the broadcast,
and showed the older state until a heartbeat noticed (seen in the load
benchmark: 14 of 20 tables whose first deal came during their sockets'
arrival never moved).
"""

from __future__ import annotations

import threading

import pytest
from asgiref.sync import sync_to_async

from games import engine
from games import services as play_service
from games.models import Match
from rooms.consumers import TableConsumer

from .conftest import make_room, pump_all
from .test_table_guards import started_hokm4, to_act

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def _after_the_read(monkeypatch, work) -> None:
    """The first arriving connection's greeting reads the state, then ``work()``
    commits on another thread (its own connection), before the greeting is sent."""
    real = TableConsumer._hello
    done = []

    def hello_then_work(self, room_id=None, arriving=False):
        hello = real(self, room_id, arriving)
        if arriving and not done:
            done.append(True)
            thread = threading.Thread(target=work)
            thread.start()
            thread.join()
        return hello

    monkeypatch.setattr(TableConsumer, "_hello", hello_then_work)


async def test_a_move_committed_during_the_hello_reaches_the_arriving_page(
    connect, alice, bob, charlie, dave, monkeypatch
):
    room, conns = await started_hokm4(connect, alice, bob, charlie, dave)
    for _ in range(200):
        if conns[0].state["view"].get("to_act") and to_act(conns).state["view"]["legal"]:
            break
        await pump_all(conns, 0.05)
    mover = to_act(conns)
    seat = mover.state["view"]["viewer"]
    user = (alice, bob, charlie, dave)[seat - 1]
    watcher = next(u for u in (alice, bob, charlie, dave) if u != user)
    match = await sync_to_async(Match.objects.get)(room=room)
    version = match.version
    action = engine.get("hokm4").auto_action(match.state, seat)
    moved = []
    # another tab's move commits (and is broadcast) after this read, before the hello is sent
    _after_the_read(
        monkeypatch,
        lambda: moved.append(play_service.play(match.pk, action, user=user, version=version).version),
    )
    late = await connect(room, watcher, "second tab")
    assert moved == [version + 1]
    hello = next(f for f in late.frames if f["type"] == "state")
    assert hello["full"] and hello["v"] == version  # the hello was read before the move
    late.seen = 0
    frame = await late.wait_for(lambda f: f["type"] == "state" and f["v"] == version + 1, timeout=5)
    assert frame["match"] == match.pk and frame["prev"] == version


async def test_a_match_begun_while_the_greeting_was_read_is_read_again(
    connect, alice, bob, charlie, dave, monkeypatch
):
    """The greeting read the room before its match began; the start's room
    update came meanwhile: the connection reads again and shows the match."""
    from rooms import services as room_service
    from rooms.models import Room

    room = await sync_to_async(make_room)(alice, [bob, charlie, dave], rules={"middle_card": False})
    started = []
    _after_the_read(
        monkeypatch,
        lambda: started.append(
            room_service.start(Room.objects.select_related("creator").get(pk=room.pk), alice)
        ),
    )
    conn = await connect(room, bob, "bob")
    assert started
    state = await conn.wait_for(lambda f: f["type"] == "state", timeout=10)
    match = await sync_to_async(Match.objects.get)(room=room)
    assert state["match"] == match.pk


class _Socket(TableConsumer):
    """A consumer with no socket: what it would send is kept."""

    def __init__(self):
        self.sent: list = []
        self.uid, self.in_public = 7, False

    async def send(self, text_data=None, bytes_data=None, close=False):
        self.sent.append(text_data)

    async def send_json(self, content, close=False):
        self.sent.append(content)

    def _you(self):
        return {}


def _frame(match: int, v: int) -> dict:
    return {"type": "table.frame", "match": match, "v": v, "players": [7], "text": f"{match}:{v}"}


async def test_a_version_older_than_one_sent_is_not_sent_after_it():
    """A resync (or a greeting) read after a version was published sends the
    newer state first; the queued older frames then would step the page back
    (it drops them, docs/protocol.md; the load client did not, and acted on
    nothing): the connection does not send them."""
    sock = _Socket()
    await sock._send_hello({"room": {}, "state": {"type": "state", "match": 3, "v": 5}})
    await sock.table_frame(_frame(3, 4))
    await sock.table_frame(_frame(3, 5))  # an equal version goes out (a full resend after a seat change)
    await sock.table_frame(_frame(3, 6))
    await sock.table_frame(_frame(4, 0))  # a new match starts from its own versions
    assert [s for s in sock.sent if isinstance(s, str)] == ["3:5", "3:6", "4:0"]
    assert sock.last_v == 0 and sock.match_id == 4


async def test_a_greeting_read_before_a_frame_already_sent_is_not_sent():
    sock = _Socket()
    await sock.table_frame(_frame(3, 2))
    await sock._send_hello({"room": {}, "state": {"type": "state", "match": 3, "v": 0}})
    assert [s for s in sock.sent if isinstance(s, dict) and s.get("type") == "state"] == []
    assert sock.last_v == 2
    await sock._send_hello({"room": {}, "state": {"type": "state", "match": 3, "v": 2, "full": True}})
    assert sock.sent[-1] == {"type": "state", "match": 3, "v": 2, "full": True}
