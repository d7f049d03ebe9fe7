"""Issue 15: the score sheet lists every round of the match for a player who
comes back to it mid-match (a reload, a new tab) and for a spectator who
arrives late, from the full state frame's `rounds` (read from the database),
not only the rounds this page saw end. Issue 15's small thing: the
leaderboard at 360 px scrolls sideways inside its table, the page does not."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, digits, unique, wait_until
from .onsite import play_on_site

pytestmark = pytest.mark.browser

# The sheet's rows as drawn: round number -> the texts of its "us" and "them" cells.
ROWS = """() => [...document.querySelectorAll('[data-testid=sheet-table] tbody tr')].map((tr) => ({
  round: Number(tr.dataset.round),
  us: [...tr.querySelectorAll('td.us')].map((td) => td.innerText.trim()),
  them: [...tr.querySelectorAll('td.them')].map((td) => td.innerText.trim()),
}))"""


def clean(text: str) -> str:
    return digits(text).replace("\u2066", "").replace("\u2069", "").replace("\u2212", "-").replace("+", "")


def expected_cells(game: str, row: dict) -> tuple[list[str], list[str]]:
    """What the sheet's side columns say for ``row`` to a player of team 0."""
    if game.startswith("hokm"):
        pairs = [row["tricks"], row["score"]]
    else:
        pairs = [row["score"], row["totals"]]
    return [str(p[0]) for p in pairs], [str(p[1]) for p in pairs]


def open_sheet(page) -> list[dict]:
    page.locator("[data-sheet-toggle]").click()
    page.locator("[data-testid=sheet-table]").wait_for()
    return page.evaluate(ROWS)


def check_rows(game: str, drawn: list[dict], expected: list[dict]) -> None:
    assert [r["round"] for r in drawn] == [r["round"] for r in expected]
    for shown, row in zip(drawn, expected, strict=True):
        us, them = expected_cells(game, row)
        assert [clean(t) for t in shown["us"]] == us, (shown, row)
        assert [clean(t) for t in shown["them"]] == them, (shown, row)


@pytest.mark.parametrize(
    "game, rules, guests, lang, viewport",
    [
        ("hokm4", {"turn_seconds": 60, "middle_card": False}, 3, "fa", DESKTOP),
        ("shelem4", {"turn_seconds": 60}, 3, "en", PHONE),
    ],
    ids=["hokm4-fa-desktop", "shelem4-en-phone"],
)
def test_a_returning_player_and_a_late_spectator_see_every_past_round(
    people, game, rules, guests, lang, viewport
):
    """The match's first three (two) rounds are played while this player's page is away;
    the sheet he opens lists them all, again after a reload, and so does a spectator's."""
    player = people("back", lang=lang, viewport=viewport)
    others = [unique(f"g{i}") for i in range(guests)]
    rounds = 3 if game.startswith("hokm") else 2
    played = play_on_site(game, rules, f"rounds:{rounds}", player.name, *others)
    assert played["status"] == "active" and len(played["rounds"]) == rounds, played["rounds"]
    expected = played["rounds"]

    page = player.goto(f"/rooms/{played['code']}/")
    wait_until(lambda: page.evaluate("() => Boolean(window.takhteh.app.liveFrame)"), message="the match")
    check_rows(game, open_sheet(page), expected)
    assert not page.locator("[data-testid=sheet-empty]").count()
    player.shot(f"sheet-rounds-{game}-{lang}-returning")

    # A reload in the middle of the round: the page starts from nothing and lists them again.
    page.reload()
    wait_until(
        lambda: page.evaluate("() => Boolean(window.takhteh.app.liveFrame)"), message="the match again"
    )
    assert page.evaluate("() => window.takhteh.app.frame.full") is True
    check_rows(game, open_sheet(page), expected)
    player.shot(f"sheet-rounds-{game}-{lang}-after-reload")

    # A spectator who arrives now.
    watcher = people("watcher", lang="en" if lang == "fa" else "fa", viewport=PHONE, signed_up=False)
    wpage = watcher.goto(f"/rooms/{played['code']}/")
    wait_until(
        lambda: wpage.evaluate("() => Boolean(window.takhteh.app.liveFrame)"), message="the watched match"
    )
    check_rows(game, open_sheet(wpage), expected)
    watcher.shot(f"sheet-rounds-{game}-{watcher.lang}-spectator-phone")


LAYOUT = """() => {
  const wrap = document.querySelector('.lb-table-wrap');
  const table = wrap.querySelector('table');
  const doc = document.documentElement;
  return { pageWidth: doc.scrollWidth, viewport: window.innerWidth, wrapWidth: wrap.clientWidth,
    wrapScroll: wrap.scrollWidth, tableWidth: table.getBoundingClientRect().width,
    overflow: getComputedStyle(wrap).overflowX, dir: getComputedStyle(wrap).direction };
}"""


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_the_leaderboard_at_360_px_scrolls_inside_its_table(people, lang):
    """Every column is reachable by scrolling the table, none is cut, the page itself stays 360 px wide."""
    viewer = people("lb", lang=lang, viewport=PHONE)
    rival = unique("lbr")
    played = play_on_site("hokm2", {}, "end", viewer.name, rival)
    assert played["status"] == "finished"
    page = viewer.goto("/leaderboard/?game=hokm")
    table = page.locator("[data-testid=leaderboard]")
    table.wait_for()
    assert page.locator(f"tr[data-username='{viewer.name}']").count() == 1
    box = page.evaluate(LAYOUT)
    assert box["pageWidth"] <= box["viewport"] == 360, box  # no page overflow
    assert box["overflow"] == "auto", box
    assert box["wrapScroll"] > box["wrapWidth"], box  # the table is wider and scrolls inside its frame
    viewer.shot(f"leaderboard-{lang}-phone")

    last = page.locator("[data-testid=leaderboard] thead th").last  # "Unfinished"
    first = page.locator("[data-testid=leaderboard] thead th").first
    assert not fully_inside(last.bounding_box(), 360)
    # Scrolled to the far end (in RTL the far end is on the left), the last column shows whole.
    page.evaluate(
        "() => { const w = document.querySelector('.lb-table-wrap'); "
        "w.scrollLeft = getComputedStyle(w).direction === 'rtl' ? -w.scrollWidth : w.scrollWidth; }"
    )
    wait_until(lambda: fully_inside(last.bounding_box(), 360), timeout=3, message="the last column in view")
    assert not fully_inside(first.bounding_box(), 360)
    assert page.evaluate(LAYOUT)["pageWidth"] <= 360
    viewer.shot(f"leaderboard-{lang}-phone-scrolled")


def fully_inside(box: dict | None, width: int) -> bool:
    return bool(box) and box["x"] >= 0 and box["x"] + box["width"] <= width
