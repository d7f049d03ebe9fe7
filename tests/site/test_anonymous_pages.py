"""Issue 33: a public page drawn for an anonymous visitor is kept a few seconds
per process and served again to every anonymous visitor of the same address and
language, each with his own CSRF token; never to a signed-in visitor, never
with a message waiting."""

from __future__ import annotations

import pytest
from django.contrib.messages import constants
from django.contrib.messages.storage.cookie import CookieStorage
from django.db import connection
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client
from django.test.utils import CaptureQueriesContext

from infra.cache import _TOKEN_SHAPE, forget_pages
from rooms.models import Room, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def kept(settings):
    settings.ANONYMOUS_PAGE_SECONDS = 60
    forget_pages()
    yield
    forget_pages()


def _room(user) -> Room:
    room = Room.objects.create(game="hokm4", rules={}, creator=user, is_private=False)
    Seat.objects.create(room=room, number=1, user=user)
    for k in range(2, 5):
        Seat.objects.create(room=room, number=k)
    return room


def _tokens(client: Client, body: str) -> set[str]:
    secret = client.cookies["csrftoken"].value
    found = {t for t in _TOKEN_SHAPE.findall(body) if _unmask_cipher_token(t) == secret}
    assert found, "the page carries no CSRF token of this visitor"
    return found


def test_the_lobby_is_kept_for_anonymous_visitors_each_with_his_own_token(make_user):
    first, second = Client(), Client()
    assert first.get("/rooms/").status_code == 200
    room = _room(make_user("late"))  # made after the page was kept: not shown for a few seconds
    with CaptureQueriesContext(connection) as ctx:
        page = second.get("/rooms/")
    assert page.status_code == 200
    assert len(ctx) == 0  # no view, no query
    body = page.content.decode()
    assert room.code not in body
    assert "\x00" not in body
    # The token in the kept copy is the second visitor's, not the first one's.
    assert _tokens(second, body)
    # A POST with it passes the CSRF check (the language switch of the top bar).
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = second.cookies
    assert strict.post("/i18n/setlang/", {"language": "en", "next": "/"}).status_code == 403
    token = next(iter(_tokens(second, body)))
    answer = strict.post("/i18n/setlang/", {"language": "en", "next": "/", "csrfmiddlewaretoken": token})
    assert answer.status_code == 302


def test_a_signed_in_visitor_never_gets_the_anonymous_copy(make_user):
    user = make_user("seated")
    Client().get("/rooms/")
    signed = Client()
    signed.force_login(user)
    body = signed.get("/rooms/").content.decode()
    assert "seated" in body  # his own top bar, drawn for him
    # and his page is not kept for the anonymous ones
    assert "seated" not in Client().get("/rooms/").content.decode()


def test_each_language_has_its_own_copy():
    fa = Client(HTTP_ACCEPT_LANGUAGE="fa").get("/leaderboard/").content.decode()
    en = Client(HTTP_ACCEPT_LANGUAGE="en").get("/leaderboard/").content.decode()
    assert 'lang="fa"' in fa and 'lang="en"' in en


def test_a_visitor_with_a_message_waiting_gets_the_page_drawn_for_him(make_user, rf):
    Client().get("/rooms/")
    room = _room(make_user("fresh"))
    client = Client()
    request = rf.get("/")
    storage = CookieStorage(request)
    storage.add(constants.INFO, "hello")
    from django.http import HttpResponse

    response = HttpResponse()
    storage.update(response)
    client.cookies["messages"] = response.cookies["messages"].value
    body = client.get("/rooms/").content.decode()
    assert room.code in body  # drawn anew, not the kept copy
    assert "hello" in body


def test_nothing_is_kept_when_the_setting_is_zero(settings, make_user):
    settings.ANONYMOUS_PAGE_SECONDS = 0
    Client().get("/rooms/")
    room = _room(make_user("now"))
    assert room.code in Client().get("/rooms/").content.decode()


def test_a_kept_part_carries_each_signed_in_visitors_own_token(settings, make_user):
    """{% keep %} (the home page's games): drawn once, each visitor's CSRF token in its forms."""
    from infra.cache import forget_recent

    settings.ANONYMOUS_PAGE_SECONDS = 0
    settings.KEPT_PART_SECONDS = 60
    forget_recent()
    try:
        first, second = Client(), Client()
        first.force_login(make_user("one"))
        second.force_login(make_user("two"))
        one = first.get("/").content.decode()
        two = second.get("/").content.decode()
        assert 'data-testid="practice-hokm4"' in two
        assert _tokens(first, one) and _tokens(second, two)
        assert not _tokens(second, two) & _tokens(first, one)
    finally:
        forget_recent()


def test_kept_leaderboard_rows_mark_only_the_visitor_shown_among_them(settings, make_user):
    """The ranking's rows are kept for what they show; a player on the page still sees his own row
    marked (lb-me), and nobody else does."""
    from games.models import Match
    from infra.cache import forget_recent, touch
    from leaderboard.models import LedgerEntry

    settings.ANONYMOUS_PAGE_SECONDS = 0
    settings.KEPT_PART_SECONDS = 60
    forget_recent()
    touch("ledger")
    players = [make_user(f"rk{i}") for i in range(4)]
    outsider = make_user("outsider")
    room = Room.objects.create(game="hokm4", rules={}, creator=players[0], is_private=True)
    match = Match.objects.create(
        room=room,
        game="hokm4",
        rules={},
        status=Match.Status.FINISHED,
        players=[
            {"seat": n, "user_id": u.pk, "username": u.username, "bot": False} for n, u in enumerate(players)
        ],
    )
    for n, u in enumerate(players):
        LedgerEntry.objects.create(
            user=u,
            match=match,
            game="hokm4",
            family="hokm",
            seat=n,
            points=7 - n,
            result=LedgerEntry.Result.WIN if n % 2 == 0 else LedgerEntry.Result.LOSS,
        )
    try:
        pages = {}
        for user in (outsider, players[1], players[2], outsider):
            client = Client()
            client.force_login(user)
            pages[user.username] = client.get("/leaderboard/?game=hokm").content.decode()
        assert ' lb-me"' not in pages["outsider"]
        for user in (players[1], players[2]):
            assert pages[user.username].count(' lb-me"') == 1
            assert f'lb-me" data-username="{user.username}"' in pages[user.username]
    finally:
        forget_recent()
