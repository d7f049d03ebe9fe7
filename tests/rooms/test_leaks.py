"""Issue 14 (1, 5, 10): nothing leaks after a leave; hostile frames change nothing.

After a confirmed leave ends a match as abandoned (L-3), whoever then takes
a seat (a spectator who sits, the players who stay) sees that match only as
the public saw it, unless he held that seat in that match (R-6).
"""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async

from games.models import Match
from tests.rooms.conftest import cards_in

from .test_table_guards import reach_play, snapshot, started_hokm4

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


async def test_l_3_a_later_sitter_never_sees_the_abandoned_matchs_hand(
    connect, alice, bob, charlie, dave, make_user
):
    room, conns = await started_hokm4(connect, alice, bob, charlie, dave)
    await reach_play(conns)
    erin = await sync_to_async(make_user)("erin")
    watcher = await connect(room, erin, "erin")
    assert watcher.state["view"]["hand"] is None
    bob_conn = conns[1]
    hidden = set(bob_conn.state["view"]["hand"])
    assert len(hidden) == 13
    # bob leaves: the match ends as abandoned, the room waits again
    await bob_conn.send({"type": "leave", "confirm": True})
    await bob_conn.wait_for(lambda f: f["type"] == "left")
    match = await sync_to_async(Match.objects.get)(room=room)
    assert match.status == Match.Status.ABANDONED
    await watcher.wait_for(lambda f: f["type"] == "room" and f["room"]["status"] == "waiting")
    # erin takes bob's seat (2), then asks for the table again
    await watcher.send({"type": "sit", "seat": 2})
    await watcher.wait_for(lambda f: f["type"] == "room" and f["you"]["seat"] == 2)
    await watcher.send({"type": "sync"})
    state = await watcher.wait_for(lambda f: f["type"] == "state" and f["full"])
    assert state["view"]["viewer"] is None and state["view"]["hand"] is None
    for frame in watcher.frames:
        assert not (cards_in(frame) & hidden - played_cards(frame)), frame["type"]
    # a player who stays sees his own seat of that match, never another's
    charlie_conn = conns[2]
    await charlie_conn.send({"type": "sync"})
    mine = await charlie_conn.wait_for(lambda f: f["type"] == "state" and f["full"])
    assert mine["view"]["viewer"] == 3
    assert not set(mine["view"]["hand"]) & hidden


def played_cards(frame) -> set[str]:
    """Cards shown face up in a frame on purpose (tricks, the last trick)."""
    view = frame.get("view") or {}
    out = {c["card"] for c in view.get("trick") or []}
    last = view.get("last_trick") or {}
    out |= {c["card"] for c in last.get("cards") or []}
    for event in frame.get("events") or []:
        if event.get("type") == "card_played":
            out.add(event["card"])
    return out


async def test_hostile_frames_get_bad_frame_and_change_nothing(connect, alice, bob, charlie, dave):
    """Issue 14 (5): deep JSON and put-asides of lists or nulls are refused cleanly."""
    room, conns = await started_hokm4(connect, alice, bob, charlie, dave)
    await reach_play(conns)
    before = await snapshot(room)
    player = conns[0]
    for raw in [
        "[" * 2000 + "]" * 2000,
        '{"type": "act", "v": 1, "action": {"type": "discard", "cards": [[1], [2], [3], [4]]}}',
        '{"type": "act", "v": 1, "action": {"type": "discard", "cards": ["KS", "QS", "9S", null]}}',
        '{"type": "ready", "ready": "false"}',
        '{"type": "sit", "seat": true}',
        json.dumps({"type": "act", "v": 1, "action": {"type": "play", "card": {"$gt": ""}}}),
    ]:
        await player.send_raw(raw)
        got = await player.wait_for(lambda f: f["type"] == "error")
        assert got["code"] == "bad_frame", (raw[:50], got)
    # the socket is still open and answers
    await player.send({"type": "ping"})
    pong = await player.wait_for(lambda f: f["type"] == "pong")
    assert pong["v"] == before[0] and pong["match"] == player.state["match"]
    assert await snapshot(room) == before


async def test_confirm_leave_names_positive_points_and_echoes_the_ref(connect, alice, bob, charlie, dave):
    """Issue 14 (10): ``points`` is what the leaver loses, 2 in Hokm (L-3), as docs/protocol.md says."""
    room, conns = await started_hokm4(connect, alice, bob, charlie, dave)
    await conns[1].send({"type": "leave", "ref": "leave-1"})
    frame = await conns[1].wait_for(lambda f: f["type"] == "confirm_leave")
    assert frame == {"type": "confirm_leave", "cost": "hokm", "points": 2, "ref": "leave-1"}
