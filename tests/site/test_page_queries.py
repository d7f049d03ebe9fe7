"""Issue 33: no page's query count grows with the number of rows it shows.

Each page is asked with a few rows and with many, signed in and anonymous,
and must run the same number of queries; the parts everyone sees alike
(a page of the ranking, a player's statistics) are made once for everyone
and made anew as soon as the ledger changes.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Match
from infra.cache import touch
from leaderboard.ledger import write_ledger
from leaderboard.models import LedgerEntry
from rooms.models import Room, Seat

pytestmark = pytest.mark.django_db

RULES = {"middle_card": False, "turn_seconds": 60}


def _players(make_user, prefix: str, n: int):
    return [make_user(f"{prefix}{i}") for i in range(n)]


def _finished(players, creator) -> Match:
    room = Room.objects.create(game="hokm4", rules=RULES, creator=creator, is_private=True)
    return Match.objects.create(
        room=room,
        game="hokm4",
        rules=RULES,
        status=Match.Status.FINISHED,
        players=[
            {"seat": n, "user_id": u.pk, "username": u.username, "bot": False} for n, u in enumerate(players)
        ],
        result={"winner": 0, "score": [7, 3]},
    )


def _queries(client, path: str) -> int:
    touch("ledger")  # a copy made for everyone would hide the page's own queries
    touch("home")
    touch("events")
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return len(ctx)


def _waiting_rooms(users, n: int):
    for i in range(n):
        room = Room.objects.create(game="hokm4", rules=RULES, creator=users[i % len(users)], is_private=False)
        Seat.objects.create(room=room, number=1, user=users[i % len(users)])
        for k in range(2, 5):
            Seat.objects.create(room=room, number=k)


@pytest.mark.parametrize("signed_in", [False, True])
def test_the_lobby_and_home_do_not_query_per_room(client, make_user, signed_in):
    users = _players(make_user, "lob", 4)
    if signed_in:
        client.force_login(users[0])
    _waiting_rooms(users, 1)
    client.get("/")  # once: the day's rows of the daily challenge are made by their first reader
    few = (_queries(client, "/rooms/"), _queries(client, "/"))
    _waiting_rooms(users, 25)
    many = (_queries(client, "/rooms/"), _queries(client, "/"))
    assert few == many


@pytest.mark.parametrize("signed_in", [False, True])
def test_the_leaderboard_and_a_profile_do_not_query_per_row(client, make_user, signed_in):
    players = _players(make_user, "lb", 8)
    if signed_in:
        client.force_login(players[0])
    write_ledger(_finished(players[:4], players[0]))
    few = (
        _queries(client, "/leaderboard/?game=hokm"),
        _queries(client, f"/leaderboard/players/{players[0].username}/"),
    )
    for k in range(12):
        write_ledger(_finished([players[0]] + players[1 + k % 4 : 4 + k % 4], players[0]))
    assert LedgerEntry.objects.filter(user=players[0]).count() == 13
    many = (
        _queries(client, "/leaderboard/?game=hokm"),
        _queries(client, f"/leaderboard/players/{players[0].username}/"),
    )
    assert few == many


def test_the_ranking_is_made_once_for_everyone_and_anew_after_a_match(
    client, make_user, django_capture_on_commit_callbacks
):
    """L-6 stays exact: a copy is kept for everyone, but a written ledger makes it anew at once."""
    players = _players(make_user, "sh", 4)
    write_ledger(_finished(players, players[0]))
    touch("ledger")
    client.get("/leaderboard/?game=hokm")
    with CaptureQueriesContext(connection) as ctx:
        page = client.get("/leaderboard/?game=hokm").content.decode()
    assert len(ctx) == 0  # anonymous, and the ranking kept from the first visit
    assert page.count('data-username="sh') == 4
    newcomers = _players(make_user, "new", 4)
    with django_capture_on_commit_callbacks(execute=True):
        write_ledger(_finished(newcomers, newcomers[0]))  # the ledger's commit touches the ranking
    page = client.get("/leaderboard/?game=hokm").content.decode()
    assert 'data-username="new0"' in page


def test_a_room_page_does_not_query_per_seat(client, make_user):
    users = _players(make_user, "rm", 4)
    client.force_login(users[0])
    room = Room.objects.create(game="hokm4", rules=RULES, creator=users[0], is_private=False)
    Seat.objects.create(room=room, number=1, user=users[0])
    for k in range(2, 5):
        Seat.objects.create(room=room, number=k)
    few = _queries(client, f"/rooms/{room.code}/")
    for k, user in zip(range(2, 5), users[1:], strict=True):
        Seat.objects.filter(room=room, number=k).update(user=user)
    assert _queries(client, f"/rooms/{room.code}/") == few


def test_a_lesson_page_is_cheap(client, make_user):
    client.force_login(make_user("learner"))
    assert _queries(client, "/school/1/") <= 5
