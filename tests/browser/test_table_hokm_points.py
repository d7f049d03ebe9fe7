"""Issue 15 at a Hokm table with bots, played to the end of a short match by
clicking: the last trick on demand and a trick that stays a second on the
felt (C-4), the score sheet (H4-8), the deciding round's result before the
match's (H4-6, C-7), named bots, the mute toggle, the phone's tap targets
for a 13-card hand and the top seat's tags kept clear (C-6)."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, ROOM_URL, digits, wait_until, what_now

pytestmark = pytest.mark.browser

BOT_NAMES = {"fa": {2: "سیما", 3: "کاوه", 4: "نیکا"}, "en": {2: "Sima", 3: "Kaveh", 4: "Nika"}}

# Records, in the page, how long each finished trick stays on the felt and
# which panels come one after another.
WATCH = """() => {
  const w = window.__watch = { holds: [], panels: [] };
  const gather = document.querySelector('[data-gather]');
  let shown = null;
  new MutationObserver(() => {
    const n = gather.children.length;
    if (n && shown === null) shown = performance.now();
    if (!n && shown !== null) { w.holds.push(performance.now() - shown); shown = null; }
  }).observe(gather, { childList: true });
  const center = document.querySelector('[data-center]');
  new MutationObserver(() => {
    const kind = center.dataset.panel || '';
    if (w.panels[w.panels.length - 1] !== kind) w.panels.push(kind);
  }).observe(center, { attributes: true, attributeFilter: ['data-panel'] });
}"""

# (rows of chips in the top bar, its height)
BAR_ROWS = """() => {
  const centers = [...document.querySelectorAll('.tbar-items > *, .tbar-tools, .tbar-eye')]
    .map((el) => el.getBoundingClientRect()).filter((b) => b.height > 0).map((b) => b.top + b.height / 2);
  const rows = centers.filter((c, i) => centers.findIndex((d) => Math.abs(d - c) < 4) === i).length;
  return [rows, Math.round(document.querySelector('.tbar').getBoundingClientRect().height)];
}"""

VIEW = "() => window.takhteh.app.liveFrame && window.takhteh.app.liveFrame.view"

TOP_OVERLAP = """() => {
  const card = document.querySelector('[data-trick] .tc.pos-top .card');
  const tags = [...document.querySelectorAll('.slot-top .seat-name, .slot-top .seat-tags')];
  if (!card || !tags.length) return null;
  if (card.getAnimations().some((a) => a.playState === 'running')) return null;  // measured at rest
  const b = card.getBoundingClientRect();
  for (const el of tags) {
    const a = el.getBoundingClientRect();
    if (!(a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top)) {
      return `${el.className} ${Math.round(a.top)}..${Math.round(a.bottom)} card ${Math.round(b.top)}..${Math.round(b.bottom)}`;
    }
  }
  return false;
}"""


def plain_int(text: str) -> int:
    """A score as shown (Persian digits, a true minus, isolated left-to-right) as an int."""
    return int(digits(text).replace("\u2212", "-").strip("\u2066\u2067\u2068\u2069 "))


def start_hokm_with_bots(player, turn_seconds: int | None = None) -> str:
    page = player.goto("/rooms/?game=hokm4")
    form = page.locator("[data-testid=create-hokm4]")
    form.locator("[name=rule_target]").select_option(index=0)  # first to 3
    if turn_seconds:
        form.locator("[name=rule_turn_seconds]").select_option(str(turn_seconds))
    form.locator("[data-testid=create-room]").click()
    page.wait_for_url(ROOM_URL)
    for seat in (2, 3, 4):
        page.locator(f"[data-testid=bot-seat-{seat}]").click()
        page.locator(f"[data-testid=unbot-seat-{seat}]").wait_for()
    start = page.locator("[data-testid=start]")
    wait_until(lambda: not start.is_disabled(), message="the start button")
    start.click()
    return page.url


def act(page, need: str) -> bool:
    try:
        if need == "trump":
            page.locator("[data-testid=trump-panel] .suit-btn").first.click(timeout=3000)
        elif need == "card":
            page.locator("[data-testid=hand] button.card.legal").first.click(
                position={"x": 10, "y": 22}, timeout=3000
            )
        else:
            return False
    except Exception:  # noqa: BLE001 - re-rendered under the pointer; the next look tries again
        return False
    return True


def check_tap_targets(page) -> int:
    """C-6 at 360 px: every card of the fanned hand shows a strip of >= 40 px, its
    index whole ("10" too), and a tap on that strip hits that very card."""
    boxes = page.locator("[data-testid=hand] .card").evaluate_all(
        """els => els.map(el => { const b = el.getBoundingClientRect(); const r = el.querySelector('.cr').getBoundingClientRect();
          return {card: el.dataset.card, row: el.dataset.row || '0', x: b.x, y: b.y, w: b.width, h: b.height, rankRight: r.right}; })"""
    )
    checked = 0
    for i, box in enumerate(boxes):
        later = [b for b in boxes[i + 1 :] if b["row"] == box["row"]]
        strip = (later[0]["x"] - box["x"]) if later else box["w"]
        assert strip >= 40, f"{box['card']} shows a strip of {strip:.1f} px"
        front = [b for b in boxes if b["row"] > box["row"]]
        tall = (min(b["y"] for b in front) - box["y"]) if front else box["h"]
        assert tall >= 40, f"{box['card']} shows {tall:.1f} px of height"
        assert box["rankRight"] <= box["x"] + strip, f"the rank of {box['card']} is cut"
        x, y = box["x"] + min(strip, box["w"]) / 2, box["y"] + min(tall, box["h"]) / 2
        hit = page.evaluate(
            "([x, y]) => { const el = document.elementFromPoint(x, y); const c = el && el.closest('.card'); return c && c.dataset.card; }",
            [x, y],
        )
        assert hit == box["card"], f"a tap on {box['card']} hit {hit}"
        checked += 1
    return checked


SETTLE = """() => Promise.all(document.getAnimations()
  .filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => null)))"""


def settle(page):
    """Wait for the short animations (a panel sliding in, a card landing) to finish."""
    page.evaluate(SETTLE)


def both_sizes(player, name: str, first):
    """Screenshots at both widths (the page re-lays itself out on resize)."""
    other = DESKTOP if first == PHONE else PHONE
    settle(player.page)
    player.shot(f"{name}-{player.lang}-{'phone' if first == PHONE else 'desktop'}")
    player.page.set_viewport_size(other)
    player.page.wait_for_timeout(300)
    settle(player.page)
    player.shot(f"{name}-{player.lang}-{'phone' if other == PHONE else 'desktop'}")
    player.page.set_viewport_size(first)
    player.page.wait_for_timeout(200)


@pytest.mark.parametrize("lang,viewport", [("fa", PHONE), ("en", DESKTOP)], ids=["fa-phone", "en-desktop"])
def test_hokm_points_through_a_whole_match(people, lang, viewport):
    """C-4, C-6, C-7, H4-6, H4-8, issue 15: play a match to 3 with bots."""
    raha = people("raha", lang=lang, viewport=viewport)
    start_hokm_with_bots(raha)
    page = raha.page
    page.evaluate(WATCH)

    # Named bots (the same names in every language's own script), in the seats and the results.
    for seat, name in BOT_NAMES[lang].items():
        wait_until(
            lambda s=seat, n=name: n in page.locator(f"[data-testid=seat-{s}] .seat-name").inner_text(),
            message=f"bot name {name}",
        )

    taps_checked = 0
    seen_last = False
    overlaps = []
    bar_heights = set()
    steps = 0
    while steps < 2000:
        steps += 1
        need = what_now(raha)
        if need == "result":
            break
        view = page.evaluate(VIEW)
        if need == "card" and view and len(view["hand"]) >= 13 and viewport == PHONE and not taps_checked:
            taps_checked = check_tap_targets(page)
            assert page.locator("[data-testid=hand]").evaluate("el => el.classList.contains('two-rows')")
        if need == "card" and not seen_last and view and view["last_trick"] and view["trick"]:
            # The last trick, while the next one is on the felt: the button, then a tap on the pile.
            button = page.locator("[data-testid=last-trick-button]")
            button.click()
            shown = page.locator("[data-testid=last-trick] .tc")
            assert shown.count() == len(view["last_trick"]["cards"])
            assert sorted(shown.evaluate_all("els => els.map(e => e.dataset.card)")) == sorted(
                c["card"] for c in view["last_trick"]["cards"]
            )
            winner = view["last_trick"]["winner"]
            assert page.locator(f"[data-testid=last-trick] .tc.winner[data-seat='{winner}']").count() == 1
            button.click()
            assert page.locator("[data-testid=last-trick]").is_hidden()
            page.locator("[data-testid=trick]").click(position={"x": 5, "y": 5}, force=True)
            assert page.locator("[data-testid=last-trick]").is_visible()
            # The screenshots at both sizes take a while on a busy machine; the page may close
            # the view by itself meanwhile (a newer trick closes the older one's view), so it
            # is closed by the button only if it is still open. (Before, the button was pressed
            # after the screenshots whatever the page had done, and opened it again: a rerun.)
            both_sizes(raha, "hokm-last-trick", viewport)
            if button.get_attribute("aria-pressed") == "true":
                button.click()
            page.locator("[data-testid=last-trick]").wait_for(state="hidden")
            seen_last = True
            continue
        if need:
            bar_heights.add(tuple(page.evaluate(BAR_ROWS)))
        overlap = page.evaluate(TOP_OVERLAP)
        if overlap is not None:
            overlaps.append(overlap)
        if need in ("trump", "card"):
            act(page, need)
        page.wait_for_timeout(60)
    assert need == "result", "the match did not end"
    # The top bar keeps one row and one height through the match (no second row on a phone).
    assert len(bar_heights) == 1 and next(iter(bar_heights))[0] == 1, bar_heights
    assert seen_last
    if viewport == PHONE:
        assert taps_checked == 13

    watch = page.evaluate("() => window.__watch")
    # A finished trick stays at least a second (no fast play asked for).
    assert watch["holds"] and min(watch["holds"]) >= 1000, watch["holds"]
    # The deciding round's result came like every other round's, then the match's.
    panels = [p for p in watch["panels"] if p]
    assert panels[-2:] == ["round", "result"], panels

    # The score sheet: one row per round, the running score ending at the final score.
    final = [plain_int(x) for x in page.locator("[data-testid=final-score]").inner_text().split(" – ")]
    both_sizes(raha, "hokm-match-end", viewport)
    page.locator("[data-testid=sheet-toggle]").click()
    rows = page.locator("[data-testid=sheet-table] tbody tr")
    assert rows.count() >= 3
    numbers = [int(digits(t)) for t in rows.locator("th").all_inner_texts()]
    assert numbers == list(range(1, len(numbers) + 1))
    last = rows.last.locator("td").all_inner_texts()
    assert [plain_int(t) for t in last[-2:]] == final
    assert max(final) == 3
    both_sizes(raha, "hokm-score-sheet", viewport)
    page.locator("[data-testid=sheet-close]").click()
    assert page.locator("[data-testid=score-sheet]").is_hidden()
    assert overlaps and not any(overlaps), f"the top trick card covered the top seat's tags: {set(overlaps)}"


def test_mute_toggle_keeps_the_profile_setting(people):
    """DESIGN.md (card sounds): the table's mute toggle; the profile keeps it."""
    omid = people("omid", lang="en", viewport=DESKTOP)
    page = omid.goto("/")
    page.locator("[data-testid=practice-hokm4]").click()
    page.wait_for_url(ROOM_URL)
    room_url = page.url
    toggle = page.locator("[data-testid=toggle-sound]")
    assert toggle.get_attribute("aria-pressed") == "false"
    with page.expect_response(lambda r: "/preferences/sound/" in r.url) as answer:
        toggle.click()
    assert answer.value.ok
    assert toggle.get_attribute("aria-pressed") == "true"
    page.reload()
    assert page.locator("[data-testid=toggle-sound]").get_attribute("aria-pressed") == "true"
    assert page.locator("#table-app").get_attribute("data-sounds") == "false"
    prefs = omid.goto("/me/preferences/")
    assert not prefs.locator("[name=card_sounds]").is_checked()
    # A visitor at this full table is not offered a seat (no empty seat to take).
    watcher = people("watcher", lang="fa", viewport=PHONE, signed_up=False)
    wpage = watcher.goto(room_url)
    wpage.locator("[data-testid=visitor-note]").wait_for()
    assert wpage.locator("[data-testid=sign-in-to-sit]").count() == 0
    assert wpage.locator("[data-testid=seat-2] .seat-name").inner_text() == "سیما"
    page = omid.page
    page.go_back()
    page.locator("[data-testid=toggle-sound]").click()
    wait_until(
        lambda: page.locator("[data-testid=toggle-sound]").get_attribute("aria-pressed") == "false",
        message="sound on again",
    )


