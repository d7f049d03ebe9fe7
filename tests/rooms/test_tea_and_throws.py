"""Tea with the narrator (H4-X4) and throwing things (H4-X5) through the table socket."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from asgiref.sync import sync_to_async

from games import clock
from games import services as play_service
from games.models import Match, Move
from rooms import story
from rooms.models import Room

from .conftest import make_room, play_until, pump_all

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]

TEA = {"tea": True, "middle_card": False}
THROWING = {"throwing": True, "middle_card": False}


@pytest.fixture
def quick_tea(settings):
    """Ten seconds become 0.3; a chapter lasts about ``seconds`` (set per test)."""

    def set_(chapter_seconds: float = 60.0, turn_scale: float = 1.0, ask_seconds: float = 0.3):
        settings.TABLE = {
            **settings.TABLE,
            "TEA_ASK_SECONDS": ask_seconds,
            "TEA_SCALE": chapter_seconds / story.reading_seconds(1),
            "TURN_SCALE": turn_scale,
        }

    return set_


async def _four(connect, users, rules):
    room = await sync_to_async(make_room)(users[0], list(users[1:]), rules=rules)
    players = [await connect(room, u) for u in users]
    await players[0].send({"type": "start"})
    for p in players:
        await p.wait_for(lambda f: f["type"] == "state")
    return room, players


def _tea(conn) -> dict:
    return conn.state["tea"] or {}


def _phase(conn):
    return _tea(conn).get("phase")


async def _wait_phase(conns, phase, timeout=10.0):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        await pump_all(conns, 0.05)
        if all(c.state and c.state.get("tea") and c.state["tea"]["phase"] == phase for c in conns):
            return conns[0].state
    raise AssertionError(f"tea never reached {phase}: {[c.state and c.state.get('tea') for c in conns]}")


def _errors(conn, code):
    return [f for f in conn.frames if f["type"] == "error" and f["code"] == code]


async def _moves(match_id):
    return await sync_to_async(lambda: Move.objects.filter(match_id=match_id).count())()


def _in_play(conn) -> bool:
    v = conn.state["view"] if conn.state else {}
    return v.get("phase") == "play"


# --- H4-X4: tea ----------------------------------------------------------------------------


async def test_h4_x4_a_tea_with_a_no_does_nothing(connect, alice, bob, charlie, dave, quick_tea):
    quick_tea(ask_seconds=2.0)  # the no must arrive inside the window, also on a busy machine
    room, players = await _four(connect, [alice, bob, charlie, dave], TEA)
    await play_until(players, lambda: _in_play(players[0]))
    await players[0].send({"type": "tea", "say": "ask", "ref": "t"})
    await _wait_phase(players, "asking")
    assert _tea(players[1])["seat"] == 1 and _tea(players[1])["until"] > players[1].state["server_time"]
    await players[1].send({"type": "tea", "say": "no"})
    await players[0].wait_for(
        lambda f: f["type"] == "state" and any(e["type"] == "tea_refused" for e in f["events"])
    )
    await pump_all(players, 2.3)  # past the ten seconds (2 here): nothing is poured
    for p in players:
        assert _phase(p) is None, p.state["tea"]
        assert p.state["deadlines"], "the clock runs on"
        assert _tea(p)["asked"] == [1]  # asking used his tea, whatever the answer
    # Play goes on: the seat to act can play.
    before = players[0].state["v"]
    await play_until(players, lambda: players[0].state["v"] > before)
    # Once per match: the same player cannot ask again.
    await players[0].send({"type": "tea", "say": "ask", "ref": "again"})
    await players[0].wait_for(lambda f: f["type"] == "error" and f.get("ref") == "again")
    assert _errors(players[0], "tea_used")


async def test_h4_x4_without_a_no_play_stops_after_the_trick_and_the_clock_stops(
    connect, alice, bob, charlie, dave, quick_tea
):
    """The tea is agreed mid-trick, poured when the trick is gathered; during it
    no deadline fires and every action is refused; at the chapter's end play
    resumes with a fresh full turn."""
    quick_tea(chapter_seconds=7.0, turn_scale=0.1)  # a turn: 3 s; the chapter: 7 s
    room, players = await _four(connect, [alice, bob, charlie, dave], TEA)
    await play_until(players, lambda: _in_play(players[0]) and len(players[0].state["view"]["trick"]) == 1)
    await players[0].send({"type": "tea", "say": "ask"})
    await _wait_phase(players, "agreed")  # 0.3 s and nobody said no
    assert players[0].state["view"]["trick"], "agreed mid-trick: the trick is still being played"
    assert players[0].state["deadlines"], "the clock runs until the trick is gathered"
    await play_until(players, lambda: _phase(players[0]) == "pouring")
    await pump_all(players, 0.1)
    poured = players[2].state
    assert any(e["type"] == "trick_won" for e in poured["events"])
    assert poured["view"]["trick"] == []
    assert poured["deadlines"] == {}  # H4-X4: the turn clock stops
    assert poured["tea"]["chapter"] == 1 and poured["tea"]["until"] > poured["server_time"]
    match_id, version = poured["match"], poured["v"]
    moves = await _moves(match_id)
    # An action during tea is refused and changes nothing.
    leader = poured["view"]["to_act"][0]
    conn = players[leader - 1]
    card = conn.state["view"]["legal"][0]
    await conn.send({"type": "act", "action": card, "v": conn.state["v"], "ref": "during"})
    error = await conn.wait_for(lambda f: f["type"] == "error" and f.get("ref") == "during")
    assert error["code"] == "tea_time"
    # Longer than a whole turn (the play service's clock moved on, no sleep):
    # the clock would have played by now, the deadline and the sweep find nothing to do.
    start = time.time()
    clock.set_now(lambda: time.time() - start + poured["server_time"] / 1000 + 3.2)
    try:
        assert await sync_to_async(play_service.expire)(match_id, version) is None
        assert await sync_to_async(play_service.sweep)(grace=0) == 0
        await pump_all(players, 0.05)
        assert await _moves(match_id) == moves
        row = await sync_to_async(Match.objects.get)(pk=match_id)
        assert row.version == version and row.deadlines == {} and row.tea["phase"] == "pouring"
        # The chapter's end (7 s): its deadline resumes play; the seat to act has a fresh full turn.
        clock.set_now(lambda: time.time() - start + row.tea["until"] + 0.1)
        assert await sync_to_async(play_service.expire)(match_id, version) is not None
        resumed = await players[0].wait_for(
            lambda f: f["type"] == "state" and any(e["type"] == "tea_over" for e in f["events"]), timeout=8
        )
    finally:
        clock.set_now(None)
    assert resumed["tea"]["phase"] is None
    left = resumed["deadlines"][str(leader)] - resumed["server_time"]
    assert left > 0.9 * 3000, left
    await play_until(players, lambda: players[0].state["v"] > resumed["v"])


async def test_h4_x4_resumes_when_everyone_presses_continue(connect, alice, bob, charlie, dave, quick_tea):
    """Between tricks (the hakem choosing trump) an agreed tea is poured at once;
    everyone saying yes needs no ten seconds; once every player pressed
    continue the chapter ends early."""
    quick_tea(chapter_seconds=60.0)
    room, players = await _four(connect, [alice, bob, charlie, dave], TEA)
    await play_until(players, lambda: players[0].state["view"]["phase"] == "trump", max_steps=50)
    await players[1].send({"type": "tea", "say": "ask"})
    await _wait_phase(players, "asking")
    await players[1].send({"type": "tea", "say": "yes", "ref": "own"})
    await players[1].wait_for(lambda f: f["type"] == "error" and f.get("ref") == "own")
    assert _errors(players[1], "own_tea")
    for p in (players[0], players[2], players[3]):
        await p.send({"type": "tea", "say": "yes"})
    await _wait_phase(players, "pouring", timeout=3)  # long before a chapter of 60 s could end
    await players[0].send({"type": "tea", "say": "ask", "ref": "busy"})
    await players[0].wait_for(lambda f: f["type"] == "error" and f.get("ref") == "busy")
    assert _errors(players[0], "tea_busy")
    for i, p in enumerate(players):
        await p.send({"type": "tea", "say": "continue"})
        if i < 3:
            # Wait for the continue's own frame (a fixed pump was too short on a busy machine).
            seen = list(range(1, i + 2))
            await players[0].wait_for(
                lambda f, seen=seen: f["type"] == "state" and (f.get("tea") or {}).get("continued") == seen
            )
            assert _phase(players[0]) == "pouring"
            assert players[0].state["tea"]["continued"] == list(range(1, i + 2))
    await _wait_phase(players, None, timeout=3)
    assert players[0].state["deadlines"]
    # A late joiner sees the tea's state in his full frame.
    late = await connect(room, None, "late")
    assert late.state["full"] and late.state["tea"]["asked"] == [2]


async def test_h4_x4_one_human_with_bots_the_story_goes_on_across_matches(connect, alice, quick_tea):
    """Bots accept at once and continue at once: the human's continue resumes.
    The next match in the same room tells the next chapter."""
    quick_tea(chapter_seconds=60.0, turn_scale=0.003)  # alice's turns: the clock plays them at once
    room = await sync_to_async(make_room)(alice, [], rules={**TEA, "target": 3}, bots=(2, 3, 4))
    conn = await connect(room, alice)
    await conn.send({"type": "start"})
    await conn.wait_for(lambda f: f["type"] == "state" and f["view"]["phase"] == "play")
    await conn.send({"type": "tea", "say": "ask"})
    await _wait_phase([conn], "pouring")  # no ten seconds: no human to say no
    assert conn.state["tea"]["chapter"] == 1
    assert conn.state["deadlines"] == {}
    await conn.send({"type": "tea", "say": "continue"})
    await _wait_phase([conn], None, timeout=3)
    assert (await sync_to_async(Room.objects.get)(pk=room.pk)).story_next == 2
    # The match is played to its end (the clock plays for alice), then played again.
    first = conn.state["match"]
    await conn.wait_for(lambda f: f["type"] == "state" and f["status"] == "finished", timeout=120)
    await conn.send({"type": "rematch", "agree": True})
    await conn.wait_for(lambda f: f["type"] == "state" and f["match"] != first)
    await _wait_phase([conn], None)
    assert conn.state["tea"]["asked"] == []  # a new match: everyone may ask again
    await conn.send({"type": "tea", "say": "ask"})
    await _wait_phase([conn], "pouring")
    assert conn.state["tea"]["chapter"] == 2  # H4-X4: the story goes on at the same table
    expected = 60.0 * story.reading_seconds(2) / story.reading_seconds(1)
    assert conn.state["tea"]["seconds"] == pytest.approx(expected, abs=0.2)


async def test_h4_x4_and_x5_refused_when_the_rule_is_off(connect, alice, bob, charlie, dave):
    room, players = await _four(connect, [alice, bob, charlie, dave], {"middle_card": False})
    assert players[0].state["tea"] is None
    await players[0].send({"type": "tea", "say": "ask", "ref": 1})
    await players[0].send({"type": "throw", "item": "tomato", "target": 2, "ref": 2})
    await players[0].wait_for(lambda f: f["type"] == "error" and f.get("ref") == 2)
    assert [f["code"] for f in players[0].frames if f["type"] == "error"] == ["tea_off", "throw_off"]
    await pump_all(players, 0.2)
    assert not [f for p in players for f in p.frames if f["type"] == "throw"]
    assert all(p.state["tea"] is None for p in players)


# --- H4-X5: throws --------------------------------------------------------------------------


def _walk(value, path=()):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(v, (*path, str(k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, (*path, str(i)))
    else:
        yield path, value


async def test_h4_x5_a_throw_reaches_everyone_and_nobody_learns_who_threw(
    connect, alice, bob, charlie, dave, make_user
):
    room, players = await _four(connect, [alice, bob, charlie, dave], THROWING)
    eve = await connect(room, await sync_to_async(make_user)("eve"), "eve-spectator")
    visitor = await connect(room, None, "anonymous")
    hider = await sync_to_async(make_user)("hidey")
    await sync_to_async(
        lambda: type(hider.profile).objects.filter(pk=hider.profile.pk).update(hide_reactions=True)
    )()
    hidey = await connect(room, hider, "hidey-spectator")
    everyone = [*players, eve, visitor, hidey]
    await pump_all(everyone, 0.3)
    marks = {c.name: len(c.frames) for c in everyone}

    # charlie (seat 3) throws a tomato at bob (seat 2).
    await players[2].send({"type": "throw", "item": "tomato", "target": 2})
    for c in [*players, eve, visitor]:
        await c.wait_for(lambda f: f["type"] == "throw")
    await pump_all(everyone, 0.3)

    texts = set()
    for c in everyone:
        new = c.frames[marks[c.name] :]
        thrown = [f for f in new if f["type"] == "throw"]
        if c is hidey:
            assert thrown == [], "a viewer who hides reactions gets no throws"
            continue
        assert thrown == [{"type": "throw", "item": "tomato", "target": 2}], c.name
        texts.add(json.dumps(thrown[0], sort_keys=True))
        # Nothing else came because of the throw: no ack to the thrower, no frame naming him.
        assert [f["type"] for f in new if f["type"] not in ("throw", "room", "pong")] == [], (c.name, new)
        for frame in new:
            if frame["type"] == "room":
                continue  # the seats' list, as before the throw (presence)
            for path, value in _walk(frame):
                assert not any(
                    word in k for k in path for word in ("thrower", "from", "by", "user", "sender")
                ), path
                if isinstance(value, str):
                    assert "charlie" not in value.lower(), (path, value)
                if isinstance(value, int) and not isinstance(value, bool):
                    assert value != charlie.pk or path == ("target",), (path, value)
                    if path != ("target",):
                        assert value != 3, (path, value)  # the thrower's seat, anywhere
    assert len(texts) == 1, "every viewer, the thrower included, got the very same frame"

    # A spectator cannot throw; nor at oneself; nor something unknown.
    await eve.send({"type": "throw", "item": "rose", "target": 1, "ref": "e"})
    await eve.wait_for(lambda f: f["type"] == "error" and f.get("ref") == "e")
    await players[0].send({"type": "throw", "item": "rose", "target": 1, "ref": "self"})
    await players[0].send({"type": "throw", "item": "brick", "target": 2, "ref": "brick"})
    await players[0].wait_for(lambda f: f["type"] == "error" and f.get("ref") == "brick")
    assert _errors(eve, "spectator") and _errors(players[0], "bad_target") and _errors(players[0], "bad_item")

    # The eye: a player who hides reactions gets none, and again once he shows them.
    await players[3].send({"type": "hide_reactions", "hide": True})
    await pump_all(everyone, 0.1)
    mark = len(players[3].frames)
    await players[0].send({"type": "throw", "item": "rose", "target": 3})
    await players[2].wait_for(lambda f: f["type"] == "throw" and f["item"] == "rose")
    await pump_all(everyone, 0.3)
    assert not [f for f in players[3].frames[mark:] if f["type"] == "throw"]
    await players[3].send({"type": "hide_reactions", "hide": False})
    await players[0].send({"type": "throw", "item": "slipper", "target": 3})
    await players[3].wait_for(lambda f: f["type"] == "throw" and f["item"] == "slipper")


async def test_h4_x5_three_throws_per_trick_then_refused_until_the_trick_is_gathered(
    connect, alice, bob, charlie, dave
):
    room, players = await _four(connect, [alice, bob, charlie, dave], THROWING)
    await play_until(players, lambda: _in_play(players[0]))
    for item in ("tomato", "egg", "shoe"):
        await players[0].send({"type": "throw", "item": item, "target": 2})
    await players[0].send({"type": "throw", "item": "flower", "target": 4, "ref": "fourth"})
    await players[0].wait_for(lambda f: f["type"] == "error" and f.get("ref") == "fourth")
    assert _errors(players[0], "throw_limit")
    await pump_all(players, 0.3)
    got = [f["item"] for f in players[1].frames if f["type"] == "throw"]
    assert got == ["tomato", "egg", "shoe"]  # the fourth never flew
    # Another player has his own three.
    await players[1].send({"type": "throw", "item": "rose", "target": 1})
    await players[0].wait_for(lambda f: f["type"] == "throw" and f["item"] == "rose")
    # The trick is gathered: three more.
    tricks = lambda: sum(players[0].state["view"]["score"]["tricks"])  # noqa: E731
    await play_until(players, lambda: tricks() == 1)
    await players[0].send({"type": "throw", "item": "flower", "target": 4})
    await players[3].wait_for(lambda f: f["type"] == "throw" and f["item"] == "flower")
    assert len(_errors(players[0], "throw_limit")) == 1
