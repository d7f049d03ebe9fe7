"""Issue 21 at the table: the creator picks each bot's level as he fills the
seat, can change it while the room waits, and a guest sees which bot is which."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, ROOM_URL, wait_until

pytestmark = pytest.mark.browser


def seats(page) -> list[dict]:
    return page.evaluate("() => window.takhteh.app.room.seats")


def test_the_creator_picks_a_level_per_bot_and_the_guest_sees_it(people):
    host = people("parisa", lang="fa", viewport=DESKTOP)
    page = host.goto("/rooms/?game=hokm4")
    page.locator("[data-testid=create-hokm4] [data-testid=create-room]").click()
    page.wait_for_url(ROOM_URL)
    code = ROOM_URL.search(page.url).group(1)

    # An empty seat offers the three levels, normal chosen until he picks.
    picker = page.locator("[data-testid=bot-level-3]")
    assert picker.input_value() == "normal"
    assert picker.locator("option").count() == 3
    picker.select_option("strong")
    page.locator("[data-testid=bot-seat-3]").click()
    page.locator("[data-testid=unbot-seat-3]").wait_for()
    page.locator("[data-testid=bot-seat-4]").click()  # left at normal
    page.locator("[data-testid=unbot-seat-4]").wait_for()
    wait_until(lambda: [s["level"] for s in seats(page)][2:] == ["strong", "normal"], message="the levels")
    assert page.locator("[data-testid=bot-level-3]").input_value() == "strong"

    # Changed while the room waits: the bot seat's own picker.
    page.locator("[data-testid=bot-level-4]").select_option("easy")
    wait_until(lambda: seats(page)[3]["level"] == "easy", message="the new level")
    host.shot("bot-levels-fa-desktop")

    guest = people("kaveh", lang="en", viewport=PHONE)
    table = guest.goto(f"/rooms/{code}/")
    table.locator("[data-testid=bot-level-tag-3]").wait_for()
    assert table.locator("[data-testid=bot-level-tag-3]").inner_text().strip() == "Strong bot"
    assert table.locator("[data-testid=bot-level-tag-4]").inner_text().strip() == "Easy bot"
    assert table.locator("[data-testid=bot-level-3]").count() == 0  # only the creator picks
    guest.shot("bot-levels-en-phone-guest")
