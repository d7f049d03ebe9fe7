"""H4-1 / H2-2 at the table: the ace draw is shown as it happens, cards turned
one by one in front of their seats until the first ace, then the hakem marked."""

from __future__ import annotations

import time

import pytest

from .conftest import DESKTOP, PHONE, ROOM_URL, wait_until

pytestmark = pytest.mark.browser

WATCH = """() => {
  const box = document.querySelector('[data-testid=ace-draw]');
  if (!box) return null;
  return { turned: Number(box.dataset.turned || 0),
           cards: [...box.querySelectorAll('.tc')].map((el) => ({ seat: Number(el.dataset.seat), card: el.dataset.card,
                                                                   pos: el.className })) };
}"""


@pytest.mark.parametrize(("lang", "viewport", "game"), [("fa", DESKTOP, "hokm4"), ("en", PHONE, "hokm2")])
def test_h4_1_the_ace_draw_turns_card_by_card_then_marks_the_hakem(people, lang, viewport, game):
    player = people(f"draw{lang}", lang=lang, viewport=viewport)
    page = player.goto("/")
    if game == "hokm4":
        page.locator("[data-testid=practice-hokm4]").click()
    else:
        page.goto(f"{player.site}/rooms/?game=hokm2")
        page.locator("[data-testid=create-hokm2] [data-testid=create-room]").click()
        page.wait_for_url(ROOM_URL)
        page.locator("[data-testid=bot-seat-2]").click()
        page.locator("[data-testid=unbot-seat-2]").wait_for()
        start = page.locator("[data-testid=start]")
        wait_until(lambda: not start.is_disabled(), message="the start button")
        start.click()
    page.wait_for_url(ROOM_URL)
    page.locator("[data-testid=ace-draw]").wait_for(state="attached", timeout=20000)

    # Watched as it happens: the count of turned cards grows one at a time.
    counts, last, shot, aces = [], None, False, []
    end = time.monotonic() + 20
    while time.monotonic() < end:
        seen = page.evaluate(WATCH)
        if seen is None:
            break
        last = seen
        if not counts or counts[-1] != seen["turned"]:
            counts.append(seen["turned"])
        aces = aces or [c for c in seen["cards"] if c["card"][0] == "A"]
        if not shot and aces:
            shot = True  # the ace is up: the moment to see
            player.shot(f"ace-draw-{lang}-{'desktop' if viewport == DESKTOP else 'phone'}", settle=False)
        time.sleep(0.01)
    assert last is not None and counts == sorted(counts) and len(counts) >= min(3, counts[-1])
    # Every card turned is in front of a seat; the last one turned is the first ace.
    draw = page.evaluate(
        "() => (window.takhteh.app.liveFrame.events || []).find((e) => e.type === 'hakem') || null"
    )
    hakem = page.evaluate("() => window.takhteh.app.liveFrame.view.hakem")
    if draw is not None:  # the draw's own frame is still the latest one
        assert counts[-1] == len(draw["draw"])
        assert draw["draw"][-1]["card"][0] == "A" and draw["draw"][-1]["seat"] == hakem
    assert len(aces) == 1 and aces[0]["seat"] == hakem  # the first ace, in front of the hakem
    assert all(any(f"pos-{p}" in c["pos"] for p in ("top", "left", "right", "bottom")) for c in last["cards"])
    # Then it goes by itself and the hakem is named.
    page.locator("[data-testid=ace-draw]").wait_for(state="detached", timeout=10000)
    page.locator(f"[data-testid=hakem-{hakem}]").wait_for()
