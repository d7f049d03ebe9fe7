"""Hokm's optional table rules through the table socket, each on and off:
partner's middle card (H4-X1), early play (H4-X2), leading a run (H4-X3).

Four real players on four sockets and a spectator. The deal is fixed
(``fairdeal.order`` patched): seat 1 draws the first ace and is hakem
(D-1), the hands are ``HANDS_A`` of the engine's tests in the D-2 order, so
the partner's (seat 3's) third card ``d[12]`` is 9H.
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from games import fairdeal
from games.models import Match
from tests.engine.test_hokm4 import HANDS_A, deal_deck4, draw_deck

from .conftest import cards_in, make_room

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


@pytest.fixture
def fixed_deal(monkeypatch):
    def order(cards, *args, purpose, **kwargs):
        return draw_deck(1) if purpose == "draw" else deal_deck4(1, HANDS_A)

    monkeypatch.setattr(fairdeal, "order", order)


async def table(connect, users, rules):
    room = await sync_to_async(make_room)(users[0], users[1:], rules=rules)
    players = [await connect(room, u) for u in users]
    watcher = await connect(room, None, "watcher")
    await players[0].send({"type": "start"})
    for conn in players + [watcher]:
        await conn.wait_for(lambda f: f["type"] == "state" and f["view"]["phase"] == "trump")
    return room, players, watcher


async def act(conn, action, ok=True):
    """Send one action from the match's current version, once ``conn`` has seen it;
    wait for its ack (or its error)."""
    match_id = conn.state["match"]
    current = await sync_to_async(lambda: Match.objects.get(pk=match_id).version)()
    await conn.pump()
    if conn.state["v"] < current:
        await conn.wait_for(lambda f: f["type"] == "state" and f["v"] >= current)
    ref = f"r{len(conn.frames)}"
    await conn.send({"type": "act", "action": action, "v": conn.state["v"], "ref": ref})
    answer = await conn.wait_for(lambda f: f.get("ref") == ref and f["type"] in ("ack", "error"))
    assert (answer["type"] == "ack") == ok, answer
    return answer


async def at_version(conns, v):
    for conn in conns:
        await conn.pump()
        if conn.state["v"] < v:
            await conn.wait_for(lambda f: f["type"] == "state" and f["v"] >= v)


async def version(room) -> int:
    return await sync_to_async(lambda: Match.objects.get(room=room).version)()


def state_frames(conn, since=0):
    return [f for f in conn.frames if f["type"] == "state" and f["v"] >= since]


# ------------------------------------------------------------ H4-X1 middle card


async def test_h4_x1_middle_sets_trump_from_d12_and_is_seen_by_all_until_the_partner_picks_it_up(
    connect, alice, bob, charlie, dave, fixed_deal
):
    room, players, watcher = await table(connect, [alice, bob, charlie, dave], {"middle_card": True})
    everyone = players + [watcher]
    named = await act(players[0], {"type": "trump", "suit": "middle"})
    await at_version(everyone, named["v"])
    for conn in everyone:
        view = conn.state["view"]
        assert view["middle"] == "9H" and view["trump"] == "H", conn.name  # d[12], its suit
    # Only the partner may pick it up: the others are refused and nothing changes.
    for conn in (players[0], players[1], players[3]):
        refused = await act(conn, {"type": "pick_up"}, ok=False)
        assert refused["code"] == "not_your_card" and refused["message"]
    assert await version(room) == named["v"]
    assert {"type": "pick_up"} in players[2].state["view"]["legal"]
    assert players[2].state["view"]["turn"] == 1  # not his turn: he picks it up all the same
    picked = await act(players[2], {"type": "pick_up"})
    await at_version(everyone, picked["v"])
    for conn in everyone:
        frame = next(f for f in state_frames(conn, picked["v"]))
        assert {"type": "middle_picked_up", "seat": 3} in frame["events"]
        assert frame["view"]["middle"] is None
        if conn is not players[2]:
            assert "9H" not in cards_in(frame), conn.name
    assert "9H" in players[2].state["view"]["hand"]
    again = await act(players[2], {"type": "pick_up"}, ok=False)
    assert again["code"] == "no_middle_card"


async def test_h4_x1_the_middle_card_stays_visible_until_the_partners_first_card(
    connect, alice, bob, charlie, dave, fixed_deal
):
    room, players, watcher = await table(connect, [alice, bob, charlie, dave], {"middle_card": True})
    everyone = players + [watcher]
    await act(players[0], {"type": "trump", "suit": "middle"})
    await act(players[0], {"type": "play", "card": "AD"})
    last = await act(players[1], {"type": "play", "card": "2D"})
    await at_version(everyone, last["v"])
    for conn in everyone:
        assert all(f["view"]["middle"] == "9H" for f in state_frames(conn) if f["view"]["phase"] == "play")
    first = await act(players[2], {"type": "play", "card": "5D"})
    await at_version(everyone, first["v"])
    for conn in everyone:
        assert conn.state["view"]["middle"] is None, conn.name
    assert "9H" in players[2].state["view"]["hand"]
    assert not [a for a in players[2].state["view"]["legal"] if a["type"] == "pick_up"]


async def test_h4_x1_laying_another_card_early_keeps_the_middle_card_up_until_it_is_played(
    connect, alice, bob, charlie, dave, fixed_deal
):
    """The H4-X1 Decision: a card laid face down early is not yet played."""
    room, players, watcher = await table(
        connect, [alice, bob, charlie, dave], {"middle_card": True, "early_play": True}
    )
    await act(players[0], {"type": "trump", "suit": "middle"})
    await act(players[0], {"type": "play", "card": "AD"})
    laid = await act(players[2], {"type": "early", "card": "5D"})
    await at_version(players + [watcher], laid["v"])
    for conn in players + [watcher]:
        assert conn.state["view"]["middle"] == "9H", conn.name
    played = await act(players[1], {"type": "play", "card": "2D"})  # his early 5D is turned and played
    await at_version(players + [watcher], played["v"])
    for conn in players + [watcher]:
        assert conn.state["view"]["middle"] is None, conn.name


async def test_h4_x1_laying_the_middle_card_itself_early_ends_its_visibility(
    connect, alice, bob, charlie, dave, fixed_deal
):
    room, players, watcher = await table(
        connect, [alice, bob, charlie, dave], {"middle_card": True, "early_play": True}
    )
    await act(players[0], {"type": "trump", "suit": "middle"})
    await act(players[0], {"type": "play", "card": "AH"})
    laid = await act(players[2], {"type": "early", "card": "9H"})
    await at_version(players + [watcher], laid["v"])
    for conn in players + [watcher]:
        assert conn.state["view"]["middle"] is None, conn.name
    assert players[2].state["view"]["my_early"] == "9H"
    assert all(conn.state["view"].get("my_early") is None for conn in players[:2] + players[3:] + [watcher])


async def test_h4_x1_rule_off_the_middle_choice_and_the_pick_up_are_refused(
    connect, alice, bob, charlie, dave, fixed_deal
):
    room, players, watcher = await table(connect, [alice, bob, charlie, dave], {"middle_card": False})
    assert {"type": "trump", "suit": "middle"} not in players[0].state["view"]["legal"]
    before = await version(room)
    refused = await act(players[0], {"type": "trump", "suit": "middle"}, ok=False)
    assert refused["code"] == "not_allowed" and refused["message"]
    assert await version(room) == before
    await act(players[0], {"type": "trump", "suit": "S"})
    refused = await act(players[2], {"type": "pick_up"}, ok=False)
    assert refused["code"] == "no_middle_card"
    for conn in players + [watcher]:
        await conn.pump()
        assert conn.state["view"]["middle"] is None


# ----------------------------------------------------------------- H4-X2 early


async def test_h4_x2_an_early_card_is_hidden_taken_back_played_on_time_and_waits_three_tricks(
    connect, alice, bob, charlie, dave, fixed_deal
):
    room, players, watcher = await table(
        connect, [alice, bob, charlie, dave], {"middle_card": False, "early_play": True}
    )
    a, b, c, d = players
    others = [a, b, d, watcher]
    await act(a, {"type": "trump", "suit": "S"})
    too_soon = await act(c, {"type": "early", "card": "8H"}, ok=False)  # no trick begun
    assert too_soon["code"] == "trick_not_begun"
    led = await act(a, {"type": "play", "card": "AH"})
    await at_version([c], led["v"])
    start = led["v"]
    laid = await act(c, {"type": "early", "card": "8H"})
    await at_version(players + [watcher], laid["v"])
    for conn in others:
        view = conn.state["view"]
        assert view["early"] == [False, False, True, False] and view["my_early"] is None
    assert c.state["view"]["my_early"] == "8H" and "8H" not in c.state["view"]["hand"]
    assert c.state["view"]["legal"] == [{"type": "take_back"}]
    back = await act(c, {"type": "take_back"})
    await at_version(players + [watcher], back["v"])
    assert c.state["view"]["early"] == [False] * 4 and "8H" in c.state["view"]["hand"]
    await act(c, {"type": "early", "card": "JH"})
    played = await act(b, {"type": "play", "card": "2H"})  # bob plays: charlie's JH turns over at once
    await at_version(players + [watcher], played["v"])
    for conn in players + [watcher]:
        frame = next(f for f in state_frames(conn, played["v"]))
        cards = [
            (e["seat"], e["card"], e.get("early", False))
            for e in frame["events"]
            if e["type"] == "card_played"
        ]
        assert cards == [(2, "2H", False), (3, "JH", True)], conn.name
        assert frame["view"]["turn"] == 4 and frame["view"]["early"] == [False] * 4
    # Neither card laid face down was ever in a frame of another viewer before it was played.
    for conn in others:
        for frame in state_frames(conn, start):
            if frame["v"] < played["v"]:
                assert not {"8H", "JH"} & cards_in(frame), (conn.name, frame["v"])
    # H4-X2: early in trick 1 allows the next from trick 5 (0-based 4); too soon is refused, nothing changes.
    won = await act(d, {"type": "play", "card": "3H"})
    await at_version([a, c], won["v"])
    assert c.state["view"]["early_from"][2] == 4
    await act(a, {"type": "play", "card": "AD"})
    before = await version(room)
    refused = await act(c, {"type": "early", "card": "5D"}, ok=False)
    assert refused["code"] == "early_wait" and refused["message"] not in ("", "early_wait")
    assert await version(room) == before
    assert not [x for x in c.state["view"]["legal"] if x["type"] == "early"]


async def test_h4_x2_rule_off_early_play_is_refused(connect, alice, bob, charlie, dave, fixed_deal):
    room, players, watcher = await table(connect, [alice, bob, charlie, dave], {"middle_card": False})
    await act(players[0], {"type": "trump", "suit": "S"})
    led = await act(players[0], {"type": "play", "card": "AH"})
    await at_version(players, led["v"])
    assert players[2].state["view"]["legal"] == []
    for action in ({"type": "early", "card": "8H"}, {"type": "take_back"}):
        refused = await act(players[2], action, ok=False)
        assert refused["code"] == "not_allowed"
    assert await version(room) == led["v"]


# ------------------------------------------------------------------ H4-X3 runs


async def test_h4_x3_a_run_leads_its_cards_on_consecutive_tricks_seen_by_all(
    connect, alice, bob, charlie, dave, fixed_deal
):
    room, players, watcher = await table(
        connect, [alice, bob, charlie, dave], {"middle_card": False, "lead_run": True}
    )
    a, b, c, d = players
    await act(a, {"type": "trump", "suit": "S"})
    await a.pump()
    runs = [x["cards"] for x in a.state["view"]["legal"] if x["type"] == "run"]
    assert ["AH", "KH", "QH"] in runs
    led = await act(a, {"type": "run", "cards": ["AH", "KH", "QH"]})
    await at_version(players + [watcher], led["v"])
    for conn in players + [watcher]:
        assert conn.state["view"]["run"] == {"seat": 1, "cards": ["KH", "QH"]}, conn.name
        assert conn.state["view"]["trick"] == [{"seat": 1, "card": "AH"}]
    for conn, card in ((b, "2H"), (c, "8H"), (d, "3H"), (b, "9S"), (c, "9H"), (d, "4H")):
        await act(conn, {"type": "play", "card": card})
    await watcher.wait_for(
        lambda f: (
            f["type"] == "state"
            and len(f["view"]["score"]["tricks"])
            and sum(f["view"]["score"]["tricks"]) == 2
        )
    )
    await watcher.pump(0.2)
    view = watcher.state["view"]
    assert view["run"] is None and view["trick"] == [
        {"seat": 1, "card": "QH"}
    ]  # the third lead, by the runner
    # Tricks in order: the runner's card leads each of the three, one per trick.
    leads = []
    for frame in state_frames(watcher, led["v"]):
        for e in frame["events"]:
            if e["type"] == "card_played" and e["seat"] == 1:
                leads.append(e["card"])
            if e["type"] == "trick_won":
                leads.append("|")
    assert leads == ["AH", "|", "KH", "|", "QH"]
    tricks = [e for f in state_frames(watcher) for e in f["events"] if e["type"] == "trick_won"]
    assert [t["seat"] for t in tricks] == [1, 2]  # the second was cut by seat 2, the run went on


async def test_h4_x3_rule_off_a_run_is_refused(connect, alice, bob, charlie, dave, fixed_deal):
    room, players, watcher = await table(connect, [alice, bob, charlie, dave], {"middle_card": False})
    trump = await act(players[0], {"type": "trump", "suit": "S"})
    await at_version(players, trump["v"])
    assert not [x for x in players[0].state["view"]["legal"] if x["type"] == "run"]
    refused = await act(players[0], {"type": "run", "cards": ["AH", "KH", "QH"]}, ok=False)
    assert refused["code"] == "not_allowed"
    assert await version(room) == trump["v"]
