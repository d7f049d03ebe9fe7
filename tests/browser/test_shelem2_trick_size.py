"""Shelem for two (S2-2, S2-4), issue 34: the trick's cards are at least as
large as the column cards, at 1280x800 and on a phone (390x844), in Persian
and English; before, they shrank to 17x24 px thumbnails between the columns.

The match is played on the site's database to the third card of a trick (two
hand cards and the first column card on the felt), then opened in the browser.
"""

from __future__ import annotations

import pytest

from .conftest import unique, wait_until
from .onsite import on_site

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

TO_THIRD_CARD = r"""
import json, sys, time
from django.contrib.auth import get_user_model
from games import engine, services
from games.engine import CHANCE
from games.errors import PlayError
from games.models import Match
from rooms import services as rooms

first, other = sys.argv[1:]
User = get_user_model()
a = User.objects.get(username=first)
room = rooms.create_room(a, "shelem2", {"turn_seconds": 60})
b = User.objects.create_user(other, password="x-" + other)
rooms.sit(room, b, 2, move=True); rooms.set_ready(room, b, True)
match = rooms.start(room, a)
game = engine.get("shelem2")
for _ in range(5000):
    match.refresh_from_db()
    state = match.state
    to_act = game.to_act(state)
    if state.get("phase") == "play" and len(state["trick"]) == 3 and state.get("tricks"):
        break
    try:
        if CHANCE in to_act:
            if services.expire(match.pk, match.version) is None:
                time.sleep(0.02)
            continue
        seat = min(to_act)
        services.play(match.pk, game.auto_action(state, seat), seat=seat, version=match.version)
    except PlayError:
        continue
print(json.dumps({"code": room.code, "match": match.pk}))
"""

SIZES = """() => {
  const box = (el) => { const b = el.getBoundingClientRect(); return {w: b.width, h: b.height, x: b.left, y: b.top, r: b.right, b: b.bottom}; };
  return {
    trick: [...document.querySelectorAll('[data-testid=trick] .tc .card')].map(box),
    columns: [...document.querySelectorAll('.columns .column .card.face')].map(box),
    scroll: [document.documentElement.scrollWidth - innerWidth, document.documentElement.scrollHeight - innerHeight],
  };
}"""


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_s2_4_the_tricks_cards_are_as_large_as_the_column_cards(people, lang):
    ana = people("ana", lang=lang, viewport=DESKTOP)
    played = on_site(
        TO_THIRD_CARD,
        ana.name,
        unique("bo"),
        extra_env={"ROUND_PAUSE": "0", "FAIR_WAIT_SECONDS": "0"},
        timeout=300,
    )
    page = ana.goto(f"/rooms/{played['code']}/")
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        wait_until(
            lambda: page.locator("[data-testid=trick] .tc").count() == 3, message="the trick's three cards"
        )
        ana.shot(f"shelem2-trick-{lang}-{size}")
        sizes = page.evaluate(SIZES)
        assert len(sizes["trick"]) == 3 and sizes["columns"], sizes
        widest = max(c["w"] for c in sizes["columns"])
        tallest = max(c["h"] for c in sizes["columns"])
        for card in sizes["trick"]:
            assert card["w"] >= widest - 0.5 and card["h"] >= tallest - 0.5, (size, card, widest, tallest)
            assert card["x"] >= 0 and card["r"] <= viewport["width"] and card["y"] >= 0, (size, card)
