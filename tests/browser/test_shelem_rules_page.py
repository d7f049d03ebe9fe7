"""SH-7, SH-8, SH-11 on the Shelem rules page (issue 34), in a browser: the
link of the match's result (#match-end) lands on how a match ends, and the
jokers' rules are there too; Persian and English, phone and desktop."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang,viewport", [("fa", PHONE), ("en", DESKTOP)])
def test_sh_11_the_rules_open_at_how_a_match_ends(people, lang, viewport):
    reader = people("reader", lang=lang, viewport=viewport, signed_up=False)
    page = reader.goto("/rules/shelem/#match-end")
    heading = page.locator("#match-end")
    heading.wait_for()
    # Landed there (the card pictures drawn above it may move it a little, not out of view).
    expect(heading).to_be_in_viewport()
    assert page.locator("[data-testid=one-round-match]").is_visible()
    kind = "phone" if viewport is PHONE else "desktop"
    reader.shot(f"rules-shelem-match-end-{lang}-{kind}")
    page.locator("#jokers").scroll_into_view_if_needed()
    assert page.locator("#jokers ~ figure .card-row[data-cards='RJ BJ AS']").count() == 1
    reader.shot(f"rules-shelem-jokers-{lang}-{kind}")
