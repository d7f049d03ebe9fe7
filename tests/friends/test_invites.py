"""R-9 invites: ten minutes' validity on a settable clock, refused once the
match started or the room filled up, and never moving a seated player
without asking (L-3 and L-4 for leaving the other room)."""

from __future__ import annotations

import pytest

from friends import services
from friends.errors import FriendError
from friends.models import Invite
from games.models import Match
from leaderboard.models import LedgerEntry
from rooms import services as room_service
from rooms.models import Room, Seat

from .conftest import befriend, make_room

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting(alice, bob):
    """alice sits alone in a waiting hokm4 room; bob is her friend."""
    befriend(alice, bob)
    return room_service.create_room(alice, "hokm4", {})


def refused(code, func, *args, **kwargs):
    with pytest.raises(FriendError) as info:
        func(*args, **kwargs)
    assert info.value.code == code, info.value.code
    return info.value


def seat_room(user):
    return set(Seat.objects.filter(user=user).values_list("room__code", flat=True))


def test_r9_an_invite_accepted_at_nine_minutes_seats_the_friend(at, alice, bob, waiting):
    at(0)
    invite = services.invite(alice, "bob")
    assert invite.room == waiting
    at(minutes=9)
    result = services.accept_invite(bob, invite.pk)
    assert result == {"status": "seated", "room": waiting.code}
    assert seat_room(bob) == {waiting.code}
    invite.refresh_from_db()
    assert invite.status == Invite.Status.ACCEPTED


def test_r9_an_invite_at_ten_minutes_and_one_second_is_refused_as_expired(at, alice, bob, waiting):
    at(0)
    invite = services.invite(alice, "bob")
    at(minutes=10)
    assert list(services.pending_invites(bob)) == [invite]  # exactly ten minutes: still valid
    at(minutes=10, seconds=1)
    refused("invite_expired", services.accept_invite, bob, invite.pk)
    assert list(services.pending_invites(bob)) == []
    assert seat_room(bob) == set()


def test_r9_an_invite_to_a_room_whose_match_started_is_refused(alice, bob, charlie, dave, make_user, waiting):
    invite = services.invite(alice, "bob")
    for number, guest in ((2, charlie), (3, dave), (4, make_user("erin"))):
        room_service.sit(waiting, guest, number)
        room_service.set_ready(waiting, guest, True)
    room_service.start(waiting, alice)
    refused("match_started", services.accept_invite, bob, invite.pk)
    assert seat_room(bob) == set()


def test_r9_an_invite_to_a_full_room_is_refused(alice, bob, charlie, dave, make_user, waiting):
    invite = services.invite(alice, "bob")
    for number, guest in ((2, charlie), (3, dave), (4, make_user("erin"))):
        room_service.sit(waiting, guest, number)
    refused("room_full", services.accept_invite, bob, invite.pk)
    # and no new invite can be sent to a full room either
    refused("room_full", services.invite, alice, "bob")


def test_r9_only_friends_are_invited_and_only_to_a_room_you_sit_in(alice, bob, charlie, waiting):
    refused("not_friends", services.invite, alice, "charlie")
    refused("not_seated", services.invite, charlie, "alice")
    services.block(bob, "alice")
    refused("not_friends", services.invite, alice, "bob")  # the block ended the friendship


def test_r9_accepting_while_seated_elsewhere_asks_first_and_changes_nothing(alice, bob, charlie, waiting):
    other = room_service.create_room(charlie, "hokm2", {})
    room_service.sit(other, bob, 2)
    invite = services.invite(alice, "bob")

    error = refused("seated_elsewhere", services.accept_invite, bob, invite.pk)
    assert error.detail == {"room": other.code, "playing": False}
    assert seat_room(bob) == {other.code}  # not silently unseated
    assert Invite.objects.get(pk=invite.pk).status == Invite.Status.PENDING

    assert services.accept_invite(bob, invite.pk, choice="stay") == {"status": "stayed", "room": other.code}
    assert seat_room(bob) == {other.code}

    # L-4: leaving a room before its match started costs nothing.
    assert services.accept_invite(bob, invite.pk, choice="leave")["status"] == "seated"
    assert seat_room(bob) == {waiting.code}
    assert not LedgerEntry.objects.filter(user=bob).exists()


