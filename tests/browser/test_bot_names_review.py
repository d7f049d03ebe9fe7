"""Issue 34, names: a bot has one name everywhere. The table calls the bot in
seat 3 "Kaveh" (کاوه) with its level; the review list and the review itself
call it the same, with the same level, and the list of players is joined the
page's way (an English comma in English, «، » in Persian)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE
from .onsite import on_site

pytestmark = pytest.mark.browser

START = r"""
import json, sys
from django.contrib.auth import get_user_model
from rooms import services as rooms

name = sys.argv[1]
a = get_user_model().objects.get(username=name)
room = rooms.create_room(a, "hokm4", {"target": 3, "turn_seconds": 60})
for number, level in ((2, "easy"), (3, "strong"), (4, "normal")):
    rooms.set_bot(room, a, number, level=level)
match = rooms.start(room, a)
print(json.dumps({"code": room.code, "match": match.pk}))
"""

LEAVE = r"""
import json, sys
from django.contrib.auth import get_user_model
from rooms import services as rooms
from rooms.models import Room

name, code = sys.argv[1:]
rooms.leave(Room.objects.get(code=code), get_user_model().objects.get(username=name), confirm=True)
print(json.dumps({"ok": True}))
"""

EXPECTED = {
    "en": {
        2: "Sima",
        3: "Kaveh",
        4: "Nika",
        "levels": {2: "Easy bot", 3: "Strong bot"},
        "sep": ", ",
        "list": "{me}, Sima (easy), Kaveh (strong), Nika (normal)",
    },
    "fa": {
        2: "سیما",
        3: "کاوه",
        4: "نیکا",
        "levels": {2: "ربات آسان", 3: "ربات قوی"},
        "sep": "، ",
        "list": "{me}، سیما (آسان)، کاوه (قوی)، نیکا (معمولی)",
    },
}


@pytest.mark.parametrize("lang,viewport", [("en", DESKTOP), ("fa", PHONE)])
def test_a_bot_has_the_tables_name_and_level_in_the_review_and_its_list(people, lang, viewport):
    me = people("qbc", lang=lang, viewport=viewport)
    want = EXPECTED[lang]
    made = on_site(START, me.name)
    table = me.goto(f"/rooms/{made['code']}/")
    # (Until the room's first snapshot arrives a seat is "Seat 2": wait for the names themselves.)
    for n in (2, 3, 4):
        expect(table.locator(f"[data-testid=seat-{n}] .seat-name")).to_have_text(want[n])
    for n, level in want["levels"].items():
        expect(table.locator(f"[data-testid=bot-level-tag-{n}]")).to_have_text(level)
    # The deal is out (the review then has steps to show), and he leaves (L-3).
    table.locator("[data-testid=hand] .card").first.wait_for(timeout=30000)
    on_site(LEAVE, me.name, made["code"])

    listing = me.goto("/replays/")
    players = listing.locator(f'tr[data-match="{made["match"]}"] [data-testid=replay-players]')
    assert players.inner_text().strip() == want["list"].format(me=me.name)
    me.shot(f"names-review-list-{lang}-{'phone' if viewport is PHONE else 'desktop'}")

    review = me.goto(f"/replays/{made['match']}/")
    for n in (2, 3, 4):
        expect(review.locator(f"[data-slot] [data-seat='{n}'] .seat-name")).to_have_text(want[n])
    for n, level in want["levels"].items():
        expect(review.locator(f"[data-testid=bot-level-tag-{n}]")).to_have_text(level)
    me.shot(f"names-review-{lang}-{'phone' if viewport is PHONE else 'desktop'}")
