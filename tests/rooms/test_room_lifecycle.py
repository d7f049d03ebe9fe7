"""Seats, ready, start, spectators, rematch, leaving and bots (R-1, R-3, R-7, L-2, L-3, L-4, C-7)."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async

from games.errors import PlayError
from games.models import Match
from infra import presence
from rooms import services as room_service
from rooms.models import Room, Seat

from .conftest import ROUND_END, events_of, make_room, play_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]


def spectators(conn) -> int:
    return conn.room["room"]["spectators"]


async def test_r_7_the_spectator_count_ignores_players_and_duplicate_tabs(
    connect, alice, bob, charlie, dave, make_user
):
    room = await sync_to_async(make_room)(alice, [bob, charlie, dave])
    players = [await connect(room, u) for u in (alice, bob, charlie, dave)]
    await players[0].pump(0.2)
    assert spectators(players[0]) == 0
    eve = await sync_to_async(make_user)("eve")
    await connect(room, eve, "eve-tab-1")
    await connect(room, eve, "eve-tab-2")  # the same browser/user twice
    await connect(room, alice, "alice-second-tab")  # a player watching in another tab is still a player
    visitor = await connect(room, None, "visitor-tab-1")
    await connect(room, None, "visitor-tab-2", session_key=visitor.session_key)  # same browser session
    await players[0].wait_for(lambda f: f["type"] == "room" and f["room"]["spectators"] == 2)
    await players[0].pump(0.2)
    assert spectators(players[0]) == 2


async def test_r_7_a_dead_tab_drops_out_of_the_count(connect, alice, bob, settings):
    # Shrink time: entries live 1.5 s, heartbeats every 0.3 s (production: 30 s and 10 s).
    settings.TABLE = {**settings.TABLE, "PRESENCE_TTL": 1.5, "HEARTBEAT_SECONDS": 0.3}
    room = await sync_to_async(make_room)(alice, [bob], game="hokm2")
    alice_conn = await connect(room, alice)
    await connect(room, None, "visitor")  # this tab goes silent: it never pings
    await alice_conn.wait_for(lambda f: f["type"] == "room" and f["room"]["spectators"] == 1)
    healed = False
    for _ in range(25):
        await asyncio.sleep(0.2)
        await alice_conn.send({"type": "ping"})
        await alice_conn.pump(0.05)
        if alice_conn.room["room"]["spectators"] == 0:
            healed = True
            break
    assert healed, "the dead tab still counts"
    assert alice_conn.room["room"]["seats"][0]["presence"] == "connected"
    assert alice_conn.room["room"]["seats"][1]["presence"] == "disconnected"  # bob never came


def test_r_7_with_the_production_timings_a_dead_tab_is_forgotten_within_45_seconds():
    """R-7 with the settings the site runs with: a spectator's tab that dies
    without closing stops counting, and a player's seat turns disconnected,
    within 45 s of its last heartbeat, while a live tab keeps beating."""
    presence.reset_store()
    store = presence.store()
    t0 = 1_000_000.0
    store.touch("r-7-room", "dead-tab", "s:visitor", None, t0)
    store.touch("r-7-room", "dead-player", "u:2", 2, t0)
    seated = {1: "u:1", 2: "u:2"}
    beat = presence.heartbeat_seconds()
    for k in range(0, 46, int(beat)):
        store.touch("r-7-room", "live", "u:1", 1, t0 + k)
    before = presence.snapshot("r-7-room", seated, t0 + 1)
    assert before["spectators"] == 1 and before["seats"] == {1: "connected", 2: "connected"}
    after = presence.snapshot("r-7-room", seated, t0 + 45)
    assert after["spectators"] == 0
    assert after["seats"] == {1: "connected", 2: "disconnected"}
    presence.reset_store()


def test_r_4_presence_is_connected_then_connecting_then_disconnected(settings):
    presence.reset_store()
    store = presence.store()
    now = time.time()
    store.touch("r-4-room", "conn-1", "u:1", 1, now)
    seated = {1: "u:1", 2: "u:2"}
    assert presence.snapshot("r-4-room", seated, now + 5)["seats"] == {1: "connected", 2: "disconnected"}
    assert presence.snapshot("r-4-room", seated, now + 23)["seats"][1] == "connecting"
    assert presence.snapshot("r-4-room", seated, now + 45)["seats"][1] == "disconnected"
    store.drop("r-4-room", "conn-1")


async def test_r_1_only_the_creator_starts_and_only_when_every_guest_is_ready(
    connect, alice, bob, charlie, dave
):
    room = await sync_to_async(make_room)(alice, [bob, charlie], ready=False)
    creator, guest = await connect(room, alice), await connect(room, bob)
    await creator.send({"type": "start"})
    assert (await creator.wait_for(lambda f: f["type"] == "error"))["code"] == "seats_not_full"
    dave_conn = await connect(room, dave)
    await dave_conn.send({"type": "sit", "seat": 2})
    assert (await dave_conn.wait_for(lambda f: f["type"] == "error"))["code"] == "seat_taken"
    await dave_conn.send({"type": "sit", "seat": 4})
    await creator.wait_for(lambda f: f["type"] == "room" and f["room"]["seats"][3]["user"] == "dave")
    await creator.send({"type": "start"})
    assert (await creator.wait_for(lambda f: f["type"] == "error"))["code"] == "not_ready"
    await guest.send({"type": "start"})
    assert (await guest.wait_for(lambda f: f["type"] == "error"))["code"] == "not_creator"
    for user in (bob, charlie, dave):
        await sync_to_async(room_service.set_ready)(room, user, True)
    await creator.send({"type": "start"})
    await creator.wait_for(lambda f: f["type"] == "state")
    assert (await sync_to_async(Room.objects.get)(pk=room.pk)).status == Room.Status.PLAYING


def test_l_4_leaving_before_the_start_costs_nothing(transactional_db, alice, bob, charlie, dave):
    room = make_room(alice, [bob, charlie, dave])
    assert room_service.leave(room, bob) == {"left": True, "cost": None}
    assert not Seat.objects.filter(room=room, user=bob).exists()
    assert not Match.objects.filter(room=room).exists()


def test_l_2_a_bot_seat_makes_the_match_practice(transactional_db, alice, bob):
    room = make_room(alice, [bob], bots=(3, 4))
    with pytest.raises(PlayError) as exc:
        room_service.set_bot(room, bob, 2)
    assert exc.value.code == "not_creator"
    match = room_service.start(room, alice)
    assert match.practice is True and [p["bot"] for p in match.players] == [False, False, True, True]


async def test_l_3_leaving_needs_confirmation_and_ends_the_match(connect, alice, bob, charlie, dave):
    room = await sync_to_async(make_room)(alice, [bob, charlie, dave])
    conns = [await connect(room, u) for u in (alice, bob, charlie, dave)]
    await conns[0].send({"type": "start"})
    await conns[1].wait_for(lambda f: f["type"] == "state")
    await conns[1].send({"type": "leave"})
    confirm = await conns[1].wait_for(lambda f: f["type"] == "confirm_leave")
    assert confirm["cost"] == "hokm" and confirm["points"] == 2  # issue 14: docs/protocol.md says 2
    match = await sync_to_async(Match.objects.get)(room=room)
    assert match.status == Match.Status.ACTIVE
    await conns[1].send({"type": "leave", "confirm": True})
    left = await conns[1].wait_for(lambda f: f["type"] == "left")
    assert left["cost"] == "hokm"
    final = await conns[0].wait_for(lambda f: f["type"] == "state" and f["status"] == "abandoned")
    assert final["leaver"] == 2
    match = await sync_to_async(Match.objects.get)(room=room)
    assert match.status == Match.Status.ABANDONED and match.leaver_seat == 2
    await conns[0].send({"type": "act", "action": {"type": "trump", "suit": "S"}, "v": final["v"]})
    assert (await conns[0].wait_for(lambda f: f["type"] == "error"))["code"] in {"no_match", "match_over"}


async def test_r_3_rematch_needs_every_players_consent_and_c_7_rounds_follow_by_themselves(
    connect, alice, bob
):
    room = await sync_to_async(make_room)(alice, [bob], game="hokm2", rules={"target": 3})
    conns = [await connect(room, u) for u in (alice, bob)]
    await conns[0].send({"type": "start"})

    def finished():
        return any(f["type"] == "state" and f["status"] == "finished" for f in conns[0].frames)

    await play_until(conns, finished, max_steps=4000)
    assert len(events_of(conns[0], ROUND_END)) >= 3  # C-7: later rounds were dealt without anyone asking
    first = await sync_to_async(lambda: Match.objects.filter(room=room).get())()
    assert first.status == Match.Status.FINISHED and max(first.result["score"]) >= 3
    await conns[0].send({"type": "act", "action": {"type": "trump", "suit": "S"}, "v": 0})
    await conns[0].wait_for(lambda f: f["type"] == "error")

    await conns[0].send({"type": "rematch"})
    ring = await conns[1].wait_for(lambda f: f["type"] == "room" and f["room"]["seats"][0]["rematch"])
    assert ring["room"]["seats"][1]["rematch"] is False
    assert await sync_to_async(Match.objects.filter(room=room).count)() == 1
    await conns[1].send({"type": "rematch"})
    await conns[0].wait_for(lambda f: f["type"] == "state" and f["match"] != first.pk)
    assert await sync_to_async(Match.objects.filter(room=room).count)() == 2


async def test_l_2_three_bots_play_a_whole_hokm4_match_with_only_the_creator_connected(connect, alice):
    room = await sync_to_async(room_service.create_room)(alice, "hokm4", {"target": 3})
    for seat in (2, 3, 4):
        await sync_to_async(room_service.set_bot)(room, alice, seat)
    creator = await connect(room, alice)
    await creator.send({"type": "start"})

    def finished():
        return any(f["type"] == "state" and f["status"] == "finished" for f in creator.frames)

    await play_until([creator], finished, max_steps=6000)
    match = await sync_to_async(Match.objects.get)(room=room)
    assert match.status == Match.Status.FINISHED and match.practice
    assert max(match.result["score"]) >= 3
    bot_moves = await sync_to_async(match.moves.filter(actor="bot").count)()
    assert bot_moves > 30


def test_r_1_when_the_creator_leaves_a_guest_runs_the_room_and_an_empty_room_closes(
    transactional_db, alice, bob
):
    room = make_room(alice, [bob], game="hokm2")
    room_service.leave(room, alice)
    room.refresh_from_db()
    assert room.creator == bob and room.status == Room.Status.WAITING
    room_service.stand(room, bob)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED  # nobody left: no longer an open table


def test_r_4_connecting_from_the_first_missed_heartbeat_until_the_limit(settings):
    """Issue 34: "connected" lasted 21 s, so tablemates almost never saw "connecting"."""
    presence.reset_store()
    store = presence.store()
    now = time.time()
    beat = presence.heartbeat_seconds()
    store.touch("r-4-missed", "conn-1", "u:1", 1, now)
    seated = {1: "u:1"}
    assert presence.snapshot("r-4-missed", seated, now + beat)["seats"][1] == "connected"
    assert (
        presence.snapshot("r-4-missed", seated, now + beat + 4)["seats"][1] == "connecting"
    )  # one beat missed
    assert presence.snapshot("r-4-missed", seated, now + presence.ttl() - 0.5)["seats"][1] == "connecting"
    assert presence.snapshot("r-4-missed", seated, now + presence.ttl() + 0.5)["seats"][1] == "disconnected"
    store.drop("r-4-missed", "conn-1")
