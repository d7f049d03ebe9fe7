"""Issue 40, without a mouse and on a narrow screen: axe-core finds no serious or
critical violation on the site's pages and at a table of each game mid-round, in
Persian and in English; every page and every table at 320x568 scrolls no sideways
and its main controls are tap targets of at least 40 px."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, ROOM_URL, unique, wait_until
from .onsite import play_on_site

pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 568}
GAMES = ("hokm4", "hokm2", "shelem4", "shelem2", "bridge")
MIN_TAP = 40

# The view is active and the viewer holds cards: the table mid-round.
MID_ROUND = """() => {
  const a = window.takhteh && window.takhteh.app;
  const f = a && a.liveFrame;
  return Boolean(f && f.status === 'active' && (f.view.hand || []).length);
}"""

OVERFLOW = "() => document.scrollingElement.scrollWidth - window.innerWidth"
# The innermost elements that reach past the screen's edges (what to fix when OVERFLOW fails).
WIDE = """() => [...document.querySelectorAll('body *')].filter((el) => {
  const r = el.getBoundingClientRect();
  return r.width && (r.right > innerWidth + 0.5 || r.left < -0.5) && ![...el.children].some((c) => {
    const q = c.getBoundingClientRect(); return q.width && (q.right > innerWidth + 0.5 || q.left < -0.5); });
}).slice(0, 6).map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().left)}..${Math.round(el.getBoundingClientRect().right)}`)"""

# The main controls' sizes: buttons, links styled as buttons, form fields, the
# hand's cards (a fanned card's visible strip: up to the next card's left edge).
TAP_SIZES = """() => {
  const seen = [];
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !el.closest('[hidden], .sr-only, details:not([open]) > :not(summary)');
  };
  const controls = document.querySelectorAll(
    '#main .btn, #main button:not(.card), #main select, #main input:not([type=hidden]):not([type=range]), .topbar .btn, .topbar summary, .langswitch button, .tbar .tool');
  for (const el of controls) {
    if (!visible(el) || el.disabled) continue;
    const r = el.getBoundingClientRect();
    const label = (el.dataset.testid || el.getAttribute('aria-label') || el.textContent || el.name || el.tagName).trim().slice(0, 40);
    if (el.type === 'checkbox' || el.type === 'radio') {
      const lab = el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`));
      const lr = lab ? lab.getBoundingClientRect() : r;
      seen.push({label, w: Math.max(r.width, lr.width), h: Math.max(r.height, lr.height)});
      continue;
    }
    seen.push({label, w: r.width, h: r.height});
  }
  const cards = [...document.querySelectorAll('[data-testid=hand] button.card')].filter(visible);
  const rects = cards.map((c) => c.getBoundingClientRect());
  rects.forEach((r, i) => {
    const others = rects.filter((o, j) => j !== i && Math.abs(o.top - r.top) < r.height / 2 && o.left > r.left);
    const next = others.length ? Math.min(...others.map((o) => o.left)) : r.right;
    seen.push({label: 'card ' + cards[i].dataset.card, w: next - r.left, h: r.height});
  });
  return seen;
}"""


def serious(results) -> list[str]:
    out = []
    for v in results.response.get("violations", []):
        if v.get("impact") in ("serious", "critical"):
            nodes = "; ".join(" ".join(n.get("target", [])) for n in v.get("nodes", [])[:4])
            out.append(f"{v['id']} ({v['impact']}): {v['help']} -> {nodes}")
    return out


def check_axe(page, where: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    found = serious(results)
    assert not found, f"{where}: axe found\n" + "\n".join(found)


def check_narrow(page, where: str, tap: bool = True) -> None:
    wide = page.evaluate(WIDE)
    assert page.evaluate(OVERFLOW) <= 0, (
        f"{where}: {page.evaluate(OVERFLOW)} px of sideways scroll at 320 px: {wide}"
    )
    if not tap:
        return
    small = [s for s in page.evaluate(TAP_SIZES) if min(s["w"], s["h"]) < MIN_TAP - 0.5]
    assert not small, f"{where}: tap targets under {MIN_TAP} px: {small}"


def practice_table(player, game: str):
    page = player.goto("/")
    page.locator(f"[data-testid=practice-{game}]").click()
    page.wait_for_url(ROOM_URL)
    wait_until(lambda: page.evaluate(MID_ROUND), timeout=30, message=f"{game} mid-round")
    player.settle()
    return page


@pytest.fixture(scope="module")
def finished(browser, site):
    """A finished hokm2 match (the review and the fair page need one) and its player's name."""
    from .conftest import Player

    me = Player(browser, site, unique("rev"), "en")
    me.sign_up()
    me.close()
    played = play_on_site("hokm2", {"target": 3}, "end", me.name, unique("opp"))
    assert played["status"] == "finished"
    return {"user": me.name, "match": played["match"]}


