"""Issue 14: a hypothesis fuzz of every form and HTTP/API endpoint (sign-up,
sign-in, preferences, room create, practice, join, room page, leaderboard,
API list and detail, rules pages, language switch). Never a traceback (the
test client re-raises any exception a view lets out), never a 500, and
refused input changes nothing: the counts of users, rooms and matches and
the user's preferences stay as they were unless the response is the one an
accepted request gets (a redirect to the new thing)."""

from __future__ import annotations

from urllib.parse import quote, urlencode

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import Profile
from games.models import Match
from rooms.models import Room

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(180)]

NASTY = [
    "",
    "\x00",
    "a\x00b",
    "%00",
    "[" * 2000,
    '{"a":' * 500,
    "ｆｚ１",
    "admin",
    "-1",
    "0",
    "99999999999999999999999",
    "NaN",
    "1e309",
    "true",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "' OR 1=1 --",
    "\u202e\u200f",
    "🂡🃏",
    "x" * 5000,
    "hokm4",
    "shelem",
    "bridge",
    "fa",
    "en",
]
text = st.one_of(st.sampled_from(NASTY), st.text(max_size=30))
FIELDS = st.dictionaries(st.sampled_from(["game", "page", "q", "x", "rule_target", "next"]), text, max_size=3)
FUZZ = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(autouse=True)
def no_rate_limits(settings):
    settings.ACCOUNT_RATE_LIMITS = False


def counts():
    return (get_user_model().objects.count(), Room.objects.count(), Match.objects.count())


def prefs(user):
    return Profile.objects.filter(user=user).values().get()


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def ok(response):
    assert response.status_code < 500, response.status_code


@settings(FUZZ, max_examples=12)
@given(segment=text, query=FIELDS)
def test_get_pages_and_api(alice, segment, query):
    seg = quote(segment, safe="")
    qs = urlencode(query)
    before = counts()
    for client in (Client(), signed_in(alice)):
        for path in (
            f"/leaderboard/?{qs}",
            f"/leaderboard/players/{seg}/?{qs}",
            f"/api/leaderboard/{seg}/?{qs}",
            f"/api/leaderboard/hokm/?{qs}",
            f"/api/players/{seg}/",
            f"/rules/{seg}/?{qs}",
            f"/rules/?back={seg}",
            f"/rooms/?join={seg}&{qs}",
            f"/rooms/{seg}/?watch={seg}",
            f"/me/preferences/?{qs}",
            f"/?{qs}",
        ):
            ok(client.get(path))
    assert counts() == before


@FUZZ
@given(username=text, password=text, password2=text, email=text)
def test_sign_up(username, password, password2, email):
    client = Client()
    before = counts()
    response = client.post(
        "/accounts/signup/",
        {"username": username, "password1": password, "password2": password2, "email": email},
    )
    ok(response)
    if response.status_code != 302:
        assert counts() == before


@FUZZ
@given(login=text, password=text, remember=text)
def test_sign_in(alice, login, password, remember):
    client = Client()
    response = client.post("/accounts/login/", {"login": login, "password": password, "remember": remember})
    ok(response)
    if password != "correct-horse-battery":
        assert "_auth_user_id" not in client.session


@FUZZ
@given(
    data=st.dictionaries(
        st.sampled_from(
            ["show_online", "card_sounds", "hide_reactions", "four_colour_deck", "language", "x"]
        ),
        text,
        max_size=6,
    )
)
def test_preferences(alice, data):
    client = signed_in(alice)
    before = prefs(alice)
    response = client.post("/me/preferences/", data)
    ok(response)
    if response.status_code != 302:
        assert prefs(alice) == before


@FUZZ
@given(game=text, fields=FIELDS, private=text)
def test_room_create_and_practice(alice, game, fields, private):
    client = signed_in(alice)
    before = counts()
    response = client.post("/rooms/new/", {"game": game, "is_private": private, **fields})
    ok(response)
    if not (response.status_code == 302 and response.url.rstrip("/") not in ("/rooms", "")):
        assert counts() == before
    before = counts()
    response = client.post(f"/rooms/practice/{quote(game, safe='')}/", fields)
    ok(response)
    if game not in ("hokm4", "hokm2", "hokm3", "shelem", "shelem2", "shelem4", "bridge"):
        assert counts() == before


@FUZZ
@given(language=text, nxt=text)
def test_language_switch(language, nxt):
    ok(Client().post("/i18n/setlang/", {"language": language, "next": nxt}))
