"""Rubber bridge's score sheet (B-5..B-10), issue 34: it opens by itself only at
the end of a rubber (and at any time on demand), never covers a seat or
dummy, and fits its columns; at 1280x800 the whole table, the hand's cards and
the reactions bar fit without scrolling.

North (seat 1) opens the table while dummy is down in deal 1; the rest of the
rubber is then played on the site's database (through the play service) while
his browser watches: the sheet must stay closed over every deal's end but the
last, and open by itself when the rubber is over.
"""

from __future__ import annotations

import pytest

from .conftest import unique, wait_until
from .onsite import on_site, play_on_site

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
RULES = {"turn_seconds": 60}

# Play an existing match on: bridge, the strongest hand of each deal bids 3NT.
RESUME = r"""
import json, sys, time
from games import engine, services
from games.engine import CHANCE
from games.errors import PlayError
from games.models import Match

match_id, until = int(sys.argv[1]), sys.argv[2]
game = engine.get("bridge")
HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
for _ in range(30000):
    match = Match.objects.get(pk=match_id)
    state = match.state
    if match.status != Match.Status.ACTIVE:
        break
    to_act = game.to_act(state)
    try:
        if CHANCE in to_act:
            if services.expire(match.pk, match.version) is None:
                time.sleep(0.02)
            continue
        seat = min(to_act)
        action = game.auto_action(state, seat)
        if state.get("phase") == "auction":
            calls = state["auction"]["calls"] if isinstance(state.get("auction"), dict) else []
            bid = any(c not in ("P", "X", "XX") for c in calls)
            points = [sum(HCP.get(c[0], 0) for c in hand) for hand in state["hands"]]
            action = {"type": "call", "call": "P" if bid or points[seat - 1] != max(points) else "3NT"}
        services.play(match.pk, action, seat=seat, version=match.version)
        time.sleep(0.01)
    except PlayError:
        continue
print(json.dumps({"status": Match.objects.get(pk=match_id).status}))
"""

# Every time the sheet is shown, with the rubber's state then.
WATCH = """() => {
  window.__sheetShown = [];
  const el = document.querySelector('[data-sheet]');
  new MutationObserver(() => {
    if (el.hidden) return;
    const f = window.takhteh.app.liveFrame;
    const s = f && f.view.score;
    window.__sheetShown.push({over: Boolean(s && s.winner !== null && s.winner !== undefined), status: f && f.status});
  }).observe(el, {attributes: true, attributeFilter: ['hidden']});
}"""

BOXES = """() => {
  const box = (el) => { const b = el.getBoundingClientRect(); return {x: b.left, y: b.top, r: b.right, b: b.bottom}; };
  const sheet = document.querySelector('[data-sheet]');
  const sheetBox = sheet.hidden ? null : box(sheet);
  const seats = [...document.querySelectorAll('.seat .avatar, .seat .seat-name, [data-testid=dummy] .card')]
    .filter((el) => el.offsetParent !== null).map((el) => ({...box(el), what: el.className}));
  const tables = [...sheet.querySelectorAll('table')].map((t) => ({w: t.scrollWidth, box: t.parentElement.clientWidth}));
  return {sheet: sheetBox, seats, tables, scroll: [document.documentElement.scrollWidth - innerWidth,
    document.documentElement.scrollHeight - innerHeight]};
}"""


def meets(a: dict, b: dict) -> bool:
    return a["x"] < b["r"] - 0.5 and b["x"] < a["r"] - 0.5 and a["y"] < b["b"] - 0.5 and b["y"] < a["b"] - 0.5


def covered(page) -> list[dict]:
    got = page.evaluate(BOXES)
    return [s for s in got["seats"] if got["sheet"] and meets(got["sheet"], s)]


def fits_columns(page) -> bool:
    return all(t["w"] <= t["box"] + 1 for t in page.evaluate(BOXES)["tables"])


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_b5_the_sheet_opens_by_itself_only_when_the_rubber_ends_and_covers_no_seat(people, lang):
    north = people("north", lang=lang, viewport=DESKTOP)
    played = play_on_site("bridge", RULES, "dummy", north.name, *(unique(s) for s in "esw"))
    page = north.goto(f"/rooms/{played['code']}/")
    wait_until(lambda: page.evaluate("() => Boolean(window.takhteh.app.liveFrame)"), message="the match")
    page.locator("[data-testid=dummy]").wait_for()
    north.settle()
    # 1280x800 mid-deal: the table, the hand and the reactions bar without scrolling; the sheet closed.
    assert page.locator("[data-sheet]").is_hidden()
    north.shot(f"bridge-mid-deal-sheet-closed-{lang}-desktop")
    assert page.evaluate(BOXES)["scroll"][1] <= 0, page.evaluate(BOXES)["scroll"]
    foot = page.locator("[data-foot]").bounding_box()
    assert foot["y"] + foot["height"] <= DESKTOP["height"]
    north.shot(f"bridge-mid-deal-sheet-closed-{lang}-desktop")
    # On demand, at any time: beside the table, over no seat and no dummy card; its columns fit.
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.locator("[data-sheet-toggle]").click()
        page.locator("[data-testid=rubber-sheet]").wait_for()
        north.settle()
        assert not covered(page), (size, covered(page))
        assert fits_columns(page), (size, page.evaluate(BOXES)["tables"])
        north.shot(f"bridge-sheet-on-demand-{lang}-{size}")
        page.locator("[data-testid=sheet-close]").click()
        assert page.locator("[data-sheet]").is_hidden()
    page.set_viewport_size(DESKTOP)

    page.evaluate(WATCH)
    # E, S and W have no browser: their fair deal values are substituted at once (F-4)
    out = on_site(
        RESUME,
        str(played["match"]),
        "end",
        extra_env={"ROUND_PAUSE": "0", "FAIR_WAIT_SECONDS": "0"},
        timeout=400,
    )
    assert out["status"] == "finished"
    # The page shows every trick for its second (C-4): on a busy machine it is still
    # that far behind the resume when it has ended (a condition wait, no longer than that).
    wait_until(
        lambda: page.evaluate("() => window.takhteh.app.liveFrame.status") == "finished",
        timeout=120,
        message="the end",
    )
    wait_until(lambda: page.locator("[data-sheet]").is_visible(), message="the sheet at the rubber's end")
    shown = page.evaluate("() => window.__sheetShown")
    assert shown and all(s["over"] for s in shown), shown  # never by itself before the rubber was over
    north.settle()
    assert not covered(page), covered(page)
    assert fits_columns(page), page.evaluate(BOXES)["tables"]
    north.shot(f"bridge-rubber-over-sheet-{lang}-desktop")
    page.set_viewport_size(PHONE)
    north.settle()
    assert not covered(page) and fits_columns(page)
    north.shot(f"bridge-rubber-over-sheet-{lang}-phone")
