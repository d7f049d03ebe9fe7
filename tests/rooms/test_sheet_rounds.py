"""Issue 15: a full state frame carries the match's finished rounds (`rounds`),
so a late joiner, a player who reloads and a spectator see the whole score
sheet, not only the rounds their page saw end.

The match is played through the play service (as the clock and the bots
would); after each round the engine's own result of it is noted from the
match's state (``last_result``, and the match score or the rubber's totals
as the views show them). A player who connects only then, and a spectator,
must find every one of those rounds, in order, in the first state frame.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async

from games import engine, services
from games.engine import CHANCE
from games.errors import PlayError
from games.models import Match
from rooms import services as room_service

from .conftest import make_room

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()


def documented(first_cell: str) -> set[str]:
    """The back-quoted names in the second cell of docs/protocol.md's table row whose first cell has ``first_cell``."""
    for line in DOC.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and first_cell in cells[0]:
            return set(re.findall(r"`([a-z_]+)`", cells[1]))
    raise AssertionError(f"no row for {first_cell} in docs/protocol.md")


def expected_row(name: str, state: dict) -> dict:
    """One round as the sheet lists it, from the engine's state right after it."""
    game = engine.get(name)
    view = game.view(state, None)
    if name.startswith("shelem"):
        return dict(view["score"]["last_result"])
    row = dict(view["last_result"])
    if name.startswith("hokm"):
        row["score"] = list(state["score"])  # rounds won after it (H4-6)
    elif not row.get("passed_out"):
        row["totals"] = list(view["score"]["totals"])  # both columns after the deal (B-10)
    return row


def play_rounds(room, creator, name: str, rounds: int, max_moves: int = 6000) -> tuple[int, list[dict]]:
    """Start ``room``'s match and play it until ``rounds`` rounds are over and the
    next one is under way (or the match ends); returns the match id and each round's row."""
    match = room_service.start(room, creator)
    game = engine.get(name)
    rows: list[dict] = []
    seen_rounds = set()
    for _ in range(max_moves):
        match.refresh_from_db()
        state = match.state
        result = state.get("last_result")
        if result and result["round"] not in seen_rounds:
            seen_rounds.add(result["round"])
            rows.append(expected_row(name, state))
        if match.status != Match.Status.ACTIVE:
            break
        to_act = game.to_act(state)
        if len(rows) >= rounds and not game.round_over(state) and CHANCE not in to_act:
            break
        try:
            if CHANCE in to_act:
                if services.expire(match.pk, match.version) is None:
                    time.sleep(0.02)  # the result pause (C-7) is not over yet
            else:
                seat = min(to_act)
                services.play(match.pk, game.auto_action(state, seat), seat=seat, version=match.version)
        except PlayError:
            continue  # the in-process clock moved first: look again
    return match.pk, rows


def play_one(match_id: int, name: str) -> bool:
    """One more move of an active match (False: the match is over)."""
    game = engine.get(name)
    for _ in range(200):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.ACTIVE:
            return False
        to_act = game.to_act(match.state)
        try:
            if CHANCE in to_act:
                if services.expire(match.pk, match.version) is not None:
                    return True
                time.sleep(0.02)
            else:
                seat = min(to_act)
                services.play(match.pk, game.auto_action(match.state, seat), seat=seat, version=match.version)
                return True
        except PlayError:
            continue
    return False


@pytest.mark.parametrize(
    "name, guests, rules, rounds",
    [
        ("hokm4", 3, {"middle_card": False}, 3),
        ("hokm2", 1, {}, 2),
        ("shelem4", 3, {}, 2),
        ("bridge", 3, {}, 3),
    ],
)
async def test_a_late_joiners_full_frame_carries_every_past_round(
    connect, make_user, name, guests, rules, rounds
):
    users = [await sync_to_async(make_user)(f"p{i}_{name}") for i in range(guests + 1)]
    room = await sync_to_async(make_room)(users[0], users[1:], game=name, rules=rules)
    match_id, expected = await sync_to_async(play_rounds)(room, users[0], name, rounds)
    assert len(expected) >= rounds, expected

    player = await connect(room, users[-1], "returning player")
    watcher = await connect(room, None, "late spectator")
    for conn in (player, watcher):
        frame = conn.state
        assert frame["full"] is True and frame["match"] == match_id
        assert frame["rounds"] == expected, conn.name
        assert [r["round"] for r in frame["rounds"]] == sorted(r["round"] for r in expected)
    # The same list for every viewer class: each round was public when it ended.
    assert player.state["view"]["viewer"] == guests + 1 and watcher.state["view"]["viewer"] is None

    # Every field of the frame and of each round is in docs/protocol.md.
    assert set(player.state) <= documented("`state`") | {"type"}
    for row in expected:
        assert set(row) <= documented(f"`{name}`"), row

    # After a sync, the same again.
    await player.send({"type": "sync"})
    again = await player.wait_for(lambda f: f["type"] == "state")
    assert again["full"] and again["rounds"] == expected
    # A live frame (one per version, built in the play path) does not read the log.
    done = await sync_to_async(play_one)(match_id, name)
    if done:
        live = await watcher.wait_for(lambda f: f["type"] == "state" and not f["full"])
        assert "rounds" not in live


async def test_a_match_without_a_finished_round_has_no_rounds(connect, alice, bob):
    room = await sync_to_async(make_room)(alice, [bob], game="hokm2")
    await sync_to_async(room_service.start)(room, alice)
    conn = await connect(room, bob)
    assert conn.state["full"] and conn.state["rounds"] == []
