"""The school in Chromium: all nine Hokm lessons, one wrong move and then the
right one in each step, in Persian and in English; the engine's verdict names
the rule (C-1..C-4, H4-1, H4-2, H4-5..H4-7, H4-X1, H4-X2)."""

from __future__ import annotations

import json

import pytest

from .conftest import DESKTOP, PHONE, wait_until

pytestmark = pytest.mark.browser

# (wrong, right) per step, and the rule each step names.
WALK = {
    1: [(2, 3, "C-2")],
    2: [("KH", "AH", "C-1"), ("TS", "JS", "C-1")],
    3: [(4, 2, "C-2"), (4, 3, "C-2")],
    4: [(1, 2, "H4-1"), ("H", "S", "H4-2")],
    5: [("KH", "7D", "C-3")],
    6: [("QS", "4H", "C-4")],
    7: [("AD", "KS", "C-4"), ("AS", "2H", "C-4")],
    8: [(2, 1, "H4-5"), (1, 2, "H4-5"), (2, 3, "H4-5"), (False, True, "H4-6"), (4, 2, "H4-7")],
    9: [("C", "D", "H4-X1"), ("AD", "8C", "H4-X2")],
}


def click_answer(page, value):
    if isinstance(value, bool) or (isinstance(value, int) and page.locator("[data-testid=choice-0]").count()):
        page.locator(f"[data-answer='{json.dumps(value)}']").click()
    elif isinstance(value, int):
        page.locator(f"[data-testid=seat-{value}]").click()
    elif len(value) == 1:
        page.locator(f"[data-testid=suit-{value}]").click()
    else:
        page.locator(f"button.card[data-card='{value}']").first.click()


def verdict(page):
    box = page.locator("[data-testid=feedback]")
    wait_until(lambda: box.get_attribute("data-code") is not None and box.is_visible(), message="a verdict")
    return box.get_attribute("data-code"), box.get_attribute("data-rule")


SEATS_AS_DRAWN = """() => {
  const felt = document.querySelector("[data-felt]");
  return [1, 2, 3, 4].map((s) => {
    const box = felt.querySelector(`:scope > .lseat[data-seat="${s}"]`);
    const avatar = box.querySelector(`[data-testid=seat-${s}]`);
    return {
      button: !!avatar && avatar.tagName === "BUTTON",
      hakem: !!box.querySelector(".hakem-mark"),
      backs: box.querySelectorAll(".backs .card").length,
    };
  });
}"""


def check_seats(page, step):
    """Every step draws its own seats, not the first step's (C-2, H4-7: the seat answers)."""
    scene = json.loads(page.locator("#lesson-scenes").text_content())[step]
    drawn = page.evaluate(SEATS_AS_DRAWN)
    for seat, got in enumerate(drawn, start=1):
        assert got["button"] == (scene["kind"] == "seat"), (step, seat, got)
        assert got["hakem"] == (scene.get("hakem") == seat), (step, seat, got)
        if not scene.get("draw") and seat != 1:
            assert got["backs"] == min((scene.get("counts") or [0] * 4)[seat - 1], 5), (step, seat, got)


def walk(player, lang, viewport_name):
    page = player.page
    for number, steps in WALK.items():
        player.goto(f"/school/{number}/")
        for i, (wrong, right, rule) in enumerate(steps):
            page.locator("[data-testid=prompt]").wait_for()
            check_seats(page, i)
            click_answer(page, wrong)
            code, named = verdict(page)
            assert code != "ok" and named == rule, (number, i, code, named)
            if number in (5, 8, 9) and i == 0:
                player.shot(f"school-{number}-mistake-{lang}-{viewport_name}")
            page.evaluate(
                "() => { const b = document.querySelector('[data-testid=feedback]'); b.removeAttribute('data-code'); }"
            )
            click_answer(page, right)
            code, named = verdict(page)
            assert (code, named) == ("ok", rule), (number, i)
            if i + 1 < len(steps):
                page.locator("[data-testid=next-step]").click()
        page.locator("[data-testid=lesson-done]").wait_for()
        if number in (1, 4, 6, 7):
            player.shot(f"school-{number}-done-{lang}-{viewport_name}")


def test_a_visitor_walks_through_the_nine_lessons_in_persian_on_a_phone(people):
    visitor = people("visitor", lang="fa", viewport=PHONE, signed_up=False)
    walk(visitor, "fa", "phone")
    page = visitor.goto("/school/")
    # A visitor's progress is kept in the browser: every lesson is marked done.
    assert page.locator(".lesson-item.done").count() == 9
    visitor.shot("school-index-fa-phone")


def test_a_player_walks_through_the_nine_lessons_in_english_and_keeps_his_progress(people, browser, site):
    ann = people("ann", lang="en", viewport=DESKTOP)
    walk(ann, "en", "desktop")
    assert "Lesson done" in ann.page.locator("[data-testid=lesson-done]").inner_text()
    # Saved for the account: a fresh browser of the same account sees the marks (no localStorage).
    fresh = browser.new_context(viewport=DESKTOP)
    fresh.add_cookies(ann.context.cookies())
    page = fresh.new_page()
    page.goto(f"{site}/school/")
    assert page.locator(".lesson-item.done").count() == 9
    page.screenshot(path=str(ann.shot("school-index-en-desktop")))
    fresh.close()
