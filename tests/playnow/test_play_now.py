"""M-1, M-3: Play now seats people at once, bots after the wait, friends as partners."""

from __future__ import annotations

import pytest

from friends.models import Friendship
from games.errors import PlayError
from games.models import Match
from playnow import lobby, services
from playnow.models import Table
from ratings.models import Rating
from rooms import services as room_service
from rooms.models import Room, Seat
from tests.leaderboard.conftest import play_out

pytestmark = pytest.mark.django_db


def who(table) -> dict:
    return {
        s.number: ("bot" if s.is_bot else s.user.username if s.user_id else None)
        for s in Seat.objects.filter(room_id=table.room_id).select_related("user")
    }


def status_of(table) -> str:
    return Room.objects.get(pk=table.room_id).status


def test_m1_two_people_pressing_hokm2_sit_together_and_start_at_once(people):
    a, b = people[:2]
    t1 = services.press(a, "hokm2")
    assert status_of(t1) == "waiting"
    t2 = services.press(b, "hokm2")
    assert t1.pk == t2.pk
    assert who(t1) == {1: "n0", 2: "n1"}
    assert status_of(t1) == "playing"
    match = Match.objects.get(room_id=t1.room_id)
    assert not match.practice and match.rules["target"] == 7


@pytest.mark.parametrize("count", [3, 4])
def test_m1_three_and_four_people_pressing_hokm4_sit_at_one_table(people, count):
    tables = {services.press(p, "hokm4").pk for p in people[:count]}
    assert len(tables) == 1
    table = Table.objects.get(pk=tables.pop())
    assert sorted(n for n in who(table).values() if n) == [p.username for p in people[:count]]
    assert status_of(table) == ("playing" if count == 4 else "waiting")


def test_m1_pressing_twice_keeps_one_seat(people):
    a = people[0]
    t1 = services.press(a, "shelem4")
    t2 = services.press(a, "shelem4")
    assert t1.pk == t2.pk
    assert Seat.objects.filter(user=a).count() == 1


def test_m1_different_presets_never_share_a_table(people):
    a, b = people[:2]
    assert services.press(a, "shelem4").pk != services.press(b, "shelem4j").pk
    assert Table.objects.get(room__seats__user=b).room.rules["jokers"] is True


def test_m1_bots_fill_the_empty_seats_after_the_wait(people, later):
    a = people[0]
    table = services.press(a, "hokm4")
    assert services.fill_due() == 0  # not yet
    later(19)
    assert lobby.sweep()["filled"] == 0
    later(2)
    assert services.fill_due() == 1
    assert services.fill_due() == 0  # a second sweep does nothing
    assert services.fill(table.pk) is False
    assert who(table) == {1: "n0", 2: "bot", 3: "bot", 4: "bot"}
    assert status_of(table) == "playing"
    assert Match.objects.get(room_id=table.room_id).practice  # L-2


def test_m1_bots_now_fills_at_once(people):
    a, b = people[:2]
    table = services.press(a, "hokm4")
    services.press(b, "hokm4")
    assert services.bots_now(b, table.pk) is True
    assert who(table) == {1: "n0", 2: "n1", 3: "bot", 4: "bot"}
    assert status_of(table) == "playing"


def test_m1_bots_now_refused_for_someone_not_at_the_table(people):
    a, b = people[:2]
    table = services.press(a, "hokm4")
    with pytest.raises(PlayError) as err:
        services.bots_now(b, table.pk)
    assert err.value.code == "not_at_table"
    assert status_of(table) == "waiting"


def test_m1_unknown_preset_is_refused_and_changes_nothing(people):
    with pytest.raises(PlayError) as err:
        services.press(people[0], "poker")
    assert err.value.code == "bad_preset"
    assert Room.objects.count() == 0


def test_m1_a_late_arrival_takes_a_bots_seat_between_matches_only(people):
    a, b = people[:2]
    table = services.press(a, "hokm2", bots_now=True)
    assert who(table) == {1: "n0", 2: "bot"}
    # During the match: the later person gets a table of his own.
    other = services.press(b, "hokm2")
    assert other.pk != table.pk
    services.bots_now(b, other.pk)
    match = Match.objects.get(room_id=table.room_id)
    play_out(match.pk)
    assert status_of(table) == "finished"
    c = people[2]
    taken = services.press(c, "hokm2")
    assert taken.pk == table.pk
    assert who(table) == {1: "n0", 2: "n2"}
    # Play again: both people agree, the next match is between people.
    room = Room.objects.get(pk=table.room_id)
    room_service.rematch(room, a)
    assert room_service.rematch(room, c) is not None
    assert not Match.objects.filter(room_id=table.room_id).order_by("-id").first().practice


def test_m1_a_player_in_a_match_is_refused(people):
    a, b = people[:2]
    table = services.press(a, "hokm2")
    services.press(b, "hokm2")
    with pytest.raises(PlayError) as err:
        services.press(a, "hokm4")
    assert err.value.code == "playing_elsewhere"
    assert status_of(table) == "playing"


def test_m3_far_ratings_wait_apart_until_the_window_widens(people, later):
    a, b, c = people[:3]
    Rating.objects.create(user=a, game="hokm4", mu=40, sigma=1, matches=30)  # shown 2240
    Rating.objects.create(user=b, game="hokm4", mu=23, sigma=1, matches=30)  # shown 1900
    Rating.objects.create(user=c, game="hokm4", mu=39, sigma=1, matches=30)  # shown 2220
    strong = services.press(a, "hokm4")
    apart = services.press(b, "hokm4")  # 340 away, the window is 150 at first
    assert apart.pk != strong.pk
    assert services.press(c, "hokm4").pk == strong.pk  # 20 away: the closer table
    room_service.stand(apart.room, b)
    later(10)  # the strong table has waited 10 s: its window is 150 + 25 x 10 = 400
    assert services.press(b, "hokm4").pk == strong.pk


def befriend(a, b):
    low, high = Friendship.pair(a.pk, b.pk)
    Friendship.objects.create(low_id=low, high_id=high, requested_by=a, status=Friendship.Status.ACCEPTED)


def test_m3_a_party_of_two_friends_sit_as_partners(people):
    a, b, c = people[:3]
    befriend(a, b)
    services.press(c, "hokm4")  # c waits at seat 1: the pair takes 2 and 4
    assert services.press_together(a, "n1", "hokm4") is None  # waits for the friend
    table = services.press_together(b, "n0", "hokm4")
    seats = {v: k for k, v in who(table).items() if v}
    assert seats["n0"] % 2 == seats["n1"] % 2  # partners (C-2)
    assert seats["n2"] == 1


def test_m3_a_party_opens_a_table_when_none_fits(people):
    a, b = people[:2]
    befriend(a, b)
    services.press_together(a, "n1", "shelem4")
    table = services.press_together(b, "n0", "shelem4")
    assert who(table) == {1: "n0", 2: None, 3: "n1", 4: None}


def test_m3_strangers_cannot_press_together(people):
    with pytest.raises(PlayError) as err:
        services.press_together(people[0], "n1", "hokm4")
    assert err.value.code == "not_friends"


def test_m1_a_seat_taken_from_the_room_page_sends_the_next_person_to_another_seat(people):
    a, b, c = people[:3]
    table = services.press(a, "hokm4")
    room_service.sit(table.room, b, 2)  # from the room's own page, not Play now
    assert services.press(c, "hokm4").pk == table.pk
    assert who(table) == {1: "n0", 2: "n1", 3: "n2", 4: None}
