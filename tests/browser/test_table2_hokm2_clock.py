"""Issue 16, Hokm for two's draft (H2-4, H2-6, C-8): each player's clock is his
own seat's deadline, never the later of the two; the last five seconds warn;
the draft's progress is said by name, the viewer first."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, ROOM_URL, digits, wait_until, what_now

pytestmark = pytest.mark.browser

# (own seconds left, the later deadline's seconds left, seconds shown, both drafting?)
CLOCK = """() => {
  const app = window.takhteh.app;
  const frame = app.liveFrame;
  const clock = document.querySelector('[data-clock]');
  if (!frame || !clock) return null;
  const me = String(frame.view.viewer);
  const now = Date.now() + app.offset;
  const ds = frame.deadlines;
  const left = (d) => Math.max(0, Math.ceil((d - now) / 1000));
  const acting = (frame.view.to_act || []).filter((s) => s !== 0);
  return {
    phase: frame.view.phase, both: acting.length === 2, own: ds[me] ? left(ds[me]) : null,
    later: Math.max(...Object.values(ds).map(left)), gap: (ds['1'] || 0) - (ds['2'] || 0),
    shown: clock.dataset.seconds === '' ? null : Number(clock.dataset.seconds),
    hurry: clock.classList.contains('hurry'),
  };
}"""


def strip_isolates(text: str) -> str:
    return "".join(ch for ch in text if ch not in "\u2066\u2067\u2068\u2069")


def clock(player) -> dict | None:
    return player.page.evaluate(CLOCK)


def start_duel(ann, ben) -> None:
    page = ann.goto("/rooms/?game=hokm2")
    form = page.locator("[data-testid=create-hokm2]")
    form.locator("[name=rule_target]").select_option(index=0)
    form.locator("[name=rule_turn_seconds]").select_option("10")
    form.locator("[data-testid=create-room]").click()
    page.wait_for_url(ROOM_URL)
    ben.goto(page.url).locator("[data-testid=take-seat-2]").click()
    ben.page.locator("[data-testid=ready]").click()
    start = page.locator("[data-testid=start]")
    wait_until(lambda: not start.is_disabled(), message="the start button")
    start.click()


def test_each_player_sees_his_own_draft_clock_and_names(people):
    """H2-4/H2-6 with C-8: ann drafts one pair, ben waits; ben's clock is his own
    (sooner) deadline, ann's hers; ben's last five seconds warn; the progress line
    says "you: 0 of 8 · ann: 1 of 8" by name."""
    ann = people("ann", lang="fa", viewport=DESKTOP)
    ben = people("ben", lang="en", viewport=PHONE)
    start_duel(ann, ben)

    # The hakem names trump (H2-3); then both draft at once.
    def to_draft():
        for p in (ann, ben):
            if what_now(p) == "trump":
                p.page.locator("[data-testid=trump-panel] .suit-btn").first.click(timeout=3000)
        return all(what_now(p) == "draft" for p in (ann, ben))

    wait_until(to_draft, message="both players drafting")
    # Let ben's clock run a little, then ann drafts: her new deadline is seconds after his.
    wait_until(
        lambda: (clock(ben) or {}).get("own") is not None and clock(ben)["own"] <= 8, message="ben's clock"
    )
    ann.page.locator("[data-testid=draft-take]").click()
    wait_until(lambda: (clock(ben) or {}).get("gap", 0) >= 1500, message="ann's new deadline")

    def own_clock_shown(player):
        c = clock(player)
        return c and c["phase"] == "draft" and c["both"] and c["shown"] == c["own"]

    seen = wait_until(lambda: own_clock_shown(ben) and clock(ben), message="ben's own clock in the top bar")
    assert seen["later"] > seen["own"], seen  # the later deadline (ann's) is not what ben sees
    wait_until(lambda: own_clock_shown(ann), message="ann's own clock in the top bar")

    # H2-6: progress by name, the viewer first, never in bare seat order.
    ben_line = strip_isolates(ben.page.locator("[data-testid=draft-progress]").inner_text())
    assert ben_line.startswith("you: 0 of 8"), ben_line
    assert f"{ann.name}: 1 of 8" in ben_line, ben_line
    ann_line = strip_isolates(digits(ann.page.locator("[data-testid=draft-progress]").inner_text()))
    assert ann_line.startswith("تو:"), ann_line
    assert ben.name in ann_line and "1 از 8" in ann_line, ann_line

    ann.shot("table2-hokm2-draft-fa-desktop")
    ben.shot("table2-hokm2-draft-en-phone")
    ann.page.set_viewport_size(PHONE)
    ben.page.set_viewport_size(DESKTOP)
    ann.shot("table2-hokm2-draft-fa-phone")
    ben.shot("table2-hokm2-draft-en-desktop")

    # The last five seconds of ben's own clock: the chip warns; ann (later) is not warned yet.
    warned = wait_until(
        lambda: (c := clock(ben)) and c["phase"] == "draft" and c["own"] <= 5 and c["hurry"] and c,
        message="ben's warning",
    )
    assert ben.page.locator("[data-testid=clock-warning]").is_visible()
    assert "clock drafts for you" in ben.page.locator("[data-testid=clock-warning]").inner_text()
    ben.shot("table2-hokm2-draft-warning-en-desktop")
    a = clock(ann)
    if a["own"] is not None and a["own"] > 5:
        assert not a["hurry"], (a, warned)
