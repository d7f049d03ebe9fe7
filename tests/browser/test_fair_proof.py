"""Issue 34, the fair deal's proof (RULES.md F-7, F-8), in a real browser:

- the round page's look comes from the stylesheets (the site's CSP refuses
  inline styles: no "Refused to apply" in the console), a failing proof is
  red and says in one sentence which check failed, and nothing overflows
  sideways at 390 and 1280 px (long fingerprints wrap);
- "Check again" re-reads the record as the page holds it then: a value
  edited in the page fails the check it failed to fail before;
- a signed-out visitor gets the same answer for the fair-deal link as for the
  review's link (404 for both);
- at the table, the deal's phase (fingerprints in, values in, dealt) shows
  from the round's first frame, before the cards are dealt, and the seats
  whose value the server made (bots) are named and marked.

Persian (RTL) and English.
"""

from __future__ import annotations

import pytest

from .conftest import ROOM_URL, unique, wait_until
from .onsite import play_on_site

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

RED = "rgb(183, 28, 28)"  # static/css/fair.css: .fair-result[data-state=failed]


def csp_refusals(player) -> list[str]:
    messages: list[str] = []
    player.page.on(
        "console", lambda m: messages.append(m.text) if "Content Security Policy" in m.text else None
    )
    return messages


def result_state(page) -> str:
    return page.locator("[data-testid=fair-result]").get_attribute("data-state")


def overflow(page) -> int:
    """How many pixels the page is wider than the window (0: no sideways scrolling)."""
    return page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_f8_a_failing_proof_is_red_names_its_check_and_check_again_reads_the_page(people, lang):
    sara = people("sara", lang=lang, viewport=DESKTOP)
    refused = csp_refusals(sara)
    played = play_on_site("hokm4", {}, "rounds:1", sara.name, *(unique(s) for s in "bcd"))
    url = f"/fair/{played['match']}/1/"
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        sara.page.set_viewport_size(viewport)
        page = sara.goto(url)
        wait_until(lambda p=page: result_state(p) in ("ok", "failed"), message="the page's check")
        assert result_state(page) == "ok"
        # The stylesheet is applied (it was an inline <style> the CSP refused).
        assert (
            page.locator(".fair code.hex").first.evaluate("e => getComputedStyle(e).wordBreak") == "break-all"
        )
        assert overflow(page) <= 0, f"{size}: {overflow(page)} px sideways"
        sara.shot(f"fair-page-verified-{lang}-{size}")

        # F-8: a value edited in the page is what "Check again" checks.
        page.evaluate(
            """() => { const c = document.querySelector('[data-testid=fair-values] tr[data-seat="2"] [data-field=value]');
                       c.textContent = c.textContent.trim().replace(/^./, (d) => d === '0' ? '1' : '0');
                       c.dataset.edited = 'true'; }"""
        )
        page.locator("[data-testid=fair-recheck]").click()
        wait_until(lambda p=page: result_state(p) == "failed", message="the failed check")
        result = page.locator("[data-testid=fair-result]")
        assert result.evaluate("e => getComputedStyle(e).backgroundColor") == RED
        failed = page.locator("[data-testid=fair-checks] li[data-ok=false]").evaluate_all(
            "els => els.map(e => e.dataset.code)"
        )
        assert failed[0] == "value", failed
        why = page.locator("[data-testid=fair-why]").inner_text()
        label = page.locator("[data-testid=fair-checks] li[data-code=value][data-ok=false]").inner_text()
        assert label.lstrip("✗ ").split(" (")[0] in why  # one sentence naming the check that failed
        assert why.count(".") <= 2 and "\n" not in why.strip()
        assert overflow(page) <= 0, f"{size}: {overflow(page)} px sideways when failed"
        sara.shot(f"fair-page-failed-{lang}-{size}")
    assert not refused, refused


def test_f8_a_visitor_gets_the_same_answer_for_the_fair_link_as_for_the_review(people):
    sara = people("sara", lang="en")
    played = play_on_site("hokm4", {}, "rounds:1", sara.name, *(unique(s) for s in "bcd"))
    visitor = people("visitor", lang="en", signed_up=False)
    fair = visitor.page.goto(f"{visitor.site}/fair/{played['match']}/1/")
    review = visitor.page.goto(f"{visitor.site}/replays/{played['match']}/")
    assert fair.status == review.status == 404
    assert "/accounts/login/" not in visitor.page.url


PHASES = """(() => {
  window.__fairPhases = [];
  new MutationObserver(() => {
    const el = document.querySelector('[data-testid=fair-phase]');
    if (!el) return;
    const dealt = Boolean(window.takhteh && window.takhteh.app && window.takhteh.app.liveFrame
      && (window.takhteh.app.liveFrame.view.hand || []).length);
    const last = window.__fairPhases[window.__fairPhases.length - 1];
    const now = {round: el.dataset.round, phase: el.dataset.phase, text: el.innerText, handShown: dealt};
    if (!last || last.round !== now.round || last.phase !== now.phase) window.__fairPhases.push(now);
  }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})();"""


@pytest.mark.parametrize(("lang", "viewport", "size"), [("en", DESKTOP, "desktop"), ("fa", PHONE, "phone")])
def test_f8_the_fair_phase_shows_at_the_table_from_the_start_of_the_round(people, lang, viewport, size):
    sara = people("sara", lang=lang, viewport=viewport)
    sara.page.add_init_script(PHASES)
    page = sara.goto("/")
    page.locator("[data-testid=practice-hokm4]").click()
    page.wait_for_url(ROOM_URL)
    phase = page.locator("[data-testid=fair-phase]")
    wait_until(lambda: phase.get_attribute("data-phase") == "dealt", timeout=30, message="the dealt phase")
    seen = page.evaluate("() => window.__fairPhases")
    first = seen[0]
    # F-8: shown while the fingerprints or values were still being collected, before any card was dealt.
    assert first["round"] == "1" and first["phase"] in ("commit", "reveal") and not first["handShown"], seen
    assert [s["phase"] for s in seen][-1] == "dealt"
    steps = phase.locator(".fair-step").evaluate_all("els => els.map(e => [e.dataset.step, e.dataset.done])")
    assert steps == [["fingerprints", "true"], ["values", "true"], ["dealt", "true"]]
    # The bots' values are made by the server: named in the box and marked by their seats.
    assert phase.locator("[data-testid=fair-server-seats]").get_attribute("data-seats") == "2 3 4"
    marked = page.locator("[data-slot][data-fair-server=true]").evaluate_all(
        "els => els.map(e => e.dataset.seat)"
    )
    assert sorted(marked) == ["2", "3", "4"]
    # The box stays clear of every seat's name and avatar.
    sara.shot(f"fair-phase-table-{lang}-{size}")
    box = phase.bounding_box()
    for el in page.locator(".seat .seat-name, .seat .avatar").all():
        b = el.bounding_box()
        if b is None:
            continue
        apart = (
            box["x"] + box["width"] <= b["x"]
            or b["x"] + b["width"] <= box["x"]
            or box["y"] + box["height"] <= b["y"]
            or b["y"] + b["height"] <= box["y"]
        )
        assert apart, (box, b)
