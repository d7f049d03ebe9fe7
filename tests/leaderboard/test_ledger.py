"""The ledger: points (L-1), practice (L-2), leaving (L-3, L-4), written once."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from games.engine.seats import team_of
from games.errors import PlayError
from games.models import Match
from leaderboard import ledger
from leaderboard.models import LedgerEntry
from leaderboard.stats import player_stats, ranking
from rooms import services as room_service
from rooms.models import Room

from .conftest import abandon, build_match, finished, play_out, started_room

pytestmark = pytest.mark.django_db


def entries(match) -> dict[str, tuple[int, str]]:
    return {
        e.user.username: (e.points, e.result)
        for e in LedgerEntry.objects.filter(match=match).select_related("user")
    }


def totals(family="hokm") -> dict[str, int]:
    return {row["username"]: row["points"] for row in ranking(family)}


@pytest.fixture
def four(alice, bob, charlie, dave):
    return [alice, bob, charlie, dave]


# --- L-1: points ---------------------------------------------------------------------


def test_l_1_hokm4_7_to_5_gives_each_player_his_sides_round_wins(four):
    match = finished("hokm4", four, winner=0, score=[7, 5])
    assert entries(match) == {
        "alice": (7, "win"),
        "charlie": (7, "win"),
        "bob": (5, "loss"),
        "dave": (5, "loss"),
    }
    entry = LedgerEntry.objects.get(match=match, user=four[0])
    assert (entry.game, entry.family, entry.practice, entry.voided) == ("hokm4", "hokm", False, False)


def test_l_1_hokm4_7_to_0_gives_the_side_without_a_round_minus_one(four):
    match = finished("hokm4", four, winner=1, score=[0, 7])
    assert entries(match) == {
        "alice": (-1, "loss"),
        "charlie": (-1, "loss"),
        "bob": (7, "win"),
        "dave": (7, "win"),
    }


def test_l_1_hokm2_each_seat_is_its_own_side(alice, bob):
    match = finished("hokm2", [alice, bob], winner=1, score=[4, 7])
    assert entries(match) == {"alice": (4, "loss"), "bob": (7, "win")}
    match = finished("hokm2", [alice, bob], winner=0, score=[7, 0])
    assert entries(match) == {"alice": (7, "win"), "bob": (-1, "loss")}


def test_l_1_shelem4_gives_both_sides_their_signed_totals(four):
    match = finished("shelem4", four, winner=0, score=[1240, -330])
    assert entries(match) == {
        "alice": (1240, "win"),
        "charlie": (1240, "win"),
        "bob": (-330, "loss"),
        "dave": (-330, "loss"),
    }
    assert totals("shelem") == {"alice": 1240, "charlie": 1240, "bob": -330, "dave": -330}
    assert totals("hokm") == {}


def test_l_1_shelem2_a_negative_winner_side_is_still_recorded_signed(alice, bob):
    match = finished("shelem2", [alice, bob], winner=1, score=[-150, 620])
    assert entries(match) == {"alice": (-150, "loss"), "bob": (620, "win")}


def test_l_1_bridge_records_each_players_rubber_total(four):
    match = finished("bridge", four, winner=1, score=[350, 820])
    assert entries(match) == {
        "alice": (350, "loss"),
        "charlie": (350, "loss"),
        "bob": (820, "win"),
        "dave": (820, "win"),
    }
    assert totals("bridge") == {"bob": 820, "dave": 820, "alice": 350, "charlie": 350}


def test_l_1_a_real_hokm4_match_played_through_the_services_writes_its_ledger(four):
    _, match = started_room(four[0], four[1:], rules={"target": 3, "middle_card": False})
    match = play_out(match.pk)
    assert match.status == Match.Status.FINISHED
    score, winner = match.result["score"], match.result["winner"]
    assert max(score) == 3
    assert match.moves.count() > 50  # really played, card by card
    got = entries(match)
    assert len(got) == 4
    for p in match.players:  # seats may have moved (H4-X6): the match's final players
        team = team_of(p["seat"], 4)
        expected = score[team] if score[team] > 0 else -1
        assert got[p["username"]] == (expected, "win" if team == winner else "loss")


# --- L-2: practice ---------------------------------------------------------------------


def test_l_2_a_practice_match_leaves_the_leaderboard_and_stats_unchanged(four, alice):
    finished("hokm4", four, winner=0, score=[7, 5])
    before_totals, before_stats = totals(), player_stats(alice)

    room = room_service.practice(alice, "hokm4")  # the real "play now with bots"
    match = room.matches.get()
    assert match.practice
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        ledger_result = {"winner": 0, "score": [7, 0]}
        from games import accept

        accept.finish(locked, ledger_result)

    # Decision: the human gets an entry marked practice (the match stays on
    # record); bots get none; nothing of it counts anywhere.
    assert list(LedgerEntry.objects.filter(match=match).values_list("user__username", "practice")) == [
        ("alice", True)
    ]
    assert totals() == before_totals
    assert player_stats(alice) == before_stats


def test_l_2_leaving_a_practice_match_costs_nothing_on_the_leaderboard(alice, bob):
    finished("hokm2", [alice, bob], winner=0, score=[7, 3])
    before = totals()
    match = build_match("hokm4", [alice, bob], bots=(2, 4))
    abandon(match, 1)
    assert entries(match) == {"alice": (-2, "left"), "bob": (0, "unfinished")}
    assert set(LedgerEntry.objects.filter(match=match).values_list("practice", flat=True)) == {True}
    assert totals() == before


def test_l_2_no_entry_is_ever_written_for_a_bot(alice):
    match = finished("hokm2", [alice], winner=1, score=[2, 7], bots=(2,))
    assert LedgerEntry.objects.filter(match=match).count() == 1


# --- L-3 / L-4: leaving ----------------------------------------------------------------------


def test_l_3_a_hokm_leaver_gets_minus_two_and_a_loss_the_others_unfinished(four, alice, bob, charlie, dave):
    finished("hokm4", four, winner=0, score=[7, 5])  # earlier record: 7, 5, 7, 5
    before = totals()
    room, match = started_room(alice, [bob, charlie, dave])

    with pytest.raises(PlayError) as refused:  # only after a confirmation
        room_service.leave(room, bob)
    assert refused.value.code == "confirm_required"
    assert not LedgerEntry.objects.filter(match=match).exists()

    outcome = room_service.leave(room, bob, confirm=True)
    assert outcome["cost"] == "hokm"
    match.refresh_from_db()
    assert (match.status, match.leaver_seat) == (Match.Status.ABANDONED, 2)
    assert entries(match) == {
        "bob": (-2, "left"),
        "alice": (0, "unfinished"),
        "charlie": (0, "unfinished"),
        "dave": (0, "unfinished"),
    }
    after = totals()
    assert after["bob"] == before["bob"] - 2
    assert {k: after[k] for k in ("alice", "charlie", "dave")} == {
        k: before[k] for k in ("alice", "charlie", "dave")
    }
    bob_stats, dave_stats = player_stats(bob)["hokm"], player_stats(dave)["hokm"]
    assert (bob_stats["matches"], bob_stats["wins"], bob_stats["losses"], bob_stats["left"]) == (2, 0, 2, 1)
    assert (dave_stats["matches"], dave_stats["wins"], dave_stats["losses"], dave_stats["unfinished"]) == (
        2,
        0,
        1,
        1,
    )


def test_l_3_a_shelem_leaver_gets_minus_one_hundred(four, alice, bob, charlie, dave):
    finished("shelem4", four, winner=1, score=[-80, 655])
    room, match = started_room(alice, [bob, charlie, dave], game="shelem4")
    room_service.leave(room, charlie, confirm=True)
    assert entries(match) == {
        "charlie": (-100, "left"),
        "alice": (0, "unfinished"),
        "bob": (0, "unfinished"),
        "dave": (0, "unfinished"),
    }
    assert totals("shelem") == {"bob": 655, "dave": 655, "alice": -80, "charlie": -180}


def test_l_3_a_bridge_leaver_gets_no_points_but_a_loss(four, alice, bob, charlie, dave):
    room, match = started_room(alice, [bob, charlie, dave], game="bridge")
    room_service.leave(room, dave, confirm=True)
    assert entries(match) == {
        "dave": (0, "left"),
        "alice": (0, "unfinished"),
        "bob": (0, "unfinished"),
        "charlie": (0, "unfinished"),
    }
    assert player_stats(dave)["bridge"]["losses"] == 1


def test_l_3_a_hokm2_leaver(alice, bob):
    room, match = started_room(alice, [bob], game="hokm2")
    room_service.leave(room, alice, confirm=True)
    assert entries(match) == {"alice": (-2, "left"), "bob": (0, "unfinished")}


def test_l_4_leaving_a_full_room_before_the_start_costs_nothing(alice, bob, charlie, dave):
    room = room_service.create_room(alice, "hokm4")
    for number, guest in ((2, bob), (3, charlie), (4, dave)):
        room_service.sit(room, guest, number)
        room_service.set_ready(room, guest, True)
    assert room_service.leave(room, bob) == {"left": True, "cost": None}
    assert room_service.leave(room, alice) == {"left": True, "cost": None}
    assert not Match.objects.filter(room=room).exists()
    assert not LedgerEntry.objects.exists()


def test_l_4_leaving_after_the_end_costs_nothing(alice, bob, charlie, dave):
    room, match = started_room(alice, [bob, charlie, dave], rules={"target": 3, "middle_card": False})
    play_out(match.pk)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    before = entries(match)
    before_totals = totals()
    assert len(before) == 4

    assert room_service.leave(room, bob, confirm=True) == {"left": True, "cost": None}
    assert room_service.leave(room, alice) == {"left": True, "cost": None}
    assert entries(match) == before
    assert totals() == before_totals
    assert LedgerEntry.objects.count() == 4


# --- written once ---------------------------------------------------------------------


def test_l_1_the_ledger_is_written_once_and_never_edited(four):
    match = finished("hokm4", four, winner=0, score=[7, 5])
    assert ledger.write_ledger(match) == []  # idempotent: a second call writes nothing
    assert LedgerEntry.objects.filter(match=match).count() == 4

    entry = LedgerEntry.objects.get(match=match, user=four[0])
    entry.points = 100
    with pytest.raises(ValueError):
        entry.save()
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerEntry.objects.create(
            match=match, user=four[0], game="hokm4", family="hokm", seat=1, points=7, result="win"
        )
    assert LedgerEntry.objects.get(match=match, user=four[0]).points == 7


def test_l_1_the_unique_constraint_stops_a_writer_that_missed_the_first_write(four, monkeypatch):
    match = finished("hokm4", four, winner=0, score=[7, 5])
    monkeypatch.setattr(ledger, "_already_written", lambda match_id: False)
    assert ledger.write_ledger(match) == []  # the insert failed on the constraint, quietly
    assert LedgerEntry.objects.filter(match=match).count() == 4


def test_l_1_an_active_match_gets_no_ledger(four):
    match = build_match("hokm4", four)
    assert ledger.write_ledger(match) == []
    assert not LedgerEntry.objects.exists()
