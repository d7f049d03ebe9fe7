"""M-5: a table whose people have all gone is closed for real, once.

Decision followed: L-5 (being disconnected is not leaving: no penalty) with
L-3's decision for the players who did not leave: a match still being played
at a closed table ends with no leaver and is "unfinished" for every player,
neither win nor loss, and not rated (M-2).
"""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection

from games.models import Match
from infra import presence
from leaderboard.models import LedgerEntry
from playnow import lobby, services
from ratings.models import RatedMatch, Rating
from rooms.models import Room, Seat

pytestmark = pytest.mark.django_db

TEN_MINUTES = 10 * 60


def _people_only_match(a, b):
    table = services.press(a, "hokm2")
    assert services.press(b, "hokm2").pk == table.pk
    match = Match.objects.get(room_id=table.room_id)
    assert match.status == "active" and not match.practice
    return table, match


def test_m5_a_people_only_match_nobody_is_connected_at_for_ten_minutes_is_closed_and_ended(alice, bob, later):
    table, match = _people_only_match(alice, bob)
    assert [t["code"] for t in lobby.snapshot("en")["watch"]] == [table.room.code]
    assert lobby.close_abandoned() == 0  # first seen now
    later(TEN_MINUTES - 60)
    assert lobby.close_abandoned() == 0
    assert Match.objects.get(pk=match.pk).status == "active"
    later(61)
    assert lobby.close_abandoned() == 1
    match.refresh_from_db()
    room = Room.objects.get(pk=table.room_id)
    # The match ended with no leaver (L-5): nobody pays, both are "unfinished" (L-3's decision).
    assert match.status == "abandoned" and match.leaver_seat is None
    assert match.deadlines == {} and match.next_deadline is None
    entries = sorted(
        LedgerEntry.objects.filter(match=match).values_list("user__username", "result", "points")
    )
    assert entries == [("alice", "unfinished", 0), ("bob", "unfinished", 0)]
    # Not rated (M-2: only a confirmed leave rates, and only the leaver).
    assert not RatedMatch.objects.filter(match=match).exists() and Rating.objects.count() == 0
    # The room closed: nobody seated, gone from the lobby.
    assert room.status == "finished"
    assert not Seat.objects.filter(room=room, user__isnull=False).exists()
    snap = lobby.snapshot("en")
    assert snap["waiting"] == [] and snap["watch"] == [] and snap["playing"] == 0
    # The people are free to play again.
    assert services.press(alice, "hokm4").room_id != table.room_id


def test_m5_closing_twice_closes_once(alice, bob, later):
    table, match = _people_only_match(alice, bob)
    lobby.close_abandoned()
    later(TEN_MINUTES + 1)
    assert lobby.close_abandoned() == 1
    assert lobby.close_abandoned() == 0  # the next sweep: nothing left to close
    room = Room.objects.get(pk=table.room_id)
    assert lobby.close(room) is False
    assert LedgerEntry.objects.filter(match=match).count() == 2


def test_m5_a_person_connected_keeps_the_people_only_match_going(alice, bob, later):
    table, match = _people_only_match(alice, bob)
    lobby.close_abandoned()
    later(TEN_MINUTES + 1)
    presence.store().touch(table.room.code, "conn-b", f"u:{bob.pk}", 1)
    assert lobby.close_abandoned() == 0
    assert Match.objects.get(pk=match.pk).status == "active"
    assert Room.objects.get(pk=table.room_id).status == "playing"


def test_m5_a_practice_table_whose_person_is_gone_costs_him_nothing(alice, later):
    table = services.press(alice, "hokm4", bots_now=True)
    match = Match.objects.get(room_id=table.room_id)
    assert match.practice
    lobby.close_abandoned()
    later(TEN_MINUTES + 1)
    assert lobby.close_abandoned() == 1
    match.refresh_from_db()
    assert match.status == "abandoned" and match.leaver_seat is None  # L-5: not a leave
    assert list(LedgerEntry.objects.filter(match=match).values_list("result", "points", "practice")) == [
        ("unfinished", 0, True)
    ]
    assert Room.objects.get(pk=table.room_id).status == "finished"


@pytest.mark.django_db(transaction=True)
def test_m5_two_workers_sweeping_at_once_close_a_table_once(make_user, settings, later):
    a, b = make_user("w1"), make_user("w2")
    table, match = _people_only_match(a, b)
    lobby.close_abandoned()
    later(TEN_MINUTES + 1)
    start = threading.Barrier(2)
    results, errors = [], []

    def sweep():
        try:
            start.wait()
            results.append(lobby.close_abandoned())
        except Exception as exc:  # noqa: BLE001 - counted below
            errors.append(exc)
        finally:
            connection.close()

    workers = [threading.Thread(target=sweep) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=30)
    assert errors == []
    assert sorted(results) == [0, 1]
    assert LedgerEntry.objects.filter(match=match).count() == 2
    assert Match.objects.get(pk=match.pk).status == "abandoned"


@pytest.mark.django_db(transaction=True)
async def test_m5_the_lobby_socket_drops_a_closed_people_only_table_on_its_next_update(
    settings, make_user, later
):
    """M-5: the closed table leaves a live lobby without a reload: the socket's
    next snapshot after the close no longer lists it, and its match has ended."""
    from asgiref.sync import sync_to_async

    from .test_lobby_live import until, viewer

    settings.LOBBY_TICK_SECONDS = 0.2
    a, b = await sync_to_async(make_user)("gone1"), await sync_to_async(make_user)("gone2")
    comm = await viewer()  # looking before the table opens
    table, match = await sync_to_async(_people_only_match)(a, b)
    code = await sync_to_async(lambda: table.room.code)()
    await until(comm, lambda s: [t["code"] for t in s["watch"]] == [code], 5)
    assert await sync_to_async(lobby.close_abandoned)() == 0  # first seen now
    later(TEN_MINUTES + 1)
    assert await sync_to_async(lobby.close_abandoned)() == 1
    snap = json.loads(await comm.receive_from(timeout=5))  # the very next update
    assert snap["watch"] == [] and snap["waiting"] == [] and snap["playing"] == 0
    assert all(t["code"] != code for t in snap["watch"] + snap["waiting"])
    ended = await sync_to_async(lambda: Match.objects.get(pk=match.pk).status)()
    assert ended == "abandoned"
    assert await comm.receive_nothing(timeout=0.6)  # and nothing more: it changed once
    await comm.disconnect()
