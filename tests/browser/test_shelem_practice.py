"""Shelem with bots ("play now with bots"): the auction with the slider,
taking the widow and putting cards aside by clicking, sars, the first lead
(SH-3..SH-6); reactions (R-5) and leaving with the cost said first (L-3)."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, ROOM_URL, digits, wait_until

pytestmark = pytest.mark.browser


def test_shelem_auction_widow_and_leaving(people):
    sara = people("sara", lang="fa", viewport=PHONE)
    page = sara.goto("/")
    page.locator("[data-testid=practice-shelem4]").click()
    page.wait_for_url(ROOM_URL)

    # SH-3: my turn to bid comes; the slider offers only legal amounts, in steps of 5.
    panel = page.locator("[data-testid=bid-panel]")
    panel.wait_for(timeout=20000)
    slider = panel.locator("[data-testid=bid-slider]")
    assert slider.get_attribute("step") == "5"
    assert int(slider.get_attribute("max")) == 165
    assert int(slider.get_attribute("min")) >= 100
    sara.shot("shelem-bid-fa-phone")
    slider.focus()
    slider.press("End")
    assert digits(panel.locator("[data-testid=bid-value]").inner_text()) == "165"
    panel.locator("[data-testid=bid-button]").click()
    # The maximum ends the auction: my bid shows above my avatar.
    wait_until(
        lambda: digits(page.locator("[data-testid=bid-1]").inner_text()) == "165", message="my bid bubble"
    )

    # SH-4: the widow joins my hand; I choose exactly four cards to put aside.
    discard = page.locator("[data-testid=discard-panel]")
    discard.wait_for()
    hand = page.locator("[data-testid=hand] button.card")
    assert hand.count() == 16
    confirm = discard.locator("[data-testid=discard-confirm]")
    for i in range(5):  # a fifth choice is refused: four only
        hand.nth(i).click(position={"x": 8, "y": 26})
        if i < 3:
            assert confirm.is_disabled()
    assert page.locator("[data-testid=hand] .card.selected").count() == 4
    assert not confirm.is_disabled()
    sara.shot("shelem-widow-fa-phone")
    chosen = sorted(
        page.locator("[data-testid=hand] .card.selected").evaluate_all("els => els.map(e => e.dataset.card)")
    )
    confirm.click()
    sent = [f for f in sara.sent("act") if f["action"]["type"] == "discard"]
    assert sorted(sent[-1]["action"]["cards"]) == chosen

    # SH-5: sars or trump by the first card; then I lead (SH-6).
    page.locator("[data-testid=sars-panel]").wait_for()
    sara.shot("shelem-sars-fa-phone")
    page.locator("[data-testid=sars-no]").click()
    legal = page.locator("[data-testid=hand] button.card.legal")
    legal.first.wait_for()
    assert page.locator("[data-testid=hand] .card").count() == 12
    legal.first.click(position={"x": 8, "y": 26})
    # The bots answer; the trick fills and the top bar shows the bid and the points.
    wait_until(
        lambda: (
            page.locator("[data-testid=trick] .tc").count() >= 3
            or page.locator("[data-testid=hand] button.card.legal").count()
        ),
        message="the bots' answers",
    )
    bar = page.locator(".tbar").inner_text()
    assert "165" in digits(bar)
    sara.shot("shelem-play-fa-phone")
    # The same table on a desktop, then in English (a reload: the state comes again in full).
    page.set_viewport_size(DESKTOP)
    sara.shot("shelem-play-fa-desktop")
    sara.context.add_cookies([{"name": "lang", "value": "en", "url": sara.site}])
    page.reload()
    page.locator("[data-testid=hand] .card").first.wait_for()
    sara.shot("shelem-play-en-desktop")
    page.set_viewport_size(PHONE)
    sara.shot("shelem-play-en-phone")

    # a reaction pops near my avatar; the palette waits eight seconds.
    page.locator("[data-testid=reactions] [data-reaction=tea]").click()
    page.locator("[data-testid=reaction-pop]").first.wait_for()
    sara.shot("shelem-reaction-fa-phone")
    assert page.locator("[data-testid=reactions] [data-reaction=clap]").is_disabled()
    assert page.locator("[data-testid=reactions] .cooldown").count() == 1
    assert len(sara.sent("react")) == 1

    # A refused frame comes back as a short translated message.
    page.evaluate("() => window.takhteh.app.send({type: 'react', reaction: 'juggle'})")
    page.locator("[data-testid=toast].toast-error").wait_for()

    # L-3 with L-2: leaving first says what it costs; a practice match with bots costs nothing.
    page.locator("[data-testid=leave]").click()
    dialog = page.locator("[data-testid=leave-dialog]")
    dialog.wait_for()
    assert "practice match with bots" in dialog.inner_text() and "100" not in digits(dialog.inner_text())
    sara.shot("shelem-leave-dialog-en-phone")
    dialog.locator("[data-testid=leave-confirm]").click()
    page.wait_for_url("**/rooms/")
