"""Bots' names (issue 15): short, distinct, per seat, in both languages, and
handed to the table page so that every view of the table says the same."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from rooms.bot_names import bot_name, bot_names


@pytest.mark.parametrize("language", ["fa", "en"])
def test_each_seat_has_a_short_distinct_name(language):
    names = [bot_name(n, language) for n in range(1, 5)]
    assert len(set(names)) == 4
    assert all(0 < len(name) <= 8 for name in names)


def test_names_are_translated_and_stable():
    assert bot_name(2, "en") == "Sima"
    assert bot_name(2, "fa") == "سیما"
    assert bot_name(2, "fa") == bot_name(2, "fa")
    assert all(re.fullmatch(r"[\u0600-\u06FF\u200c]+", bot_name(n, "fa")) for n in range(1, 5))
    assert bot_names(2, "en") == {"1": "Dara", "2": "Sima"}


@pytest.mark.django_db
@pytest.mark.parametrize("language,name", [("fa", "کاوه"), ("en", "Kaveh")])
def test_room_page_carries_the_names(client, alice, language, name):
    from rooms import services

    room = services.create_room(alice, "hokm4", {}, is_private=False)
    client.cookies["lang"] = language
    response = client.get(reverse("rooms:room", args=[room.code]))
    html = response.content.decode()
    found = re.search(r'data-bot-names="([^"]+)"', html)
    names = json.loads(found.group(1).replace("&quot;", '"'))
    assert names["3"] == name