def test_clock_played_card_is_said_in_words(people):
    """C-8: a card the clock plays is announced in words, not only by its badge."""
    sina = people("sina", lang="en", viewport=DESKTOP)
    start_hokm_with_bots(sina, turn_seconds=10)
    page = sina.page
    # The ring of the viewer's own running clock steps down with the page's tick and is never
    # eased: an eased stroke-dashoffset restarted every 250 ms kept the page repainting every
    # frame (a third of a CPU core per open table, measured in Chromium).
    ring = page.locator(".seat.me.timed .ring-fg")
    ring.wait_for(timeout=45000)

    def offset() -> float:
        return float(ring.evaluate("el => el.style.strokeDashoffset || '0'"))

    first = offset()
    wait_until(lambda: offset() > first, message="the ring counting down")
    easing = page.evaluate(
        "() => document.getAnimations().filter((a) => a.transitionProperty === 'stroke-dashoffset').length"
    )
    assert easing == 0, "the clock's ring is eased between ticks"
    toast = page.locator("[data-testid=toast].toast-clock")
    toast.wait_for(timeout=45000)
    text = toast.inner_text()
    assert text.startswith("Time ran out: the clock played ")
    assert text.endswith(" for you.")
    auto = page.evaluate("() => [...window.takhteh.app.autoCards]")
    assert auto, "the clock's card carries its badge too"
