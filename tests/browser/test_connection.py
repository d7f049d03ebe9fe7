"""R-4: when the connection drops the table says so and the cards wait; it
comes back by itself and the state is sent again in full."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, ROOM_URL, wait_until

pytestmark = pytest.mark.browser


def test_a_dropped_connection_shows_a_banner_and_recovers(people):
    omid = people("omid", lang="en", viewport=DESKTOP, reduced_motion="reduce")
    page = omid.goto("/")
    page.locator("[data-testid=practice-hokm4]").click()
    page.wait_for_url(ROOM_URL)
    page.locator("[data-testid=hand] .card").first.wait_for(timeout=20000)
    # The bots play on their own: wait until the table waits for Omid (his
    # trump choice or a card of his), so nothing can be played while he is away.
    page.locator("[data-testid=hand] button.card.legal, [data-testid=trump-panel] .suit-btn").first.wait_for(
        timeout=20000
    )
    banner = page.locator("[data-testid=conn-banner]")
    assert banner.is_hidden()

    # The network goes away: the banner shows, no card is playable.
    omid.context.set_offline(True)
    banner.wait_for(state="visible", timeout=10000)
    assert page.locator("[data-testid=hand] button.card").count() == 0
    assert page.locator("[data-testid=trump-panel] .suit-btn").count() == 0
    omid.shot("connection-lost-en-desktop")

    # Back online: reconnects by itself, the full state arrives again.
    before = page.evaluate("() => window.takhteh.app.v")
    page.evaluate("() => { window.takhteh.app.frame.full = false; }")
    omid.context.set_offline(False)
    banner.wait_for(state="hidden", timeout=15000)
    wait_until(lambda: page.evaluate("() => window.takhteh.app.connected"), message="the socket")
    # The reconnect brought a full state again, of the same version: nothing was played meanwhile.
    wait_until(lambda: page.evaluate("() => window.takhteh.app.frame.full"), message="a full state")
    assert page.evaluate("() => window.takhteh.app.v") == before
    assert page.locator("[data-testid=hand] .card").count() > 0

    # A socket closed under the page (server restart, proxy) comes back too.
    page.evaluate("() => window.takhteh.app.socket.ws.close()")
    banner.wait_for(state="visible", timeout=5000)
    banner.wait_for(state="hidden", timeout=15000)
    wait_until(lambda: page.locator("[data-testid=hand] .card").count() > 0, message="the hand again")

    # With less motion asked for, play goes on all the same: the bots' cards simply appear.
    assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
    wait_until(
        lambda: page.locator(
            "[data-testid=trick] .tc, [data-testid=hand] button.card.legal, [data-testid=trump-panel]"
        ).count(),
        message="the table moving on",
    )
