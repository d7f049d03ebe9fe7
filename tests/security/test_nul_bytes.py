"""Issue 14, item 6: a NUL byte anywhere in a request (path, query string,
form field, cookie) gets 400 or 404, never a 500 (PostgreSQL refuses NUL in
text; before the fix the query raised DataError)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.mark.parametrize(
    "path",
    [
        "/leaderboard/players/%00/",
        "/leaderboard/players/ali%00ce/",
        "/api/players/%00/",
        "/api/leaderboard/%00/",
        "/rooms/%00/",
        "/rooms/practice/%00/",
        "/rules/%00/",
        "/leaderboard/?family=%00",
        "/api/leaderboard/hokm/?page=%00",
        "/rooms/?q=%00",
        "/?%00=1",
    ],
)
def test_a_nul_in_the_path_or_query_is_refused(client, alice, path):
    response = client.get(path)
    assert response.status_code in (400, 404), (path, response.status_code)
    client.force_login(alice)
    response = client.get(path)
    assert response.status_code in (400, 404), (path, response.status_code)


def test_a_nul_in_a_form_field_is_refused_and_signs_nobody_in(client, alice):
    response = client.post("/accounts/login/", {"login": "alice\x00", "password": "correct-horse-battery"})
    assert response.status_code == 400
    assert "_auth_user_id" not in client.session


def test_a_nul_in_a_sign_up_changes_nothing(client, django_user_model):
    before = django_user_model.objects.count()
    response = client.post(
        "/accounts/signup/", {"username": "ne\x00wbie", "password1": "Card-table-2026!", "password2": "x"}
    )
    assert response.status_code == 400
    assert django_user_model.objects.count() == before


def test_a_nul_in_a_cookie_is_refused(client):
    client.cookies["sessionid"] = "abcdefgh\x00ijkl"
    response = client.get("/")
    assert response.status_code == 400