def test_r9_l3_leaving_an_active_match_for_an_invite_needs_the_confirmation(
    alice, bob, charlie, dave, waiting
):
    busy = make_room(charlie, [bob], game="hokm2")
    room_service.start(busy, charlie)
    invite = services.invite(alice, "bob")

    refused("seated_elsewhere", services.accept_invite, bob, invite.pk)
    error = refused("confirm_leave", services.accept_invite, bob, invite.pk, choice="leave")
    assert error.detail["room"] == busy.code and error.detail["points"] == room_service.leave_points("hokm2")
    assert seat_room(bob) == {busy.code}  # the refused leave rolled back
    assert Match.objects.get(room=busy).status == Match.Status.ACTIVE

    assert services.accept_invite(bob, invite.pk, choice="leave", confirm=True)["status"] == "seated"
    assert seat_room(bob) == {waiting.code}
    match = Match.objects.get(room=busy)
    assert match.status != Match.Status.ACTIVE and match.leaver_seat == 2
    assert Room.objects.get(pk=busy.pk).status == Room.Status.WAITING


def test_r9_the_friends_page_asks_before_moving_a_seated_player(client, alice, bob, charlie, waiting):
    other = room_service.create_room(charlie, "hokm2", {})
    room_service.sit(other, bob, 2)
    invite = services.invite(alice, "bob")
    client.force_login(bob)
    page = client.get("/friends/")
    assert f'data-invite="{invite.pk}"' in page.content.decode()

    response = client.post(f"/friends/invites/{invite.pk}/accept/")
    assert response.status_code == 409
    html = response.content.decode()
    assert 'data-testid="stay"' in html and 'data-testid="leave-and-sit"' in html
    assert seat_room(bob) == {other.code}

    response = client.post(f"/friends/invites/{invite.pk}/accept/", {"choice": "stay"})
    assert response.status_code == 302 and response["Location"] == f"/rooms/{other.code}/"
    response = client.post(f"/friends/invites/{invite.pk}/accept/", {"choice": "leave"})
    assert response.status_code == 302 and response["Location"] == f"/rooms/{waiting.code}/"
    assert seat_room(bob) == {waiting.code}


def test_r9_l3_the_page_names_the_penalty_before_leaving_an_active_match(
    client, alice, bob, charlie, waiting
):
    busy = make_room(charlie, [bob], game="hokm2")
    room_service.start(busy, charlie)
    invite = services.invite(alice, "bob")
    client.force_login(bob)
    response = client.post(f"/friends/invites/{invite.pk}/accept/", {"choice": "leave"})
    assert response.status_code == 409
    html = response.content.decode()
    assert 'data-testid="leave-cost"' in html and 'name="confirm" value="1"' in html
    assert seat_room(bob) == {busy.code}
    response = client.post(f"/friends/invites/{invite.pk}/accept/", {"choice": "leave", "confirm": "1"})
    assert response.status_code == 302 and seat_room(bob) == {waiting.code}


def test_r9_a_player_page_offers_add_friend_and_report(client, alice, bob):
    client.force_login(alice)
    html = client.get("/leaderboard/players/bob/").content.decode()
    assert 'data-testid="player-social"' in html and "?report=bob" in html
    html = client.get("/friends/?report=bob").content.decode()
    assert 'value="bob"' in html


