"""Hokm for two, played to the end of a short match by clicking: the private
draft (H2-4), the hakem's trump, the cards; then the result panel and
"Play again" with its green consent ring (R-3)."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, ROOM_URL, play_match, wait_until, what_now

pytestmark = pytest.mark.browser


def test_hokm_for_two_to_the_end_and_play_again(people):
    ann = people("ann", lang="fa", viewport=DESKTOP)
    ben = people("ben", lang="en", viewport=PHONE)

    page = ann.goto("/rooms/?game=hokm2")
    form = page.locator("[data-testid=create-hokm2]")
    form.locator("[name=rule_target]").select_option(index=0)  # first to 3 rounds
    form.locator("[data-testid=create-room]").click()
    page.wait_for_url(ROOM_URL)
    url = page.url

    ben.goto(url).locator("[data-testid=take-seat-2]").click()
    ben.page.locator("[data-testid=ready]").click()
    start = page.locator("[data-testid=start]")
    wait_until(lambda: not start.is_disabled(), message="the start button")
    start.click()

    drafted: list[bool] = []

    def shoot_the_draft(player, need) -> None:
        if need == "draft" and player is ben and not drafted:
            ben.shot("hokm2-draft-en-phone")
            drafted.append(True)

    play_match((ann, ben), before=shoot_the_draft)
    assert drafted

    ann.shot("hokm2-match-result-fa-desktop")
    assert ann.page.locator("[data-testid=final-score]").inner_text().strip()

    # "Play again" turns that player's ring green for everyone; both agree, a new match starts.
    ann.page.locator("[data-testid=rematch]").click()
    ben.page.locator("[data-testid=seat-1].consent").wait_for()
    assert ben.page.locator("[data-testid=rematch-1]").count() == 1
    ben.shot("hokm2-play-again-en-phone")
    ben.page.locator("[data-testid=rematch]").click()
    for p in (ann, ben):
        p.page.locator("[data-testid=match-result]").wait_for(state="detached")
    wait_until(
        lambda: (
            any(what_now(p) in ("trump", "draft", "card") for p in (ann, ben))
            or ann.page.locator("[data-testid=hand] .card").count()
        ),
        message="the new match",
    )
