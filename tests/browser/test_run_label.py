"""Leading a run in Persian (H4-X3, issue 34): card names in mixed text keep their
order. The table names cards inside sentences with one helper
(static/js/table/cards.js: cardsInline, a <bdi dir="ltr">; cardsText for plain
text); the run button is made with it. Measured where the glyphs are drawn: in
a right-to-left sentence the run "Q♠ K♠" reads Q, ♠, K, ♠ from left to right;
the same sentence built as plain text (the old button) does not, which shows
the measurement can fail.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

BUILD = """async () => {
  if (!window.gettext) {
    await new Promise((done) => { const s = document.createElement('script'); s.src = '/jsi18n/';
      s.onload = done; document.head.append(s); });
  }
  const { cardsInline, fmtNodes } = await import('/static/js/table/cards.js');
  const { h } = await import('/static/js/table/dom.js');
  const text = window.gettext('Lead the run %(cards)s');
  const main = document.querySelector('main');
  main.replaceChildren();
  const made = h('button.btn.btn-small', {id: 'with-helper', type: 'button'},
    fmtNodes(text, {cards: cardsInline(['QS', 'KS'])}));
  const old = h('button.btn.btn-small', {id: 'plain', type: 'button'},
    window.interpolate(text, {cards: ['Q\\u2660\\uFE0E', 'K\\u2660\\uFE0E'].join(' ')}, true));
  main.append(h('p', null, made), h('p', null, old));
  return text;
}"""

# The left edge of every Q, K and ♠ glyph drawn in a button, in the order they are drawn left to right.
GLYPHS = """(id) => {
  const button = document.getElementById(id) || document.querySelector(id);
  const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
  const found = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.data.length; i++) {
      const ch = node.data[i];
      if (!'QK\\u2660'.includes(ch)) continue;
      const range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      found.push([range.getBoundingClientRect().left, ch === '\\u2660' ? 'S' : ch]);
    }
  }
  return found.sort((a, b) => a[0] - b[0]).map((f) => f[1]).join('');
}"""


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_h4_x3_a_run_named_in_a_sentence_keeps_its_cards_order(people, lang):
    ana = people("ana", lang=lang, signed_up=False)
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        ana.page.set_viewport_size(viewport)
        page = ana.goto("/")
        text = page.evaluate(BUILD)
        if lang == "fa":
            assert text != "Lead the run %(cards)s"  # translated
            # The old plain text is scrambled by the sentence's direction: this measurement sees it.
            assert page.evaluate(GLYPHS, "plain") != "QSKS"
        assert page.evaluate(GLYPHS, "with-helper") == "QSKS"
        assert page.locator("#with-helper bdi[dir=ltr]").inner_text() == "Q\u2660\ufe0e K\u2660\ufe0e"
        page.locator("#with-helper").screenshot(path=str(ana.shot(f"run-button-{lang}-{size}", settle=False)))


OFFER_RUN = """(run) => { const a = window.takhteh.app; const f = JSON.parse(JSON.stringify(a.frame));
    f.full = true; f.events = []; f.view.run = null; f.view.legal = [...f.view.legal, run]; a.onFrame(f); }"""


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_h4_x3_the_tables_run_button_keeps_its_cards_order(people, lang):
    """The real run button of the table's panel (a frame of this page with a run added to its
    legal actions, as tests/browser/test_hokm_table_rules.py offers one), at a table where
    nothing moves meanwhile (the other seats' players have no browser, the clock is long)."""
    from .conftest import unique, wait_until
    from .onsite import play_on_site

    ana = people("ana", lang=lang, viewport=PHONE)
    played = play_on_site("hokm4", {"turn_seconds": 60}, "rounds:0", ana.name, *(unique(s) for s in "bcd"))
    page = ana.goto(f"/rooms/{played['code']}/")
    wait_until(lambda: page.evaluate("() => Boolean(window.takhteh.app.liveFrame)"), message="the match")
    page.evaluate(OFFER_RUN, {"type": "run", "cards": ["QS", "KS"]})
    button = page.locator("[data-testid=run-0]")
    button.wait_for()
    assert page.evaluate(GLYPHS, "[data-testid=run-0]") == "QSKS"
    assert button.locator("bdi[dir=ltr]").count() == 1
    button.screenshot(path=str(ana.shot(f"run-button-table-{lang}-phone", settle=False)))


def test_the_table_builds_its_run_button_with_the_helper():
    """The run button (panels.js) and the table's sentences naming cards use the helper, not a bare join."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "static" / "js" / "table"
    panels = (root / "panels.js").read_text()
    assert 'fmtNodes(gettext("Lead the run %(cards)s"), { cards: cardsInline(run.cards) })' in panels
    assert "cardText(c)).join" not in panels + (root / "motion.js").read_text()
