"""Issue 34, names: a bot has one name everywhere, the table's ("Kaveh" in
seat 3) with its level, in the review list and the review itself; a list of
players is joined the page's way ("a, b" in English, «a، b» in Persian)."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from rooms import services as room_service
from tests.rooms.conftest import make_room

pytestmark = pytest.mark.django_db


@pytest.fixture
def reviewed(alice, bob):
    """A hokm4 match of alice and bob with an easy bot in seat 3 and a strong one in seat 4,
    ended by bob leaving (L-3): reviewable at once."""
    room = make_room(alice, [bob], game="hokm4", rules={"target": 3})
    room_service.set_bot(room, alice, 3, level="easy")
    room_service.set_bot(room, alice, 4, level="strong")
    match = room_service.start(room, alice)
    room_service.leave(room, bob, confirm=True)
    match.refresh_from_db()
    return match


def row_players(html: str, match_id: int) -> str:
    found = re.search(rf'data-match="{match_id}".*?data-testid="replay-players">([^<]*)<', html, re.S)
    assert found, html
    return found.group(1)


@pytest.mark.parametrize(
    "language,expected",
    [
        ("en", "alice, bob, Kaveh (easy), Nika (strong)"),
        ("fa", "alice، bob، کاوه (آسان)، نیکا (قوی)"),
    ],
)
def test_the_review_list_names_bots_as_the_table_does_joined_the_pages_way(
    client, reviewed, alice, language, expected
):
    client.cookies["lang"] = language
    client.force_login(alice)
    html = client.get(reverse("replays:index")).content.decode()
    assert row_players(html, reviewed.pk) == expected
    assert ">bot<" not in html and "ربات" not in row_players(html, reviewed.pk)


@pytest.mark.parametrize("language,name", [("en", "Kaveh"), ("fa", "کاوه")])
def test_the_review_gets_the_tables_bot_names_and_each_bots_level(client, reviewed, alice, language, name):
    client.cookies["lang"] = language
    client.force_login(alice)
    page = client.get(reverse("replays:viewer", args=[reviewed.pk])).content.decode()
    names = json.loads(re.search(r'data-bot-names="([^"]+)"', page).group(1).replace("&quot;", '"'))
    assert names["3"] == name
    data = client.get(reverse("replays:data", args=[reviewed.pk])).json()
    seats = {s["seat"]: s for s in data["match"]["seats"]}
    assert seats[3] == {"seat": 3, "name": "", "bot": True, "level": "easy"}
    assert seats[4]["level"] == "strong" and seats[1]["level"] is None
