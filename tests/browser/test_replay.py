"""Review hands (R-10) in the browser: a finished hokm2 match between two
people, replayed with the slider, the step buttons, the keyboard arrows (RTL:
forward points left in Persian) and autoplay; screenshots in Persian and
English, phone and desktop."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from urllib.parse import urlsplit, urlunsplit

import pytest

from .conftest import (
    DB_NAME,
    DEFAULT_DATABASE_URL,
    DEFAULT_REDIS_URL,
    DESKTOP,
    PHONE,
    ROOT,
    SCREENSHOTS,
    wait_until,
)

pytestmark = pytest.mark.browser

# Runs in a separate Django process against the live site's database: two
# seated players, the match played to its end through the play service.
RECORD = """
import json, sys
from django.contrib.auth import get_user_model
from games import engine, services
from games.engine import CHANCE
from games.errors import PlayError
from games.models import Match
from rooms import services as rooms
name, rules, first, *others = sys.argv[1:]
User = get_user_model()
a = User.objects.get(username=first)
room = rooms.create_room(a, name, json.loads(rules))
for number, other in enumerate(others, start=2):
    guest = User.objects.filter(username=other).first() or User.objects.create_user(other, password="x-" + other)
    rooms.sit(room, guest, number, move=True); rooms.set_ready(room, guest, True)
match = rooms.start(room, a)
game = engine.get(name)
for _ in range(5000):
    match.refresh_from_db()
    if match.status != Match.Status.ACTIVE:
        break
    to_act = game.to_act(match.state)
    try:
        if CHANCE in to_act:
            services.expire(match.pk, match.version)
        else:
            seat = min(to_act)
            services.play(match.pk, game.auto_action(match.state, seat), seat=seat, version=match.version)
    except PlayError:
        continue  # the site's own sweep moved first: look again
played = sorted({e["card"] for m in match.moves.all() for e in m.events if e["type"] == "card_played"})
print(json.dumps({"match": match.pk, "status": match.status, "played": played}))
"""


def record_match(game: str, rules: dict, *usernames: str) -> dict:
    """Play a whole match of ``game`` between ``usernames`` (the first creates the room;
    the others are made if they do not exist) on the live site's database."""
    admin = os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL)
    env = {
        **os.environ,
        "DATABASE_URL": urlunsplit(urlsplit(admin)._replace(path=f"/{DB_NAME}")),
        "REDIS_URL": os.environ.get("REDIS_URL", DEFAULT_REDIS_URL),
        "CACHE_PREFIX": "browser",
        "DEADLINES": "inprocess",
        "ROUND_PAUSE": "0",
        "FAIR_WAIT_SECONDS": "0",  # nobody's browser sends values here: substitutes at once (F-4)
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    argv = ["x", game, json.dumps(rules), *usernames]
    script = f"import sys; sys.argv = {argv!r}\n" + RECORD
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def step_of(page) -> int:
    return int(page.locator("[data-testid=replay-app]").get_attribute("data-step"))


def shown_cards(page) -> set[str]:
    return set(
        page.eval_on_selector_all(
            "[data-testid=replay-app] [data-card]", "els => els.map(e => e.dataset.card)"
        )
    )


def test_r_10_slider_steps_keys_and_autoplay_move_through_a_match(people):
    ann = people("ann", lang="fa", viewport=DESKTOP)
    ben = people("ben", lang="en", viewport=PHONE)
    recorded = record_match("hokm2", {"target": 3}, ann.name, ben.name)
    assert recorded["status"] == "finished"
    played = set(recorded["played"])
    url = f"/replays/{recorded['match']}/"

    page = ann.goto(url)
    app = page.locator("[data-testid=replay-app]")
    wait_until(lambda: app.get_attribute("data-mode") == "ready", message="the replay to load")
    slider = page.locator("[data-testid=slider]")
    last = int(slider.get_attribute("max"))
    assert last > 50

    # the slider jumps anywhere in the match
    slider.fill(str(last // 2))
    wait_until(lambda: step_of(page) == last // 2, message="the slider to move")
    # step buttons and the arrows: in Persian the forward arrow points left
    page.locator("[data-testid=step-forward]").click()
    assert step_of(page) == last // 2 + 1
    page.locator("[data-testid=replay-round]").click()  # focus off the buttons
    page.keyboard.press("ArrowLeft")
    assert step_of(page) == last // 2 + 2
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert step_of(page) == last // 2
    # the round picker goes to a round's first step
    page.locator("[data-testid=round-picker]").select_option("1")
    wait_until(lambda: app.get_attribute("data-round") == "1", message="round 2")
    # find a step with a full trick on the table for the picture
    for _ in range(30):
        if page.locator("[data-testid=replay-trick] .tc.winner").count():
            break
        page.locator("[data-testid=step-forward]").click()
    assert page.locator("[data-testid=replay-trick] .tc").count() == 2
    assert page.locator("[data-testid=score-chart] svg path").count() == 2
    ann.shot("replay-fa-desktop")
    page.screenshot(path=str(SCREENSHOTS / "replay-fa-desktop-full.png"), full_page=True)

    # autoplay moves by itself, and stops at the end
    page.locator("[data-testid=speed]").select_option("120")
    before = step_of(page)
    page.locator("[data-testid=play]").click()
    wait_until(lambda: step_of(page) >= before + 5, message="autoplay to advance")
    assert page.locator("[data-testid=play]").get_attribute("aria-pressed") == "true"
    page.locator("[data-testid=play]").click()
    paused = step_of(page)
    page.wait_for_timeout(400)  # a pause must stay put: several autoplay ticks would have passed
    assert step_of(page) == paused
    assert shown_cards(page) <= played

    # English, phone: the other player, at the end of the match
    page = ben.goto(url)
    app = page.locator("[data-testid=replay-app]")
    wait_until(lambda: app.get_attribute("data-mode") == "ready", message="the replay to load (en)")
    page.keyboard.press("End")
    wait_until(lambda: step_of(page) == last, message="the last step")
    page.keyboard.press("ArrowLeft")  # in English, left is back
    assert step_of(page) == last - 1
    page.keyboard.press("ArrowRight")
    assert shown_cards(page) <= played
    ben.shot("replay-en-phone")
    page.set_viewport_size(DESKTOP)
    ben.shot("replay-en-desktop")
    page = ann.page
    page.set_viewport_size(PHONE)
    ann.shot("replay-fa-phone")

    # not a participant: 404
    cleo = people("cleo", lang="en")
    assert cleo.page.goto(f"{cleo.site}{url}").status == 404
