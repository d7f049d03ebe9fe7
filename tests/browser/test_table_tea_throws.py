"""Tea with the narrator (H4-X4) and throwing things (H4-X5) at a real table:
the narrator's chapter on screen while the clock stands still, and a throw
flying to a face (a still effect for reduced motion, nothing for a viewer
who hides reactions)."""

from __future__ import annotations

import time

import pytest

from .conftest import DESKTOP, PHONE, ROOM_URL, wait_until, what_now
from .test_hokm_table import sit_and_ready
from .test_table_hokm_points import act, settle

pytestmark = pytest.mark.browser

CHAPTER_ONE = {"fa": "سماور", "en": "The samovar"}
WATCH = """() => {
  const seen = window.__seen = { flew: 0, hits: [] };
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (!(n instanceof Element)) continue;
      if (n.matches('.throw-fly')) seen.flew += 1;
      if (n.matches('.throw-hit')) {
        // Where it landed: the centre of the hit inside the face of the seat it was thrown at.
        const b = n.getBoundingClientRect();
        const face = n.closest('.slot').querySelector('.avatar').getBoundingClientRect();
        const x = b.left + b.width / 2, y = b.top + b.height / 2;
        seen.hits.push({ still: n.classList.contains('still'), label: n.getAttribute('aria-label'),
          seat: Number(n.closest('.slot').dataset.seat),
          onFace: x >= face.left - 4 && x <= face.right + 4 && y >= face.top - 4 && y <= face.bottom + 4 });
      }
    }
  }).observe(document.body, { childList: true, subtree: true });
}"""
REFUSED = """() => { const app = window.takhteh.app; const was = app.onError.bind(app);
  app.onError = (f) => { window.__refused = f.code; was(f); };
  app.socket.send({ type: "act", action: { type: "play", card: "AS" }, v: app.v }); }"""
FRAME = "() => { const f = window.takhteh.app.liveFrame; return f && {tea: f.tea, deadlines: f.deadlines, v: f.v}; }"


def freeze(player):
    """Hold every running animation where it is for a screenshot (one takes a while here)."""
    player.page.evaluate(
        "() => { window.__frozen = document.getAnimations(); window.__frozen.forEach((a) => a.pause()); }"
    )


def unfreeze(player):
    player.page.evaluate("() => (window.__frozen || []).forEach((a) => a.play())")


def create_room(player, rules: tuple[str, ...]) -> str:
    page = player.goto("/rooms/?game=hokm4")
    form = page.locator("[data-testid=create-hokm4]")
    for rule in rules:
        form.locator(f"[name=rule_{rule}]").check()
    form.locator("[data-testid=create-room]").click()
    page.wait_for_url(ROOM_URL)
    return page.url


def bots_and_start(page, seats):
    for seat in seats:
        page.locator(f"[data-testid=bot-seat-{seat}]").click()
        page.locator(f"[data-testid=unbot-seat-{seat}]").wait_for()
    start = page.locator("[data-testid=start]")
    wait_until(lambda: not start.is_disabled(), message="the start button")
    start.click()


