"""Issue 38: a learner's hint, in practice matches only (L-2), from the asker's view only."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.utils import translation

from rooms import hints

from .conftest import cards_in, make_room, pump_all

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

NO_MIDDLE = {"middle_card": False}


def _my_turn(conn) -> bool:
    st = conn.state
    if not st or st["status"] != "active":
        return False
    view = st["view"]
    return bool(view.get("legal")) and view.get("viewer") in view.get("to_act", [])


def _visible(view) -> set[str]:
    """Every card the seat's own view shows (its hand, the trick, the tricks played, a face-up card)."""
    return cards_in(view)


async def test_l2_a_hint_in_practice_is_the_askers_legal_action_from_his_view(connect, alice, settings):
    settings.TABLE = {**settings.TABLE, "TURN_SCALE": 100.0}  # alice's clock never plays for her here
    room = await sync_to_async(make_room)(alice, [], rules=NO_MIDDLE, bots=(2, 3, 4))
    conn = await connect(room, alice)
    await conn.send({"type": "start"})
    asked = 0
    for _ in range(200):
        await conn.wait_for(lambda f: f["type"] == "state" and _my_turn(conn), timeout=60)
        await pump_all([conn], 0.05)
        if not _my_turn(conn):
            continue
        st = conn.state
        await conn.send({"type": "hint", "ref": 100 + asked})
        frame = await conn.wait_for(lambda f, r=100 + asked: f.get("ref") == r, timeout=30)
        assert frame["type"] == "hint", frame
        assert frame["seat"] == st["view"]["viewer"] and frame["v"] == st["v"]
        assert frame["action"] in st["view"]["legal"]
        assert isinstance(frame["reason"], str) and frame["reason"]
        # nothing beyond the asker's own view: every card the frame names is one his view shows
        assert cards_in(frame) <= _visible(st["view"]), (cards_in(frame), frame)
        assert set(frame) == {"type", "match", "v", "seat", "action", "reason", "ref"}
        asked += 1
        await conn.send({"type": "act", "action": frame["action"], "v": st["v"]})
        if asked >= 3 and st["view"]["phase"] == "play":
            break
    assert asked >= 3


async def test_l2_no_hint_in_a_match_between_people(connect, alice, bob, charlie, dave):
    room = await sync_to_async(make_room)(alice, [bob, charlie, dave], rules=NO_MIDDLE)
    players = [await connect(room, u) for u in (alice, bob, charlie, dave)]
    await players[0].send({"type": "start"})
    for p in players:
        await p.wait_for(lambda f: f["type"] == "state")
    for i, p in enumerate(players):
        await p.send({"type": "hint", "ref": i + 1})
    for i, p in enumerate(players):
        err = await p.wait_for(lambda f, r=i + 1: f.get("ref") == r)
        assert err["type"] == "error" and err["code"] == "hint_refused"
    await pump_all(players, 0.2)
    assert not [f for p in players for f in p.frames if f["type"] == "hint"]


async def test_l2_a_hint_only_on_the_askers_turn_and_only_for_a_seat(connect, alice, bob, settings):
    # alice's own turns never time out; the bots play quickly until her turn comes
    settings.TABLE = {**settings.TABLE, "TURN_SCALE": 100.0, "BOT_DELAY": 0.05}
    room = await sync_to_async(make_room)(alice, [], rules=NO_MIDDLE, bots=(2, 3, 4))
    conn = await connect(room, alice)
    watcher = await connect(room, bob)
    await conn.send({"type": "start"})
    await conn.wait_for(lambda f: f["type"] == "state" and _my_turn(conn), timeout=60)
    await watcher.send({"type": "hint", "ref": 8})
    err = await watcher.wait_for(lambda f: f.get("ref") == 8)
    assert err["type"] == "error" and err["code"] == "not_seated"
    # from now on the bots think slowly (the delay is read when a bot's turn is set), so that
    # after alice's card the turn is surely theirs for a while
    settings.TABLE = {**settings.TABLE, "BOT_DELAY": 5.0}
    while _my_turn(conn):  # the hakem names the trump, then leads: play until it is a bot's turn
        v = conn.state["v"]
        await conn.send({"type": "act", "action": conn.state["view"]["legal"][0], "v": v})
        await conn.wait_for(lambda f, v=v: f["type"] == "state" and f["v"] > v)
    await conn.send({"type": "hint", "ref": 7})
    frame = await conn.wait_for(lambda f: f.get("ref") == 7)
    assert frame["type"] == "error" and frame["code"] == "hint_not_your_turn"


def test_every_hint_reason_and_refusal_is_worded_in_persian_and_english():
    from games.bots.hints import REASONS as CODES

    assert set(hints.REASONS) == set(CODES)
    for text in [*hints.REASONS.values(), *hints.REFUSALS.values()]:
        with translation.override("en"):
            en = str(text)
        with translation.override("fa"):
            fa = str(text)
        assert en and fa and en != fa
        assert any("\u0600" <= ch <= "\u06ff" for ch in fa)
