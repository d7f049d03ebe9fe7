"""Issue 16 at a bridge table of four people, opened by North (seat 1) at a
chosen point of a match played on the site (B-2..B-10):

- the bidding box never covers a player's name or seat (bounding boxes);
- dummy's hand at 360 px is on the screen, clear of names, the trick and the
  player's hand, and every one of its cards shows its index whole ("10");
  a spectator sees dummy and the cards played, no hidden card;
- after a finished rubber the score sheet shows both sides above and below
  the line and the totals, as the engine's RubberSheet has them, and every
  deal of the rubber in the list;

in Persian (RTL) and English, at 360x740, 1280x800 and 1920x1080.
"""

from __future__ import annotations

import pytest

from games.engine.bridge import RubberSheet

from .conftest import DESKTOP, PHONE, unique, wait_until
from .onsite import play_on_site
from .test_table2_bridge import check_sheet_against_engine

pytestmark = pytest.mark.browser

WIDE = {"width": 1920, "height": 1080}
SIZES = [("phone", PHONE), ("desktop", DESKTOP), ("wide", WIDE)]
RULES = {"turn_seconds": 60}

BOXES = """(sel) => [...document.querySelectorAll(sel)].filter((el) => el.offsetParent !== null).map((el) => {
  const b = el.getBoundingClientRect();
  return { x: b.left, y: b.top, r: b.right, b: b.bottom, text: el.innerText || el.dataset.card || '' };
})"""

# Each dummy card: is its index (rank and suit, top left) on top at its four corners and centre?
INDEX_CLEAR = """() => [...document.querySelectorAll('[data-testid=dummy] .card')].map((card) => {
  const ci = card.querySelector('.ci');
  const b = ci.getBoundingClientRect();
  const pts = [[b.left + 1, b.top + 1], [b.right - 1, b.top + 1], [b.left + 1, b.bottom - 1],
    [b.right - 1, b.bottom - 1], [(b.left + b.right) / 2, (b.top + b.bottom) / 2]];
  const over = pts.map(([x, y]) => document.elementFromPoint(x, y))
    .map((hit) => (hit && card.contains(hit) ? null : (hit && hit.closest('.card') ? hit.closest('.card').dataset.card : String(hit && hit.className))));
  const clear = over.every((o) => o === null);
  const inside = b.left >= 0 && b.top >= 0 && b.right <= innerWidth && b.bottom <= innerHeight;
  return { card: card.dataset.card, clear, inside, over, w: b.width, h: b.height, ci: [b.left, b.top, b.right, b.bottom] };
})"""


def meets(a: dict, b: dict) -> bool:
    return a["x"] < b["r"] - 0.5 and b["x"] < a["r"] - 0.5 and a["y"] < b["b"] - 0.5 and b["y"] < a["b"] - 0.5


def boxes(page, selector: str) -> list[dict]:
    return page.evaluate(BOXES, selector)


def open_table(player, code: str):
    page = player.goto(f"/rooms/{code}/")
    wait_until(lambda: page.evaluate("() => Boolean(window.takhteh.app.liveFrame)"), message="the match")
    return page


