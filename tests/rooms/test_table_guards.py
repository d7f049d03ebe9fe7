"""Bad input gets a clear error and changes nothing (C-6); reconnection (R-4); reactions (R-5)."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async

from games.models import Match, Move

from .conftest import make_room

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


async def started_hokm4(connect, alice, bob, charlie, dave, **rules):
    room = await sync_to_async(make_room)(alice, [bob, charlie, dave], rules={"middle_card": False, **rules})
    conns = [await connect(room, u) for u in (alice, bob, charlie, dave)]
    await conns[0].send({"type": "start"})
    for conn in conns:
        await conn.wait_for(lambda f: f["type"] == "state")
    return room, conns


async def snapshot(room):
    def read():
        match = Match.objects.get(room=room)
        return (
            match.version,
            json.dumps(match.state, sort_keys=True),
            Move.objects.filter(match=match).count(),
        )

    return await sync_to_async(read)()


def to_act(conns):
    view = conns[0].state["view"]
    seat = view["to_act"][0]
    return next(c for c in conns if c.state["view"]["viewer"] == seat)


async def reach_play(conns):
    """The hakem names trump; then someone is to play a card."""
    hakem = to_act(conns)
    action = hakem.state["view"]["legal"][0]
    await hakem.send({"type": "act", "action": action, "v": hakem.state["v"]})
    for conn in conns:
        await conn.wait_for(lambda f: f["type"] == "state" and f["view"]["phase"] == "play")


async def test_c_6_an_illegal_card_a_wrong_seat_a_stale_version_and_junk_change_nothing(
    connect, alice, bob, charlie, dave
):
    room, conns = await started_hokm4(connect, alice, bob, charlie, dave)
    await reach_play(conns)
    before = await snapshot(room)
    player = to_act(conns)
    view = player.state["view"]
    legal = {a["card"] for a in view["legal"] if a["type"] == "play"}
    idle = next(c for c in conns if c is not player)

    # a card he does not hold / not legal
    not_mine = next(c for c in idle.state["view"]["hand"])
    await player.send(
        {"type": "act", "action": {"type": "play", "card": not_mine}, "v": player.state["v"], "ref": 1}
    )
    err = await player.wait_for(lambda f: f["type"] == "error")
    assert err["ref"] == 1 and err["code"] not in ("bad_frame",) and err["message"]
    # out of turn
    card = idle.state["view"]["hand"][0]
    await idle.send({"type": "act", "action": {"type": "play", "card": card}, "v": idle.state["v"]})
    assert (await idle.wait_for(lambda f: f["type"] == "error"))["code"] == "not_your_turn"
    # a forged seat: acting for the player whose turn it is
    await idle.send({"type": "act", "action": view["legal"][0], "v": idle.state["v"], "seat": view["viewer"]})
    assert (await idle.wait_for(lambda f: f["type"] == "error"))["code"] == "not_your_seat"
    # a stale version, then a full state comes back
    await player.send(
        {"type": "act", "action": {"type": "play", "card": sorted(legal)[0]}, "v": player.state["v"] - 1}
    )
    assert (await player.wait_for(lambda f: f["type"] == "error"))["code"] == "stale_version"
    await player.wait_for(lambda f: f["type"] == "state" and f["full"])
    # malformed frames
    for raw, code in [
        ("not json", "bad_frame"),
        ("[1,2]", "bad_frame"),
        ('{"type": 5}', "bad_frame"),
        ('{"type": "explode"}', "unknown_type"),
        ('{"type": "__init__"}', "unknown_type"),
        ('{"type": "act", "action": "AS", "v": 1}', "bad_frame"),
        ('{"type": "act", "action": {"type": "play", "card": "AS"}}', "bad_frame"),
        ('{"type": "act", "action": {"type": "play"}, "v": true}', "bad_frame"),
        ('{"type": "act", "action": {"card": "AS"}, "v": 0}', "bad_frame"),
        (json.dumps({"type": "act", "pad": "x" * 5000}), "frame_too_large"),
    ]:
        await player.send_raw(raw)
        got = await player.wait_for(lambda f: f["type"] == "error")
        assert got["code"] == code, (raw[:40], got)
    # a spectator cannot act
    watcher = await connect(room, None, "watcher")
    await watcher.send({"type": "act", "action": view["legal"][0], "v": watcher.state["v"]})
    assert (await watcher.wait_for(lambda f: f["type"] == "error"))["code"] == "sign_in"

    assert await snapshot(room) == before


async def test_two_simultaneous_moves_for_one_turn_apply_exactly_once(connect, alice, bob, charlie, dave):
    room, conns = await started_hokm4(connect, alice, bob, charlie, dave)
    await reach_play(conns)
    player = to_act(conns)
    user = {c.name: u for c, u in zip(conns, (alice, bob, charlie, dave), strict=True)}[player.name]
    second_tab = await connect(room, user, "second-tab")
    v_before, _, moves_before = await snapshot(room)
    legal = [a for a in player.state["view"]["legal"] if a["type"] == "play"]
    a, b = legal[0], legal[-1]
    await asyncio.gather(
        player.send({"type": "act", "action": a, "v": v_before}),
        second_tab.send({"type": "act", "action": b, "v": v_before}),
    )
    for _ in range(100):  # until both answers are in: one state, one error
        await player.pump(0.05)
        await second_tab.pump(0.05)
        if any(f["type"] == "error" for f in player.frames + second_tab.frames):
            break
    # The accepted one's state frame reaches both tabs of the player.
    for conn in (player, second_tab):
        await conn.wait_for(lambda f: f["type"] == "state" and f["v"] == v_before + 1)
    v_after, _, moves_after = await snapshot(room)
    assert (v_after, moves_after) == (v_before + 1, moves_before + 1)
    errors = [f for f in player.frames + second_tab.frames if f["type"] == "error"]
    assert len(errors) == 1 and errors[0]["code"] in {"stale_version", "not_your_turn"}


def test_two_threads_acting_at_once_apply_exactly_once(transactional_db, alice, bob, charlie, dave):
    """The row lock serialises two workers acting for the same turn (one DB connection each)."""
    import threading

    from django.db import connection

    from games import services
    from games.errors import PlayError
    from rooms import services as room_service

    room = make_room(alice, [bob, charlie, dave], rules={"middle_card": False})
    match = room_service.start(room, alice)
    match.refresh_from_db()
    from games import engine

    game = engine.get("hokm4")
    seat = min(game.to_act(match.state))
    action = game.legal_actions(match.state, seat)[0]
    barrier = threading.Barrier(2)
    outcomes = []

    def act():
        barrier.wait()
        try:
            services.play(match.pk, action, seat=seat, version=match.version)
            outcomes.append("applied")
        except PlayError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=act) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["applied", "stale_version"]
    assert Match.objects.get(pk=match.pk).version == match.version + 1


async def test_r_4_a_dropped_player_reconnects_and_gets_the_full_state(connect, alice, bob, charlie, dave):
    room, conns = await started_hokm4(connect, alice, bob, charlie, dave)
    await reach_play(conns)
    bob_conn = conns[1]
    await bob_conn.close()
    await conns[0].wait_for(
        lambda f: f["type"] == "room" and f["room"]["seats"][1]["presence"] != "connected"
    )
    # play goes on while he is away
    player = to_act(conns)
    if player is not bob_conn:
        await player.send({"type": "act", "action": player.state["view"]["legal"][0], "v": player.state["v"]})
        await conns[0].wait_for(lambda f: f["type"] == "state" and f["v"] > player.state["v"] - 1)
    back = await connect(room, bob, "bob-again")
    state = next(f for f in back.frames if f["type"] == "state")
    room_frame = next(f for f in back.frames if f["type"] == "room")
    current, _, _ = await snapshot(room)
    assert state["v"] == current and state["view"]["viewer"] == 2 and len(state["view"]["hand"]) == 13
    assert room_frame["you"]["seat"] == 2
    await conns[0].wait_for(
        lambda f: f["type"] == "room" and f["room"]["seats"][1]["presence"] == "connected"
    )


async def test_r_5_reactions_faster_than_one_per_eight_seconds_are_refused(
    connect, alice, bob, charlie, dave
):
    room, conns = await started_hokm4(connect, alice, bob, charlie, dave)
    watcher = await connect(room, None, "watcher")
    await conns[0].send({"type": "react", "reaction": "clap"})
    got = await conns[2].wait_for(lambda f: f["type"] == "reaction")
    assert got == {"type": "reaction", "seat": 1, "reaction": "clap"}
    await watcher.wait_for(lambda f: f["type"] == "reaction")
    await conns[0].send({"type": "react", "reaction": "wow"})
    assert (await conns[0].wait_for(lambda f: f["type"] == "error"))["code"] == "too_soon"
    await conns[0].send({"type": "react", "reaction": "not-a-reaction"})
    assert (await conns[0].wait_for(lambda f: f["type"] == "error"))["code"] == "bad_reaction"
    await watcher.send({"type": "react", "reaction": "clap"})
    assert (await watcher.wait_for(lambda f: f["type"] == "error"))["code"] == "sign_in"
    # another player is not limited by alice's reaction
    await conns[1].send({"type": "react", "reaction": "heart"})
    await conns[0].wait_for(lambda f: f["type"] == "reaction" and f["seat"] == 2)
    await conns[2].pump(0.1)
    assert [f["reaction"] for f in conns[2].frames if f["type"] == "reaction"] == ["clap", "heart"]


async def test_a_socket_from_a_foreign_origin_is_refused(alice, bob):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    room = await sync_to_async(make_room)(alice, [bob], game="hokm2")
    comm = WebsocketCommunicator(
        application, f"/ws/table/{room.code}/", headers=[(b"origin", b"https://evil.example")]
    )
    connected, _ = await comm.connect(timeout=5)
    assert not connected


async def test_a_socket_for_an_unknown_room_is_closed():
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    comm = WebsocketCommunicator(
        application, "/ws/table/nosuchroom/", headers=[(b"origin", b"http://testserver")]
    )
    await comm.connect(timeout=5)  # accepted at once (issue 13), then closed: no such room
    message = await comm.receive_output(timeout=5)
    assert message == {"type": "websocket.close", "code": 4404}


async def test_a_flood_of_frames_is_refused_without_reaching_the_game(connect, alice, bob):
    room = await sync_to_async(make_room)(alice, [bob], game="hokm2")
    conn = await connect(room, alice)
    for _ in range(120):
        await conn.send({"type": "ping"})
    limited = await conn.wait_for(lambda f: f["type"] == "error" and f["code"] == "rate_limited", timeout=60)
    assert limited["message"]
    while await conn.pump(1.0):
        pass
    pongs = sum(1 for f in conn.frames if f["type"] == "pong")
    assert 40 <= pongs < 100  # the burst and what trickled in meanwhile; the rest was dropped


async def test_error_messages_speak_the_connections_language(connect, alice, bob):
    room = await sync_to_async(make_room)(alice, [bob], game="hokm2")
    persian = await connect(room, alice)
    await persian.send({"type": "react", "reaction": "nope"})
    fa = await persian.wait_for(lambda f: f["type"] == "error")

    def set_english():
        alice.profile.language = "en"
        alice.profile.save()

    await sync_to_async(set_english)()
    english = await connect(room, alice, "alice-en")
    await english.send({"type": "react", "reaction": "nope"})
    en = await english.wait_for(lambda f: f["type"] == "error")
    assert en["code"] == fa["code"] == "bad_reaction"
    assert en["message"] == "Unknown reaction."
    assert fa["message"] == "واکنش ناشناخته است."