def play_along(player, until, timeout=60.0):
    """The player answers the table (trump, cards) until ``until()``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if until():
            return
        need = what_now(player)
        if need in ("trump", "card"):
            act(player.page, need)
        player.page.wait_for_timeout(100)
    raise AssertionError("the table never got there")


@pytest.mark.parametrize("lang,viewport", [("fa", DESKTOP), ("en", PHONE)], ids=["fa-desktop", "en-phone"])
def test_h4_x4_the_narrators_chapter_on_screen(people, lang, viewport):
    alice = people("teafan", lang=lang, viewport=viewport)
    create_room(alice, ("tea",))
    page = alice.page
    bots_and_start(page, (2, 3, 4))
    ask = page.locator("[data-testid=tea-ask]")
    ask.wait_for()
    ask.click()
    # Bots never say no: the tea comes after the trick in progress.
    narrator = page.locator("[data-testid=tea-narrator]")
    play_along(alice, lambda: narrator.is_visible())
    assert page.locator(".tea-title").inner_text().strip() == CHAPTER_ONE[lang]
    text = page.locator("[data-testid=tea-text]").inner_text()
    assert len(text.split()) >= 80
    state = page.evaluate(FRAME)
    assert state["tea"]["phase"] == "pouring" and state["deadlines"] == {}  # the turn clock stands still
    assert page.locator("[data-testid=tea-ask]").count() == 0  # once per match
    settle(page)
    alice.shot(f"tea-narrator-{lang}-{'phone' if viewport == PHONE else 'desktop'}")
    # The table stands still meanwhile: a card sent now is refused (and nothing moves).
    v = page.evaluate("() => window.takhteh.app.v")
    page.evaluate(REFUSED)
    wait_until(lambda: page.evaluate("() => window.__refused"), message="the refusal")
    assert page.evaluate("() => window.__refused") == "tea_time"
    page.wait_for_timeout(1500)
    assert page.evaluate("() => window.takhteh.app.v") == v  # nothing moved: no clock, no bot
    page.locator("[data-testid=tea-continue]").click()
    narrator.wait_for(state="detached")
    wait_until(lambda: (page.evaluate(FRAME) or {}).get("deadlines"), message="the clock runs again")
    assert page.evaluate(FRAME)["tea"]["phase"] is None


def test_h4_x5_a_throw_hits_a_face_and_nobody_knows_who_threw(people):
    alice = people("thrower", lang="fa", viewport=DESKTOP)
    bob = people("target", lang="en", viewport=DESKTOP)
    url = create_room(alice, ("throwing",))
    sit_and_ready(bob, url, 2)
    watcher = people("still", lang="en", viewport=PHONE, signed_up=False, reduced_motion="reduce")
    watcher.goto(url + "?watch=1")
    hider = people("hider", lang="fa", viewport=PHONE, signed_up=False)
    hider.goto(url + "?watch=1")
    bots_and_start(alice.page, (3, 4))
    for p in (alice, bob, watcher, hider):
        p.page.locator("[data-testid=seat-2] .avatar").wait_for()
    hider.page.locator("[data-testid=toggle-reactions]").click()  # hides throws too
    alice.page.locator("[data-testid=throw-open]").wait_for()
    assert watcher.page.locator("[data-testid=throw-open]").count() == 0  # spectators cannot throw

    for p in (alice, bob, watcher, hider):
        p.page.evaluate(WATCH)
    alice.page.locator("[data-testid=throw-open]").click()
    alice.page.locator("[data-testid=throw-picker] [data-item=tomato]").click()
    alice.shot("throw-picker-fa-desktop")
    alice.page.locator("[data-testid=throw-at-2]").click()

    # It flies and hits bob's face, on every screen.
    hit = bob.page.locator("[data-testid=throw-hit]")
    try:
        hit.wait_for()
    except Exception as exc:  # noqa: BLE001 - say what each page saw
        seen = [
            p.page.evaluate("() => [window.__seen, document.querySelector('[data-toasts]').innerText]")
            for p in (alice, bob)
        ]
        raise AssertionError(f"no hit on bob's screen: {seen}, sent {alice.sent()[-5:]}") from exc
    bob.shot("throw-hit-en-desktop")
    for p in (alice, bob):
        wait_until(lambda p=p: p.page.evaluate("() => window.__seen.hits.length"), message="the hit")
        seen = p.page.evaluate("() => window.__seen")
        assert seen["flew"] >= 1
        assert [(h["still"], h["seat"], h["onFace"]) for h in seen["hits"]] == [(False, 2, True)], seen
    # Reduced motion: a short effect on the face, nothing flies.
    wait_until(lambda: watcher.page.evaluate("() => window.__seen.hits.length") == 1, message="the still hit")
    seen = watcher.page.evaluate("() => window.__seen")
    assert seen["flew"] == 0 and seen["hits"][0]["still"] and seen["hits"][0]["onFace"]
    assert "Tomato" in seen["hits"][0]["label"] and seen["hits"][0]["seat"] == 2
    # the viewer who hides reactions sees no throw at all.
    assert hider.page.evaluate("() => window.__seen") == {"flew": 0, "hits": []}

    # Three per trick: the picker stays open, the button counts down and stops at zero.
    alice.page.locator("[data-testid=throw-at-3]").click()
    alice.page.locator("[data-testid=throw-hit]").wait_for()
    freeze(alice)
    alice.shot("throw-hit-fa-desktop")
    unfreeze(alice)
    alice.page.locator("[data-testid=throw-at-3]").click()
    wait_until(lambda: watcher.page.evaluate("() => window.__seen.hits.length") == 3, message="the third hit")
    freeze(watcher)  # the screenshot itself takes a while on a busy machine
    watcher.shot("throw-hit-reduced-motion-en-phone")
    unfreeze(watcher)
    wait_until(lambda: alice.page.locator("[data-testid=throw-open]").is_disabled(), message="no throws left")
    # What the page sent: the item and the target, nothing about the thrower.
    assert [set(f) for f in alice.sent("throw")] == [{"type", "item", "target"}] * 3
