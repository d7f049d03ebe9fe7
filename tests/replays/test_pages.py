"""R-10: who may open a replay (participants only; everyone else 404), the list of
one's matches, and the pages themselves naming no hidden card."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Match, Move
from tests.replays.conftest import cards_named, leaks, play_out, rounds_of_log, start_match

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def finished(alice, bob):
    """A short hokm2 match between alice and bob, ended by bob leaving (L-3)."""
    from rooms import services as room_service

    match = play_out(start_match("hokm2", alice, [bob]), stop_after=80)
    room_service.leave(match.room, bob, confirm=True)
    match.refresh_from_db()
    return match


def urls(match):
    return [reverse("replays:viewer", args=[match.pk]), reverse("replays:data", args=[match.pk])]


def test_r_10_participants_open_the_viewer_and_its_data(client, finished, alice, bob):
    for user in (alice, bob):
        client.force_login(user)
        page, data = (client.get(u) for u in urls(finished))
        assert page.status_code == 200 and data.status_code == 200
        body = data.json()
        assert body["replayable"] and body["viewer"] == finished.seat_of_user(user.pk)
        assert leaks(body, finished) == set()
        # the page itself names no card at all (the timeline comes as data)
        assert cards_named(page.content.decode()) == set()


def test_r_10_anyone_else_gets_404_not_a_hint(client, finished, charlie, make_user):
    for u in urls(finished):
        assert client.get(u).status_code == 404  # anonymous: no login redirect either
    client.force_login(charlie)
    for u in urls(finished):
        assert client.get(u).status_code == 404
    staff = make_user("mod", is_staff=True, is_superuser=True)
    client.force_login(staff)  # staff review through the admin, not here
    for u in urls(finished):
        assert client.get(u).status_code == 404
    assert client.get(reverse("replays:viewer", args=[finished.pk + 999])).status_code == 404


def test_r_10_an_active_match_cannot_be_reviewed_yet(client, alice, bob):
    match = start_match("hokm2", alice, [bob])
    client.force_login(alice)
    for u in urls(match):
        assert client.get(u).status_code == 404


def test_r_10_an_incomplete_record_says_so(client, finished, alice):
    Move.objects.filter(match=finished, seq=5).delete()
    client.force_login(alice)
    page, data = (client.get(u) for u in urls(finished))
    assert page.status_code == 200
    assert 'data-testid="not-replayable"' in page.content.decode()
    assert data.json() == {**data.json(), "replayable": False, "reason": "gap"}
    assert "steps" not in data.json()


def test_r_10_the_list_shows_only_my_finished_matches_newest_first(client, finished, alice, bob, charlie):
    other = play_out(start_match("hokm2", bob, [charlie]), stop_after=20)  # still active: not listed
    client.force_login(alice)
    body = client.get(reverse("replays:index")).content.decode()
    assert f'data-match="{finished.pk}"' in body and f'data-match="{other.pk}"' not in body
    client.force_login(charlie)
    body = client.get(reverse("replays:index")).content.decode()
    assert 'data-testid="no-replays"' in body
    assert client.get(reverse("replays:index"), follow=False).status_code == 200


def test_r_10_the_list_is_paginated(client, alice, bob, settings):
    from replays import views

    room_matches = []
    for _ in range(3):
        m = start_match("hokm2", alice, [bob])
        Match.objects.filter(pk=m.pk).update(status=Match.Status.ABANDONED)
        room_matches.append(m.pk)
        from rooms.models import Room

        Room.objects.filter(pk=m.room_id).update(status=Room.Status.FINISHED)
    old = views.PER_PAGE
    views.PER_PAGE = 2
    try:
        client.force_login(alice)
        first = client.get(reverse("replays:index")).content.decode()
        second = client.get(reverse("replays:index") + "?page=2").content.decode()
    finally:
        views.PER_PAGE = old
    assert 'rel="next"' in first and 'rel="prev"' in second
    shown = [pk for pk in room_matches if f'data-match="{pk}"' in first]
    assert len(shown) == 2 and f'data-match="{room_matches[0]}"' in second


def test_r_10_the_player_page_links_my_own_matches_only(client, finished, alice, charlie):
    from leaderboard import ledger  # noqa: F401 - the ledger wrote alice's entry at the match's end

    client.force_login(alice)
    mine = client.get(reverse("leaderboard:player", args=[alice.username])).content.decode()
    client.force_login(charlie)
    theirs = client.get(reverse("leaderboard:player", args=[alice.username])).content.decode()
    link = reverse("replays:viewer", args=[finished.pk])
    if f'data-match="{finished.pk}"' not in mine:
        pytest.skip("this match left no ledger entry to show on the player page")
    assert link in mine and link not in theirs


def test_r_10_hidden_cards_exist_in_the_recorded_match(finished):
    """The scan above has something to catch: cards dealt and never played face up."""
    assert any(r["dealt"] - r["played"] for r in rounds_of_log(finished))


def test_r_10_staff_review_through_the_admin_not_the_viewer(client, finished, alice, make_user):
    """Staff read a match and its move log in the admin; a participant who is not staff cannot."""
    match_page = reverse("admin:games_match_change", args=[finished.pk])
    move = Move.objects.filter(match=finished).order_by("seq").first()
    move_page = reverse("admin:games_move_change", args=[move.pk])
    client.force_login(alice)
    for u in (match_page, move_page):
        assert client.get(u).status_code == 302  # to the admin's login
    staff = make_user("mod", is_staff=True, is_superuser=True)
    client.force_login(staff)
    for u in (match_page, move_page):
        assert client.get(u).status_code == 200
    assert client.get(reverse("replays:viewer", args=[finished.pk])).status_code == 404


def test_r_10_l_2_a_practice_match_opens_for_its_player(client, alice):
    """A practice match against a bot (L-2) is listed and replays for its one person."""
    from rooms import services as room_service

    match = play_out(start_match("hokm2", alice, [], bots=(2,)), stop_after=40)
    room_service.leave(match.room, alice, confirm=True)
    match.refresh_from_db()
    assert match.practice and match.status in (Match.Status.ABANDONED, Match.Status.FINISHED)
    client.force_login(alice)
    listed = client.get(reverse("replays:index")).content.decode()
    assert f'data-match="{match.pk}"' in listed
    page, data = (client.get(u) for u in urls(match))
    assert page.status_code == 200 and 'data-testid="replay-app"' in page.content.decode()
    body = data.json()
    assert body["replayable"] and body["match"]["practice"] and body["steps"]
    assert leaks(body, match) == set()


def test_r_10_a_cached_timeline_is_never_another_match_s(finished, settings):
    """The timeline cache is keyed by the match's start as well as its id and version:
    a database made again (match ids from 1 again) gets no other match's cards."""
    from replays import services as replay_services

    first = replay_services.match_timeline(finished)
    other = Match.objects.get(pk=finished.pk)
    other.started_at = other.started_at.replace(year=other.started_at.year - 1)
    # same id, same version, another start: the other database's match is not served
    from django.core.cache import cache

    planted = {**first, "steps": [], "planted": True}
    cache.set(
        f"replay:{replay_services.TIMELINE_VERSION}:{other.pk}:{other.version}:{other.started_at.timestamp()}",
        planted,
    )
    assert replay_services.match_timeline(finished) == first
    assert replay_services.match_timeline(other) == planted


def test_r_10_the_list_says_who_won_from_my_side(client, finished, alice, bob):
    """A finished match's row: won or lost for the one reading it, his side's score first."""
    Match.objects.filter(pk=finished.pk).update(
        status=Match.Status.FINISHED, result={"winner": 1, "score": [1, 3]}
    )
    for user, won, first in ((alice, "no", "1"), (bob, "yes", "3")):
        client.force_login(user)
        client.cookies["lang"] = "en"
        body = client.get(reverse("replays:index"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
        row = body[body.index(f'data-match="{finished.pk}"') :]
        assert f'data-won="{won}"' in row.split("</tr>")[0]
        text = row.split('data-testid="outcome"')[1].split("</span>")[0]
        assert ("Won" if won == "yes" else "Lost") in text and text.split(",")[1].strip().startswith(first)