def sign_in(player, name: str):
    from .conftest import PASSWORD

    page = player.goto("/accounts/login/")
    form = page.locator("#main form[method=post]")
    form.locator("input[name=login]").fill(name)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()


def site_pages(player, finished) -> list[tuple[str, str]]:
    """(name, path) of the site's pages for issue 40's checks."""
    page = player.goto("/rooms/?game=hokm4")
    form = page.locator("[data-testid=create-hokm4]")
    page.locator("[data-testid=pick-hokm4]").check(force=True)
    form.locator("[data-testid=create-room]").click()
    page.wait_for_url(ROOM_URL)
    room = page.url
    return [
        ("home", "/"),
        ("lobby", "/rooms/"),
        ("room", room),
        ("review", f"/replays/{finished['match']}/"),
        ("school", "/school/"),
        ("fair", f"/fair/{finished['match']}/1/"),
        ("profile", f"/leaderboard/players/{finished['user']}/"),
        ("preferences", "/me/preferences/"),
    ]


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_issue40_axe_finds_no_serious_violation_on_the_pages(browser, site, finished, lang):
    from .conftest import Player

    player = Player(browser, site, finished["user"], lang, DESKTOP)
    try:
        sign_in(player, finished["user"])
        for name, path in site_pages(player, finished):
            page = player.goto(path)
            page.wait_for_load_state("networkidle")
            assert page.evaluate("document.documentElement.lang") == lang
            assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "fa" else "ltr")
            check_axe(page, f"{name} ({lang})")
        # The room page in the waiting room was checked above; leave it so the tables can start.
        assert not player.errors, player.errors
    finally:
        player.close()


@pytest.mark.parametrize("lang", ["fa", "en"])
@pytest.mark.parametrize("game", GAMES)
def test_issue40_axe_at_a_table_of_each_game_mid_round(people, game, lang):
    player = people("axe", lang=lang, viewport=DESKTOP)
    page = practice_table(player, game)
    check_axe(page, f"{game} table ({lang})")


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_issue40_every_page_at_320_px_without_sideways_scroll(browser, site, finished, lang):
    from .conftest import Player

    player = Player(browser, site, finished["user"], lang, NARROW)
    try:
        sign_in(player, finished["user"])
        for name, path in site_pages(player, finished):
            page = player.goto(path)
            page.wait_for_load_state("networkidle")
            check_narrow(page, f"{name} ({lang})")
        for path in ("/accounts/login/", "/rules/hokm/", "/leaderboard/"):
            page = player.goto(path)
            check_narrow(page, f"{path} ({lang})", tap=False)
        assert not player.errors, player.errors
    finally:
        player.close()


@pytest.mark.parametrize("lang", ["fa", "en"])
@pytest.mark.parametrize("game", GAMES)
def test_issue40_every_table_at_320_px(people, game, lang):
    player = people("narrow", lang=lang, viewport=NARROW)
    page = practice_table(player, game)
    check_narrow(page, f"{game} table ({lang})")
    # The hand readable: every card's index (rank and suit) shows, at least 12 px high.
    small = page.evaluate("""() => [...document.querySelectorAll('[data-testid=hand] .card .ci .cr')]
        .map((el) => el.getBoundingClientRect().height).filter((h) => h < 12)""")
    assert not small, f"{game}: card indices under 12 px: {small}"