def test_r9_an_invite_is_dead_once_its_match_began_even_after_a_leaver_reopened_the_room(
    alice, bob, charlie, dave, make_user, waiting
):
    """The match started: a player who left it (L-3) puts the room back to
    waiting with an empty seat, but the invite sent before stays refused."""
    invite = services.invite(alice, "bob")
    erin = make_user("erin")
    for number, guest in ((2, charlie), (3, dave), (4, erin)):
        room_service.sit(waiting, guest, number)
        room_service.set_ready(waiting, guest, True)
    room_service.start(waiting, alice)
    room_service.leave(waiting, erin, confirm=True)
    waiting.refresh_from_db()
    assert waiting.status == Room.Status.WAITING and any(s.is_empty for s in waiting.seats.all())
    refused("match_started", services.accept_invite, bob, invite.pk)
    assert seat_room(bob) == set()
    # A new invite to the reopened room is a new one, and it works.
    fresh = services.invite(alice, "bob")
    assert services.accept_invite(bob, fresh.pk)["status"] == "seated"


def test_r9_blocking_voids_pending_invites_both_ways_and_stops_new_ones(alice, bob, charlie, waiting):
    invite = services.invite(alice, "bob")
    services.block(bob, "alice")
    assert Invite.objects.get(pk=invite.pk).status == Invite.Status.DECLINED
    assert list(services.pending_invites(bob)) == []
    refused("no_invite", services.accept_invite, bob, invite.pk)
    assert seat_room(bob) == set()
    refused("not_friends", services.invite, alice, "bob")
    refused("blocked", services.send_request, alice, "bob")  # no way back to being friends

    # The blocker's own pending invite to the blocked player dies too.
    befriend(charlie, bob)
    room_service.create_room(bob, "hokm4", {})
    theirs = services.invite(bob, "charlie")
    services.block(bob, "charlie")
    refused("no_invite", services.accept_invite, charlie, theirs.pk)


def test_r9_the_page_says_which_reason_refused_an_invite(
    client, at, alice, bob, charlie, dave, make_user, waiting
):
    """A clear message says which: expired, the match started, or the room is full."""
    client.cookies["lang"] = "en"
    client.force_login(bob)

    def answer(invite):
        page = client.post(f"/friends/invites/{invite.pk}/accept/", follow=True)
        return page.content.decode()

    at(0)
    expired = services.invite(alice, "bob")
    at(minutes=10, seconds=1)
    html = answer(expired)
    assert "This invite has expired: invites are valid for ten minutes." in html
    assert "already started" not in html and "every seat is taken" not in html

    at(minutes=11)
    full = services.invite(alice, "bob")
    erin = make_user("erin")
    for number, guest in ((2, charlie), (3, dave), (4, erin)):
        room_service.sit(waiting, guest, number)
    html = answer(full)
    assert "That room is full: every seat is taken." in html and "expired" not in html

    for guest in (charlie, dave, erin):
        room_service.set_ready(waiting, guest, True)
    room_service.start(waiting, alice)
    html = answer(full)
    assert "The match in that room has already started." in html and "every seat is taken" not in html
    assert seat_room(bob) == set()


def test_r9_a_report_from_the_table_comes_with_its_match_chosen(client, alice, bob):
    room = make_room(alice, [bob], game="hokm2")
    match = room_service.start(room, alice)
    client.force_login(alice)
    html = client.get(f"/friends/?report=bob&match={match.pk}").content.decode()
    assert f'<option value="{match.pk}" selected>' in html
    # A match bob did not share with alice is not offered, nor chosen.
    html = client.get("/friends/?report=bob&match=999999").content.decode()
    assert " selected>" not in html
    assert (
        client.post("/friends/report/", {"username": "bob", "reason": "abuse", "match": match.pk}).status_code
        == 302
    )
    from friends.models import Report

    assert Report.objects.get().match == match


def test_r9_the_friends_page_offers_no_invite_to_a_friend_already_at_the_table(
    client, alice, bob, charlie, waiting
):
    befriend(alice, charlie)
    room_service.sit(waiting, bob, 2)
    client.force_login(alice)
    html = client.get("/friends/").content.decode()
    assert 'data-testid="at-table-bob"' in html and 'data-testid="invite-bob"' not in html
    assert 'data-testid="invite-charlie"' in html and 'data-testid="at-table-charlie"' not in html
