"""R-8: "Table rules" opens the game's rules over a live table, with the room's
own rules marked; a button returns to the same table, and the game (the turn
clock, C-8) goes on meanwhile."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, ROOM_URL, digits, wait_until, what_now

pytestmark = pytest.mark.browser


def clock_seconds(page):
    sec = page.locator("[data-testid=turn-clock] .clock-sec")
    if not sec.count():
        return None
    text = digits(sec.inner_text()).strip()
    return int(text) if text.isdigit() else None


@pytest.mark.parametrize(("lang", "viewport", "size"), [("fa", PHONE, "phone"), ("en", DESKTOP, "desktop")])
def test_r_8_the_rules_panel_opens_over_a_live_table_and_closes_back_to_it(people, lang, viewport, size):
    reza = people("reza", lang=lang, viewport=viewport)
    page = reza.goto("/")
    page.locator("[data-testid=practice-hokm4]").click()
    page.wait_for_url(ROOM_URL)
    room_url = page.url
    # My turn comes (trump or a card): my clock runs (C-8).
    wait_until(lambda: what_now(reza) in ("trump", "card"), timeout=30, message="my turn")
    wait_until(lambda: clock_seconds(page) is not None, message="the turn clock")
    page.evaluate("() => { window.__sameTable = true; }")

    page.locator("[data-testid=rules-link]").click()
    panel = page.locator("[data-testid=rules-panel]")
    panel.wait_for(state="visible")
    frame = page.frame_locator("[data-testid=rules-panel] iframe")
    frame.locator("[data-testid=room-rules]").wait_for()
    frame.locator("[data-testid=glossary]").wait_for()
    # The table's card faces, drawn by the page's own script once it has loaded.
    faces = frame.locator("[data-cards] .card.face")
    wait_until(lambda: faces.count() >= 7, message="the rules page's card faces")
    # The clock keeps running while the rules are open (the game is not paused).
    before = clock_seconds(page)
    wait_until(
        lambda: (clock_seconds(page) or 99) < before, timeout=5, message="the clock ticking under the panel"
    )
    reza.shot(f"rules-panel-{lang}-{size}")

    page.locator("[data-testid=rules-back]").click()
    panel.wait_for(state="hidden")
    # The same table, not a reload: the page's own marker is still there, and the game went on.
    assert page.url == room_url and page.evaluate("() => window.__sameTable === true")
    assert what_now(reza) in ("trump", "card") or clock_seconds(page) is not None
    reza.shot(f"rules-panel-closed-{lang}-{size}")


def test_r_8_h4_5_h4_6_the_panel_marks_where_this_rooms_rules_differ(people):
    """A room made with kot on and a match of three: the panel marks both, and only those, as not the usual."""
    nima = people("nima", lang="fa", viewport=PHONE)
    page = nima.goto("/rooms/?game=hokm4")
    page.locator("[data-testid=pick-hokm4]").check(force=True)
    form = page.locator("[data-testid=create-hokm4]")
    form.locator("[name=rule_target]").select_option(index=0)  # 3 rounds (usually 7)
    form.locator("[name=rule_kot]").check()  # usually off
    form.locator("[data-testid=create-room]").click()
    page.wait_for_url(ROOM_URL)
    page.locator("[data-testid=rules-link]").click()
    frame = page.frame_locator("[data-testid=rules-panel] iframe")
    frame.locator("[data-testid=room-rules]").wait_for()
    marked = frame.locator("[data-testid=room-rules] li.differs")
    wait_until(lambda: marked.count() == 2, message="two rules marked")
    assert sorted(marked.nth(i).get_attribute("data-rule") for i in range(2)) == ["kot", "target"]
    # Beside the rule itself, further down the page, too.
    assert frame.locator('.at-table.differs[data-at-table="kot"]').count() == 1
    nima.shot("rules-panel-differs-fa-phone")
    page.locator("[data-testid=rules-back]").click()
    page.locator("[data-testid=rules-panel]").wait_for(state="hidden")
