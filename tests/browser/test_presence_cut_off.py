"""Presence (R-4), issue 34: a player whose heartbeats stop while his socket stays
open shows "connecting" to his tablemates from the first missed heartbeat,
"disconnected" after the documented limit (PRESENCE_TTL, docs/protocol.md),
and his own page tells him (a banner) before it gives up on the socket.

Ana's socket is routed through the test: once "cut", nothing she sends
reaches the server (her pings included) and nothing the server sends reaches
her, while both ends stay open; a new socket she opens reaches nobody. Bo,
at the same table, watches her seat's badge.
"""

from __future__ import annotations

import time

import pytest

from .conftest import wait_until
from .onsite import play_on_site

pytestmark = pytest.mark.browser

HEARTBEAT = 10.0  # settings.TABLE["HEARTBEAT_SECONDS"]
TTL = 25.0  # settings.TABLE["PRESENCE_TTL"]
CHECK = HEARTBEAT / 2 + HEARTBEAT  # a room is checked on a tablemate's heartbeat, at most every half one


def cuttable(state: dict):
    def route(ws):
        if state["cut"]:
            return  # a new socket after the cut: reaches nobody
        server = ws.connect_to_server()
        server.on_message(lambda message: None if state["cut"] else ws.send(message))
        ws.on_message(lambda message: None if state["cut"] else server.send(message))

    return route


def badge(page, seat: int) -> str | None:
    return page.evaluate(
        """(n) => { const el = document.querySelector(`[data-testid=presence-${n}]`);
                    return el ? [...el.classList].find((c) => c.startsWith('presence-') && c !== 'presence') : null; }""",
        seat,
    )


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_r_4_tablemates_see_connecting_then_disconnected_and_the_player_is_told(people, lang):
    ana = people("ana", lang=lang)
    bo = people("bo", lang=lang)
    cut = {"cut": False}
    ana.page.route_web_socket("**/ws/table/**", cuttable(cut))
    played = play_on_site("hokm2", {"turn_seconds": 60}, "rounds:0", ana.name, bo.name)
    for player in (ana, bo):
        player.goto(f"/rooms/{played['code']}/")
        wait_until(
            lambda p=player: p.page.evaluate("() => Boolean(window.takhteh.app.liveFrame)"), message="table"
        )
    wait_until(lambda: badge(bo.page, 1) == "presence-connected", timeout=25, message="ana connected")

    cut["cut"] = True
    at = time.monotonic()
    # Her tablemate: "connecting" once a heartbeat is missed, well before the 25 s limit.
    wait_until(
        lambda: badge(bo.page, 1) == "presence-connecting",
        timeout=HEARTBEAT * 1.3 + CHECK,
        message="connecting",
    )
    connecting_after = time.monotonic() - at
    assert connecting_after < TTL, connecting_after
    # Her own page says so, on the open socket, before it drops it.
    banner = ana.page.locator("[data-testid=stalled-banner]")
    wait_until(banner.is_visible, timeout=HEARTBEAT + 5, message="ana's banner")
    assert ana.page.evaluate("() => window.takhteh.app.socket.status") == "open"
    assert badge(ana.page, 1) == "presence-connecting"
    ana.shot(f"presence-cut-off-banner-{lang}")
    bo.shot(f"presence-tablemate-connecting-{lang}")
    # Then "disconnected", after the documented limit.
    wait_until(
        lambda: badge(bo.page, 1) == "presence-disconnected", timeout=TTL + CHECK, message="disconnected"
    )
    assert time.monotonic() - at >= TTL - HEARTBEAT * 1.3 - 1  # not before her last beat could have expired
