"""Live play through the table socket (issue: rooms and live play; R-1, R-4, R-6, C-6)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from games.models import Match, Move
from rooms.models import Room

from .conftest import ROUND_END, cards_in, events_of, make_room, play_until, pump_all

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]


def hands_by_version(conns) -> dict[tuple[int, int], set[str]]:
    """(match, version) -> every card in some player's hand at that version, from the players' own frames."""
    hands: dict[tuple[int, int], set[str]] = {}
    for conn in conns:
        for frame in conn.frames:
            if frame["type"] == "state" and frame["view"].get("hand"):
                hands.setdefault((frame["match"], frame["v"]), set()).update(frame["view"]["hand"])
    return hands


def public_draw_cards(conns) -> set[str]:
    """H4-1: the ace draw is turned face up for everyone; its cards are public."""
    return {
        d["card"]
        for c in conns
        for f in c.frames
        if f["type"] == "state"
        for e in f["events"]
        if e["type"] == "hakem"
        for d in e.get("draw", [])
    }


def assert_public_only(watchers, players):
    hidden = hands_by_version(players)
    drawn = public_draw_cards(watchers)
    checked = 0
    for watcher in watchers:
        for frame in watcher.frames:
            if frame["type"] != "state":
                continue
            assert frame["view"]["viewer"] is None
            assert not frame["view"].get("hand"), "a spectator got a hand"
            secret = hidden.get((frame["match"], frame["v"]), set())
            shown = cards_in(frame)
            if any(e["type"] == "hakem" for e in frame["events"]):
                shown -= drawn
            leaked = shown & secret
            assert not leaked, f"{watcher.name} saw hand cards {leaked} at v{frame['v']}"
            checked += 1
    assert checked > 10


async def test_r_1_four_players_play_a_complete_hokm4_round(connect, alice, bob, charlie, dave, make_user):
    room = await sync_to_async(make_room)(alice, [bob, charlie, dave], rules={"middle_card": False})
    players = [await connect(room, u) for u in (alice, bob, charlie, dave)]
    visitor = await connect(room, None, "anonymous")
    eve = await connect(room, await sync_to_async(make_user)("eve"), "eve-spectator")
    await players[0].send({"type": "start"})
    await players[0].wait_for(lambda f: f["type"] == "state")

    await play_until(players, lambda: events_of(players[0], ROUND_END))
    await pump_all(players + [visitor, eve], 0.2)

    round_won = events_of(players[0], ROUND_END)[0]
    match = await sync_to_async(Match.objects.get)(room=room)
    tricks = [e for e in events_of(players[0], {"trick_won"})]
    assert max(len([t for t in tricks if t["seat"] in team]) for team in ((1, 3), (2, 4))) == 7  # H4-4
    assert round_won["type"] == "round_won"
    # Every accepted action is in the move log, one version each.
    moves = await sync_to_async(
        lambda: list(Move.objects.filter(match=match).values_list("seq", flat=True))
    )()
    assert moves == list(range(1, len(moves) + 1))
    assert_public_only([visitor, eve], players)


async def test_h2_a_two_player_table_plays_a_complete_hokm2_round(connect, alice, bob):
    room = await sync_to_async(make_room)(alice, [bob], game="hokm2")
    players = [await connect(room, u) for u in (alice, bob)]
    watcher = await connect(room, None, "watcher")
    await players[0].send({"type": "start"})
    await play_until(players, lambda: events_of(players[0], ROUND_END))
    await pump_all(players + [watcher], 0.2)
    drafts = await sync_to_async(
        lambda: Move.objects.filter(match__room=room, action__type="draft").count()
    )()
    assert drafts == 16  # H2-4: eight pairs each
    assert_public_only([watcher], players)


async def test_sh_3_four_players_play_a_shelem4_round_with_auction_and_widow(
    connect, alice, bob, charlie, dave
):
    room = await sync_to_async(make_room)(alice, [bob, charlie, dave], game="shelem4")
    players = [await connect(room, u) for u in (alice, bob, charlie, dave)]
    watcher = await connect(room, None, "watcher")
    await players[0].send({"type": "start"})

    def choose(view):
        legal = view["legal"]
        bids = [a for a in legal if a["type"] == "bid"]
        if bids and view["phase"] == "bidding":
            passes = [a for a in legal if a["type"] == "pass"]
            # open at 100, everyone else passes: a short, real auction (SH-3)
            return passes[0] if passes else min(bids, key=lambda a: a["amount"])
        return legal[0]

    await play_until(players, lambda: events_of(players[0], ROUND_END), choose=choose)
    await pump_all(players + [watcher], 0.2)
    kinds = await sync_to_async(
        lambda: list(Move.objects.filter(match__room=room).values_list("action", flat=True))
    )()
    types = [k.get("type") for k in kinds]
    assert "bid" in types and "pass" in types and "discard" in types
    assert_public_only([watcher], players)
    # SH-4: the widow and the cards put aside never reach anyone but the bidder
    discard = next(k for k in kinds if k.get("type") == "discard")
    if discard.get("cards"):
        for frame in watcher.frames:
            assert not cards_in(frame) & set(discard["cards"]) or frame["view"]["phase"] != "play"


async def test_r_6_the_room_answers_room_and_state_frames_to_a_late_spectator(
    connect, alice, bob, charlie, dave
):
    room = await sync_to_async(make_room)(alice, [bob, charlie, dave])
    first = await connect(room, alice)
    await first.send({"type": "start"})
    await first.wait_for(lambda f: f["type"] == "state")
    late = await connect(room, None, "late")
    assert late.room["room"]["status"] == Room.Status.PLAYING
    assert late.state["view"]["viewer"] is None and not late.state["view"].get("hand")
