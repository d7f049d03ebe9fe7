"""The table redraws only what a frame changed (issue 35: the page's cost per card played).

Every frame used to rebuild every seat, the top bar and the status line, so the
browser styled, laid out and painted them all again for each card (on a phone
as on the suite's two cores). ``fillChanged`` (static/js/table/dom.js) keeps a
part's nodes when its new HTML is what it was last given.
"""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, wait_until
from .test_table_hokm_points import act, start_hokm_with_bots

pytestmark = pytest.mark.browser

WATCH = """() => {
  window.__bodies = [...document.querySelectorAll('.slot .seat-body')];
  window.__replaced = [];
  const seen = new Set();
  const observer = new MutationObserver((records) => {
    for (const r of records) if (r.type === 'childList' && r.target.classList.contains('seat-body')) seen.add(r.target);
  });
  for (const body of window.__bodies) observer.observe(body, { childList: true });
  const app = window.takhteh.app;
  const onFrame = app.onFrame.bind(app);
  app.onFrame = (frame) => {
    seen.clear();
    onFrame(frame);
    observer.takeRecords().forEach((r) => r.target.classList.contains('seat-body') && seen.add(r.target));
    if (frame && frame.type === 'state') window.__replaced.push(seen.size);
  };
}"""


def test_fill_changed_keeps_nodes_whose_html_is_unchanged(people):
    me = people("dom", lang="en", viewport=DESKTOP)
    got = me.page.evaluate(
        """async () => {
          const { fillChanged, h } = await import('/static/js/table/dom.js');
          const box = document.createElement('div');
          const first = fillChanged(box, h('span.a', null, 'x'), h('b', null, 'y'));
          const kept = box.firstChild;
          kept.classList.add('timed');                       // the page changes it in place (the clock)
          const again = fillChanged(box, h('span.a', null, 'x'), h('b', null, 'y'));
          const same = box.firstChild === kept && kept.classList.contains('timed');
          const changed = fillChanged(box, h('span.a', null, 'z'));
          const now = box.innerHTML;
          box.replaceChildren();                            // emptied by someone else
          const refilled = fillChanged(box, h('span.a', null, 'z')) && box.innerHTML === now;
          return { first, again, same, changed, now, refilled };
        }"""
    )
    assert got == {
        "first": True,
        "again": False,
        "same": True,
        "changed": True,
        "now": '<span class="a">z</span>',
        "refilled": True,
    }


def test_a_card_played_redraws_at_most_the_two_seats_it_changes(people):
    """Hokm for four with three bots: a card played mid-trick changes the seat that
    played (its turn and its cards) and the next one (its turn); the other two seats
    keep their nodes. Before, all four were rebuilt for every frame."""
    me = people("redraw", lang="en", viewport=DESKTOP)
    start_hokm_with_bots(me)
    page = me.page
    page.wait_for_function("() => window.takhteh && window.takhteh.app.liveFrame")
    page.evaluate(WATCH)

    def enough():
        need = page.evaluate(
            "() => document.querySelector('[data-testid=trump-panel] .suit-btn:not([disabled])') ? 'trump'"
            " : document.querySelector('[data-testid=hand] button.card.legal') ? 'card' : null"
        )
        if need:
            act(page, need)
        return len(page.evaluate("() => window.__replaced")) >= 12 or None

    wait_until(enough, timeout=60, interval=0.1, message="twelve frames")
    replaced = page.evaluate("() => window.__replaced")
    assert max(replaced) <= 4 and sorted(replaced)[len(replaced) // 2] <= 2, replaced
    assert replaced.count(4) <= len(replaced) // 4, replaced  # a new round or trump may redraw all
