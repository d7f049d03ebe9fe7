"""L-7 at the table's sockets: the stand-in in the state frames, and his return.

A player whose last two moves were made by the clock while he was
disconnected has a stand-in; his tablemates' state frames say so
(``stand_in``). The moment his socket connects (the table's greeting), the
stand-in stops: a version of its own, his full clock, the badge off in
every tablemate's frame.
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from games import clock, standin
from tests.games.test_standin import TURN, Table, _start

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def driven(settings):
    settings.TABLE = {**settings.TABLE, "TURN_SCALE": 1, "ROUND_PAUSE": 0.0}
    now = [clock.now()]
    clock.set_now(lambda: now[0])
    yield now
    clock.set_now(None)


async def test_l_7_tablemates_see_the_stand_in_and_it_stops_when_he_connects(connect, make_user, driven):
    users = [await sync_to_async(make_user)(n) for n in ("gone", "bob", "carl", "dina")]

    def prepare():
        match = _start(*users)
        table = Table(match, users, driven)
        for _ in range(3):  # two clock moves, then one of the stand-in's
            table.clock_turn()
        assert table.log[-1]["stand_in"]
        table.to_seat_one()  # his turn again: the stand-in's 5 s clock runs
        return table

    table = await sync_to_async(prepare)()
    room = await sync_to_async(lambda: table.match.room)()
    bob = await connect(room, users[1])
    assert bob.state["stand_in"] == [1]
    deadline = bob.state["deadlines"]["1"] / 1000
    assert deadline - driven[0] == pytest.approx(standin.DEFAULT_SECONDS, abs=0.01)
    version = bob.state["v"]

    gone = await connect(room, users[0])  # he is back
    assert gone.state["stand_in"] == [] and gone.state["v"] == version + 1
    assert gone.state["deadlines"]["1"] / 1000 - driven[0] == pytest.approx(TURN, abs=0.01)  # his full clock
    frame = await bob.wait_for(lambda f: f["type"] == "state" and f["v"] == version + 1)
    assert frame["stand_in"] == [] and {"type": "back", "seat": 1} in frame["events"]

    # A second tab of his changes nothing (idempotent).
    await connect(room, users[0], name="second tab")
    await bob.pump(0.2)
    assert bob.state["v"] == version + 1
