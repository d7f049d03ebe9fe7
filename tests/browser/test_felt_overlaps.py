"""Overlaps on the felt (issue 34; DESIGN.md "Seats", "Cards"): nothing covers a
name, an avatar or a card a player needs, in every game, at 390x844, 1280x800
and 1920x1080, measured with bounding_box().

Each game is played on the site's database to the second trick of round 1
(a last trick to look at), then opened by seat 1. On the real table:

- the "Last trick" button and, with the last trick shown, its caption, against
  every name and avatar, the hand's cards, the trick's cards and the middle's
  top-left group (the partner's middle card, a run's cards still to lead:
  drawn by the renderer's own renderMiddle with a run in the view);
- the tea question (drawn by the table's TeaTable.question into its layer)
  against every name and avatar;
- the reactions bar against the hand's cards;
- the fair deal's corner box against every name and avatar.
"""

from __future__ import annotations

import pytest

from .conftest import unique, wait_until
from .onsite import on_site

pytestmark = pytest.mark.browser

SIZES = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1280, "height": 800},
    "wide": {"width": 1920, "height": 1080},
}
GAMES = {"hokm4": 4, "hokm2": 2, "shelem4": 4, "shelem2": 2, "bridge": 4}

TO_SECOND_TRICK = r"""
import json, sys, time
from django.contrib.auth import get_user_model
from games import engine, services
from games.engine import CHANCE
from games.errors import PlayError
from games.models import Match
from rooms import services as rooms

name, first, *others = sys.argv[1:]
User = get_user_model()
a = User.objects.get(username=first)
room = rooms.create_room(a, name, {"turn_seconds": 60})
for number, other in enumerate(others, start=2):
    guest = User.objects.create_user(other, password="x-" + other)
    rooms.sit(room, guest, number, move=True); rooms.set_ready(room, guest, True)
match = rooms.start(room, a)
game = engine.get(name)
HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
for _ in range(20000):
    match.refresh_from_db()
    state = match.state
    view = game.view(state, None)
    if view.get("last_trick") and view.get("trick"):
        break
    to_act = game.to_act(state)
    try:
        if CHANCE in to_act:
            if services.expire(match.pk, match.version) is None:
                time.sleep(0.02)
            continue
        seat = min(to_act)
        action = game.auto_action(state, seat)
        if name == "bridge" and state.get("phase") == "auction":
            calls = state["auction"]["calls"] if isinstance(state.get("auction"), dict) else []
            bid = any(c not in ("P", "X", "XX") for c in calls)
            points = [sum(HCP.get(c[0], 0) for c in hand) for hand in state["hands"]]
            action = {"type": "call", "call": "P" if bid or points[seat - 1] != max(points) else "3NT"}
        services.play(match.pk, action, seat=seat, version=match.version)
    except PlayError:
        continue
print(json.dumps({"code": room.code, "match": match.pk}))
"""

BOXES = """(sel) => [...document.querySelectorAll(sel)].filter((el) => el.offsetParent !== null || el.getClientRects().length)
  .map((el) => { const b = el.getBoundingClientRect();
    return {x: b.left, y: b.top, r: b.right, b: b.bottom, what: sel + ' ' + (el.dataset.card || el.textContent || '').trim().slice(0, 30)}; })
  .filter((b) => b.r - b.x > 0 && b.b - b.y > 0)"""

# The renderer's own middle group with a run still to lead (H4-X3) and the tea question (H4-X4).
DRAW_EXTRAS = """() => {
  const app = window.takhteh.app;
  const f = app.liveFrame;
  const view = {...f.view, run: {seat: 1, cards: ['QS', 'KS', 'AS']}};
  app.renderer.middleKey = null;
  app.renderer.renderMiddle({...f, status: 'active', view});
  const other = f.view.viewer === 1 ? 2 : 1;
  app.tea.layer.replaceChildren(app.tea.question({seat: other, yes: []}));
  for (const span of app.tea.layer.querySelectorAll('[data-tea-fmt]')) {
    span.textContent = window.interpolate(span.dataset.teaFmt, {name: span.dataset.teaName || '', n: '۱۰'}, true);
  }
}"""


def meets(a: dict, b: dict) -> bool:
    return a["x"] < b["r"] - 0.5 and b["x"] < a["r"] - 0.5 and a["y"] < b["b"] - 0.5 and b["y"] < a["b"] - 0.5


def clashes(page, one: str, others: list[str]) -> list[tuple[str, str]]:
    mine = page.evaluate(BOXES, one)
    found = []
    for sel in others:
        for b in page.evaluate(BOXES, sel):
            for a in mine:
                if meets(a, b):
                    found.append((a["what"], b["what"]))
    return found


PEOPLE = [".seat .seat-name", ".seat .avatar"]


@pytest.mark.parametrize("game", list(GAMES))
def test_nothing_covers_a_name_an_avatar_or_a_needed_card(people, game):
    ana = people("ana", lang="en" if game in ("hokm2", "bridge") else "fa")
    others = [unique(f"p{n}") for n in range(2, GAMES[game] + 1)]
    played = on_site(
        TO_SECOND_TRICK,
        game,
        ana.name,
        *others,
        extra_env={"ROUND_PAUSE": "0", "FAIR_WAIT_SECONDS": "0"},
        timeout=400,
    )
    page = ana.goto(f"/rooms/{played['code']}/")
    wait_until(lambda: page.evaluate("() => Boolean(window.takhteh.app.liveFrame)"), message="the match")
    problems = {}
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.locator("[data-testid=last-trick-button]").wait_for()
        page.evaluate(DRAW_EXTRAS)
        ana.settle()
        found = []
        button = "[data-testid=last-trick-button]"
        found += clashes(
            page, button, [*PEOPLE, "[data-testid=hand] .card", "[data-trick] .tc .card", "[data-middle] > *"]
        )
        found += clashes(page, "[data-testid=tea-question]", PEOPLE)
        found += clashes(page, "[data-foot] .reactions", ["[data-testid=hand] .card"])
        found += clashes(page, "[data-testid=fair-box]", PEOPLE)
        ana.shot(f"felt-{game}-{size}")
        # The last trick shown: its caption covers no name, avatar, hand card or the middle's group.
        page.locator(button).click()
        page.locator("[data-testid=last-trick-caption]").wait_for()
        ana.settle()
        found += clashes(
            page,
            "[data-testid=last-trick-caption]",
            [*PEOPLE, "[data-testid=hand] .card", "[data-middle] > *"],
        )
        found += clashes(page, button, [*PEOPLE, "[data-last] .tc .card"])
        ana.shot(f"felt-{game}-{size}-last-trick")
        page.locator(button).click()
        if found:
            problems[size] = found
    assert not problems, problems
