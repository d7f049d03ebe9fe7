"""A whole day's Hokm challenge in the browser (E-1, E-2, issue 37): one
entrant plays all eight deals by clicking legal cards, leaves a deal in the
middle and resumes it, then, after the (test-forced) close, opens another
entrant's play of deal 1 beside his own. The server's challenge bots are at
the quick level (tests/browser/server_settings.py) so the day takes minutes."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, ROOM_URL, digits, wait_until
from .test_events import click_once, fresh_day, on_site, play_deal

pytestmark = pytest.mark.browser


def click_cards(player, count: int, timeout: float = 60.0) -> None:
    """Name trump if asked, then click ``count`` legal cards (the deal goes on)."""
    page = player.page
    clicked = [0]

    def step() -> bool:
        clicked[0] += click_once(page)
        return clicked[0] >= count

    wait_until(step, timeout=timeout, interval=0.05, message=f"{count} cards played")


def open_day(player):
    """The day's page: from the events page the first time, then at its address."""
    url = getattr(player, "day_url", None)
    if url:
        page = player.goto(url)
    else:
        page = player.goto("/events/")
        page.locator("[data-testid=challenge-hokm4] a").click()
    page.locator("[data-testid=challenge-day]").wait_for()
    player.day_url = page.url
    return page


def played(page) -> int:
    return int(digits(page.locator("[data-testid=progress]").inner_text()).split()[0])


@pytest.mark.timeout(900)
def test_e1_e2_a_whole_days_hokm_challenge_left_resumed_then_reviewed_beside_another(people):
    # Its own day: test_events.py plays today's Hokm challenge too and forces its close.
    fresh_day("hokm4", minutes=12)
    rival = people("rivalday", lang="en", viewport=DESKTOP)
    nima = people("nimaday", lang="en", viewport=DESKTOP)

    # The other entrant plays deal 1 (his play is reviewed after the close).
    page = open_day(rival)
    page.locator("[data-testid=play-deal]").click()
    page.wait_for_url(ROOM_URL)
    play_deal(rival)

    for number in range(1, 9):
        page = open_day(nima)
        assert played(page) == number - 1
        assert page.locator("[data-testid=review-other-1]").count() == 0  # E-2: not before the close
        page.locator("[data-testid=play-deal]").click()
        page.wait_for_url(ROOM_URL)
        if number == 3:
            # Deal 3 is left in the middle (another page) and resumed: it counts as started.
            click_cards(nima, 3)
            deal_url = page.url
            page = open_day(nima)
            button = page.locator("[data-testid=play-deal]")
            assert "3" in digits(button.inner_text())  # "Resume deal 3"
            assert played(page) == 2
            button.click()
            page.wait_for_url(ROOM_URL)
            assert page.url == deal_url  # the same table, where he left it
        play_deal(nima)
    page = open_day(nima)
    assert played(page) == 8 and page.locator("[data-testid=play-deal]").count() == 0
    nima.shot("events-day-done-en-desktop")

    on_site(
        "from events import challenge\n"
        "day = challenge.get_day(challenge.today(), 'hokm4')\n"
        "print(challenge.close(day))\n"
    )
    page = open_day(nima)
    assert page.locator("[data-testid=challenge-day]").get_attribute("data-closed") == "true"
    others = page.locator("[data-testid=review-other-1]")
    assert rival.name in others.all_inner_texts()
    others.filter(has_text=rival.name).first.click()
    frames = page.locator("[data-testid=review-entry] iframe, [data-testid=review-own] iframe")
    frames.nth(1).wait_for()
    assert frames.count() == 2  # the other's deal 1 beside his own
    for side in ("review-entry", "review-own"):
        frame = page.frame_locator(f"[data-testid={side}] iframe")
        frame.locator("[data-testid=replay-app][data-mode=ready]").wait_for(timeout=20000)
    nima.shot("events-day-review-en-desktop")
    assert not nima.errors and not rival.errors
