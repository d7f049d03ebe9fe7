"""Issue 34: the API's description says what it does (the friends endpoints
write), and the errors of one request come in one language: a signed-out 403
and "Unknown game family." both follow the request's language."""

from __future__ import annotations

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db


def test_the_api_description_does_not_call_the_whole_api_read_only(client):
    description = settings.SPECTACULAR_SETTINGS["DESCRIPTION"]
    assert not description.lower().startswith("read-only")
    assert "friends" in description and "write" in description
    schema = client.get("/api/schema/?format=json")
    assert schema.status_code == 200
    assert schema.json()["info"]["description"] == description


@pytest.mark.parametrize(
    "lang,forbidden,unknown",
    [
        ("en", "Authentication credentials were not provided.", "Unknown game family."),
        ("fa", "اطلاعات برای اعتبارسنجی ارسال نشده است.", "خانوادهٔ بازی ناشناخته است."),
    ],
)
def test_a_signed_out_403_and_an_unknown_family_come_in_the_same_language(client, lang, forbidden, unknown):
    client.cookies["lang"] = lang
    signed_out = client.get("/api/friends/")
    assert signed_out.status_code == 403
    assert signed_out.json()["detail"] == forbidden
    family = client.get("/api/leaderboard/poker/")
    assert family.status_code == 404
    assert family.json()["detail"] == unknown
    player = client.get("/api/players/nobody-at-all/")
    assert player.status_code == 404
    assert player.json()["detail"] == ("No such player." if lang == "en" else "چنین بازیکنی نیست.")


def test_the_accept_language_header_alone_chooses_english_for_both(client):
    headers = {"HTTP_ACCEPT_LANGUAGE": "en"}
    assert (
        client.get("/api/friends/", **headers).json()["detail"]
        == "Authentication credentials were not provided."
    )
    assert client.get("/api/leaderboard/poker/", **headers).json()["detail"] == "Unknown game family."