def settle(page):
    page.wait_for_timeout(350)
    page.evaluate(
        "() => Promise.all(document.getAnimations().filter((a) => a.effect && "
        "a.effect.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => null)))"
    )


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_the_bidding_box_never_covers_a_name_or_seat(people, lang):
    north = people("north", lang=lang)
    played = play_on_site("bridge", RULES, "auction", north.name, *(unique(s) for s in "esw"))
    assert played["view"]["phase"] == "auction"
    page = open_table(north, played["code"])
    for tag, size in SIZES:
        page.set_viewport_size(size)
        box = page.locator("[data-testid=call-panel]")
        box.wait_for()
        settle(page)
        north.shot(f"table2-bridge-bidding-{lang}-{tag}")
        panel = boxes(page, "[data-testid=call-panel]")[0]
        names = boxes(page, ".seat .seat-name") + boxes(page, ".seat .avatar-wrap")
        assert len(names) == 8, names
        covered = [n for n in names if meets(panel, n)]
        assert not covered, (tag, panel, covered)
        # The box itself is whole on the screen.
        assert panel["x"] >= 0 and panel["r"] <= size["width"] and panel["b"] <= size["height"], (tag, panel)


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_dummy_is_readable_and_clear_at_360_px(people, lang):
    north = people("lead", lang=lang, viewport=PHONE)
    # West declares 1NT; North leads; East (dummy) goes down at North's side.
    played = play_on_site("bridge", RULES, "dummy", north.name, *(unique(s) for s in "esw"))
    view = played["view"]
    assert view["dummy"] == 2 and len(view["dummy_hand"]) == 13, view
    page = open_table(north, played["code"])
    for tag, size in SIZES:
        page.set_viewport_size(size)
        page.locator("[data-testid=dummy]").wait_for()
        settle(page)
        north.shot(f"table2-bridge-dummy-{lang}-{tag}")
        cards = page.evaluate(INDEX_CLEAR)
        assert len(cards) == 13
        hidden = [c for c in cards if not (c["clear"] and c["inside"])]
        assert not hidden, (tag, hidden)  # every index whole, none under another card, all on the screen
        dummy = boxes(page, "[data-testid=dummy]")[0]
        others = (
            boxes(page, ".seat .seat-name")
            + boxes(page, "[data-testid=trick] .tc")
            + boxes(page, "[data-testid=hand] .card")
        )
        assert not [o for o in others if meets(dummy, o)], (tag, dummy)
        ten = [c for c in view["dummy_hand"] if c[0] == "T"]
        for card in ten:  # "10" whole: both digits inside the card's index
            text = page.locator(f"[data-testid=dummy] .card[data-card='{card}'] .ci").inner_text()
            assert "10" in text.replace("\n", ""), text

    # A spectator sees dummy and the cards played, and no card of a hidden hand.
    watcher = people("kibitzer", lang="en" if lang == "fa" else "fa", viewport=PHONE, signed_up=False)
    wpage = open_table(watcher, played["code"])
    wpage.locator("[data-testid=dummy]").wait_for()
    shown = set(wpage.eval_on_selector_all("[data-card]", "els => els.map((e) => e.dataset.card)"))
    public = set(view["dummy_hand"]) | {t["card"] for t in view["trick"]}
    assert shown and shown <= public, shown - public
    assert not wpage.evaluate("() => window.takhteh.app.liveFrame.view.hand")
    watcher.shot(f"table2-bridge-dummy-spectator-{watcher.lang}-phone")


@pytest.mark.parametrize("lang, viewport", [("fa", DESKTOP), ("en", PHONE)], ids=["fa-desktop", "en-phone"])
def test_the_score_sheet_after_a_finished_rubber(people, lang, viewport):
    north = people("rubber", lang=lang, viewport=viewport)
    played = play_on_site("bridge", RULES, "end", north.name, *(unique(s) for s in "esw"))
    assert played["status"] == "finished"
    score = played["view"]["score"]
    sheet = RubberSheet.from_data(score)
    assert sheet.is_over
    page = open_table(north, played["code"])
    page.locator("[data-sheet-toggle]").click()
    page.locator("[data-testid=rubber-sheet]").wait_for()
    view = page.evaluate("() => window.takhteh.app.liveFrame.view")
    assert view["score"] == score
    check_sheet_against_engine(page, view)
    # Both sides' columns, above and below the line, and the totals under them.
    lines = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=rubber-sheet] td[data-points]')]"
        ".map((td) => td.dataset.team + td.dataset.line)"
    )
    winner = 0 if sheet.winner == "NS" else 1
    assert {f"{winner}above", f"{winner}below"} <= set(lines), lines  # the rubber bonus, the games
    heads = page.locator("[data-testid=rubber-sheet] thead th")
    assert heads.count() == 2
    assert page.locator("[data-testid=rubber-totals] td").count() == 2
    won = page.locator("[data-testid=rubber-won]")
    assert won.is_visible()
    totals = sheet.totals()
    assert str(max(totals.values())) in won.inner_text().translate(str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789"))
    # Every deal of the rubber in the list below, passed-out ones too.
    deals = page.locator("[data-testid=sheet-table] tbody tr")
    assert deals.count() == len(played["rounds"]) >= 2
    north.shot(f"table2-bridge-rubber-over-{lang}-{'phone' if viewport == PHONE else 'desktop'}")
    page.locator("[data-testid=rubber-sheet]").scroll_into_view_if_needed()
    other = DESKTOP if viewport == PHONE else PHONE
    page.set_viewport_size(other)
    settle(page)
    north.shot(f"table2-bridge-rubber-over-{lang}-{'phone' if other == PHONE else 'desktop'}")
