"""The Bridge daily challenge in the browser (issue 37, E-1): the day page
lists 8 duplicate boards with their dealer and vulnerability by number; the
entrant plays board 1 from North against the strong bots, at the table,
to its end; the board's score sheet shows the board's number, its
vulnerability and its duplicate score. Persian and English."""

from __future__ import annotations

import time

import pytest

from .conftest import DESKTOP, PHONE, ROOM_URL, digits, wait_until
from .test_events import before_midnight

pytestmark = pytest.mark.browser

VIEW = (
    "() => { const f = window.takhteh.app.liveFrame; return f && { ...f.view, status: f.status, v: f.v }; }"
)
BUSY = "() => window.takhteh.app.busy"


def click(page, selector: str) -> bool:
    try:
        page.locator(selector).first.click(timeout=2000, force=True)
    except Exception:  # noqa: BLE001 - re-rendered under the pointer; the next look tries again
        return False
    return True


def play_board(player, shot_name: str, timeout: float = 300.0) -> dict:
    """North's calls (1NT when it is legal at his first call, else pass) and cards
    (his own, and dummy's when he declares) until the board is over; one
    screenshot during the play. Returns the last view."""
    page = player.page
    root = page.locator("#table-app")
    shot = False
    called = False
    end = time.monotonic() + timeout
    view = None
    while time.monotonic() < end:
        if root.get_attribute("data-mode") == "finished":
            return page.evaluate(VIEW) or view
        view = page.evaluate(VIEW)
        if not view or view["status"] != "active" or page.evaluate(BUSY):
            time.sleep(0.1)
            continue
        legal = view["legal"] or []
        if view["phase"] == "auction" and legal:
            call = "1NT" if not called and any(a.get("call") == "1NT" for a in legal) else "P"
            if click(page, f"[data-testid=call-panel] [data-call='{call}']"):
                called = True
        elif view["phase"] == "play":
            if not shot and view.get("dummy_hand") and sum(view["tricks_won"]) >= 2:
                player.shot(shot_name)
                shot = True
            if legal:
                me = view["viewer"]
                dummy_turn = view["declarer"] == me and view["next_hand"] == view["dummy"]
                click(
                    page,
                    "[data-testid=dummy] button.card.legal"
                    if dummy_turn
                    else "[data-testid=hand] button.card.legal",
                )
        time.sleep(0.1)
    raise AssertionError("the board did not end")


@pytest.mark.parametrize("lang, name", [("fa", "bahar"), ("en", "ben")])
def test_e1_the_bridge_challenge_plays_a_duplicate_board_at_the_table(people, lang, name):
    before_midnight(5)
    player = people(name, lang=lang, viewport=DESKTOP)
    page = player.goto("/events/")
    page.locator("[data-testid=challenge-bridge] a").click()
    day = page.locator("[data-testid=challenge-day]")
    day.wait_for()
    # Dealer and vulnerability by board number, as in duplicate (board 1: N, none; 2: E, N-S; 4: W, both).
    assert page.locator("[data-testid=board-1]").get_attribute("data-vulnerable") == "none"
    assert page.locator("[data-testid=board-2]").get_attribute("data-vulnerable") == "ns"
    assert page.locator("[data-testid=board-4]").get_attribute("data-vulnerable") == "both"
    assert page.locator("[data-testid=ev-deals] li, .ev-deals li").count() == 8
    player.shot(f"events-bridge-challenge-{lang}-desktop")
    page.locator("[data-testid=play-deal]").click()
    page.wait_for_url(ROOM_URL)
    view = play_board(player, f"events-bridge-board-play-{lang}-desktop")
    assert view["board"] == {"number": 1, "dealer": 1, "vulnerable": [False, False]}
    assert view["score"]["board"] == 1
    if view["score"]["winner"] is None and page.locator("[data-sheet]").is_hidden():
        page.locator("[data-sheet-toggle]").click()
    sheet = page.locator("[data-testid=rubber-sheet]")
    sheet.wait_for()
    assert "1" in digits(sheet.locator("caption").inner_text())  # "Board 1", no rubber
    assert page.locator("[data-testid=vulnerable-0]").get_attribute("class").endswith("no")
    totals = sorted(
        int(t)
        for t in sheet.locator("[data-testid=rubber-totals] td").evaluate_all(
            "tds => tds.map((td) => td.dataset.total)"
        )
    )
    assert totals == sorted(view["score"]["totals"])
    player.shot(f"events-bridge-board-sheet-{lang}-desktop")
    # Back on the day page: board 1 done (reviewable), board 2 is next.
    page = player.goto("/events/")
    page.locator("[data-testid=challenge-bridge] a").click()
    wait_until(lambda: page.locator("[data-testid=review-mine-1]").count() == 1, message="board 1 done")
    assert "2" in digits(page.locator("[data-testid=play-deal]").inner_text())
    if lang == "en":
        page.set_viewport_size(PHONE)
        player.shot("events-bridge-challenge-en-phone")
