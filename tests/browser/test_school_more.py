"""Issue 38: the Shelem and Bridge lessons walked in Chromium, in Persian on a phone and in English on a
desktop: one wrong answer, then the right one, at every step; the engines' verdicts name the rule
(SH-3, SH-7, SH-9, SH-10, B-2..B-5)."""

from __future__ import annotations

import json

import pytest

from .conftest import DESKTOP, PHONE
from .test_school import OVERFLOW, in_view, verdict, wait_until

pytestmark = pytest.mark.browser

WALK = {
    10: [(25, 30, "SH-9"), (120, 125, "SH-3"), (-240, -120, "SH-10"), ("BJ", "RJ", "SH-7")],
    11: [("1NT", "2C", "B-2"), (3, 1, "B-3"), (4, 2, "B-4"), (90, 60, "B-5")],
}


def choose(page, value):
    page.locator(f"[data-answer='{json.dumps(value)}']").click()


@pytest.mark.parametrize(("lang", "viewport"), [("fa", PHONE), ("en", DESKTOP)])
def test_the_shelem_and_bridge_lessons_walked(people, lang, viewport):
    player = people("pupil", lang=lang, viewport=viewport, signed_up=False)
    page = player.page
    for number, steps in WALK.items():
        player.goto(f"/school/{number}/")
        for i, (wrong, right, rule) in enumerate(steps):
            page.locator("[data-testid=prompt]").wait_for()
            prompt = page.locator("[data-testid=prompt]").inner_text()
            assert any("\u0600" <= ch <= "\u06ff" for ch in prompt) == (lang == "fa"), prompt
            choose(page, wrong)
            code, named = verdict(page)
            assert code != "ok" and named == rule, (number, i, code, named)
            wait_until(
                lambda: in_view(page, "[data-testid=feedback]"), timeout=3, message="the verdict in view"
            )
            assert page.evaluate(OVERFLOW) <= 0, (number, i, "the page scrolls sideways")
            page.evaluate(
                "() => { const b = document.querySelector('[data-testid=feedback]'); b.removeAttribute('data-code'); }"
            )
            choose(page, right)
            assert verdict(page) == ("ok", rule), (number, i)
            if i == 0:
                player.shot(f"school-{number}-{lang}-{'phone' if viewport == PHONE else 'desktop'}")
            if i + 1 < len(steps):
                page.locator("[data-testid=next-step]").click()
        page.locator("[data-testid=lesson-done]").wait_for()
