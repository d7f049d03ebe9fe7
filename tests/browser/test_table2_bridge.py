"""Issue 16 at a rubber bridge table with three bots: declarer plays dummy's
cards without a freeze after a trick dummy wins (B-4; the server's `ack`
clears the action in flight); the auction stays visible by seat during the
play and in the result; each deal's result in words; and the We / They score
sheet (B-5..B-10) opened after every deal, compared with the engine's RubberSheet."""

from __future__ import annotations

import time

import pytest

from games.engine.bridge import RubberSheet

from .conftest import DESKTOP, PHONE, ROOM_URL, wait_until

pytestmark = pytest.mark.browser

VIEW = (
    "() => { const f = window.takhteh.app.liveFrame; return f && { ...f.view, status: f.status, v: f.v }; }"
)
BUSY = "() => window.takhteh.app.busy"

# The sheet as drawn: [team][line] -> sorted (deal, kind, points, game) tuples, and the totals by team.
SHEET = """() => {
  const el = document.querySelector('[data-testid=rubber-sheet]');
  if (!el) return null;
  const cells = [...el.querySelectorAll('td[data-points]')].map((td) => ({
    team: Number(td.dataset.team), line: td.dataset.line, deal: Number(td.dataset.deal), kind: td.dataset.kind,
    points: Number(td.dataset.points), game: td.dataset.game === undefined ? null : Number(td.dataset.game) }));
  const totals = {};
  for (const td of el.querySelectorAll('[data-testid=rubber-totals] td')) totals[td.dataset.team] = Number(td.dataset.total);
  return { cells, totals, lines: el.querySelectorAll('[data-testid=game-line]').length,
    vul: [0, 1].map((t) => el.querySelector(`[data-testid=vulnerable-${t}]`).className.includes('yes')) };
}"""


def expected_cells(score: dict) -> list[tuple]:
    sheet = RubberSheet.from_data(score)
    out = []
    for team, side in enumerate(("NS", "EW")):
        out += [(team, "above", e["deal"], e["kind"], e["points"], None) for e in sheet.above(side)]
        for g, game in enumerate(sheet.games_below(side)):
            out += [(team, "below", e["deal"], e["kind"], e["points"], g) for e in game]
        out += [
            (team, "below", e["deal"], e["kind"], e["points"], len(score["games_below"]))
            for e in sheet.below(side)
        ]
    return sorted(out)


def drawn_cells(drawn: dict) -> list[tuple]:
    return sorted(
        (c["team"], c["line"], c["deal"], c["kind"], c["points"], c["game"]) for c in drawn["cells"]
    )


def check_sheet_against_engine(page, view) -> None:
    drawn = page.evaluate(SHEET)
    assert drawn is not None, "the rubber sheet is not shown"
    assert drawn_cells(drawn) == expected_cells(view["score"])
    totals = RubberSheet.from_data(view["score"]).totals()
    assert drawn["totals"] == {"0": totals["NS"], "1": totals["EW"]}
    assert drawn["lines"] == len(view["score"]["games_below"])
    assert drawn["vul"] == view["score"]["vulnerable"]


def click_card(page, selector: str) -> bool:
    try:
        page.locator(selector).first.click(timeout=2000, force=True)
    except Exception:  # noqa: BLE001 - re-rendered under the pointer; the next look tries again
        return False
    return True


def test_declarer_plays_on_after_dummy_wins_and_the_rubber_sheet(people):
    """B-4 (declarer plays dummy's cards; no freeze after dummy's trick), B-5..B-10 (the sheet), B-2 (auction)."""
    north = people("nora", lang="en", viewport=DESKTOP)
    page = north.goto("/")
    page.locator("[data-testid=practice-bridge]").click()
    page.wait_for_url(ROOM_URL)

    fast_after_dummy = 0
    deals_checked = set()
    saw_auction_in_play = False
    end = time.monotonic() + 240
    while time.monotonic() < end and (fast_after_dummy < 2 or len(deals_checked) < 2):
        view = page.evaluate(VIEW)
        if not view or view["status"] != "active":
            time.sleep(0.05)
            continue
        me = view["viewer"]
        legal = view["legal"] or []
        busy = page.evaluate(BUSY)
        res = view.get("last_result")
        if res and not res.get("passed_out") and res["round"] not in deals_checked:
            # Issue 34: after a deal the sheet stays closed (it opens by itself only when the
            # rubber is over) and opens on demand, as the engine keeps it.
            if view["score"].get("winner") is None:
                assert page.locator("[data-sheet]").is_hidden()
                page.locator("[data-sheet-toggle]").click()
            page.locator("[data-testid=rubber-sheet]").wait_for()
            view = page.evaluate(VIEW)
            check_sheet_against_engine(page, view)
            words = page.locator("[data-testid=deal-words]").last.inner_text()
            assert " by " in words and ("down" in words or "made" in words), words
            north.shot(f"table2-bridge-sheet-en-desktop-{len(deals_checked) + 1}")
            deals_checked.add(res["round"])
            page.locator("[data-testid=sheet-close]").click()
            continue
        if view["phase"] == "auction" and legal and not busy:
            call = "7NT" if any(a.get("call") == "7NT" for a in legal) else "P"
            click_card(page, f"[data-testid=call-panel] [data-call='{call}']")
        elif view["phase"] == "play" and legal and not busy:
            dummy_turn = view["declarer"] == me and view["next_hand"] == view["dummy"]
            last = view.get("last_trick")
            if view["dummy_hand"]:
                saw_auction_in_play = (
                    saw_auction_in_play
                    or page.locator("[data-testid=auction-during-play] table.auction").is_visible()
                )
            if dummy_turn and not view["trick"] and last and last["winner"] == view["dummy"]:
                # Dummy won the last trick: declarer leads from dummy at once, no five-second freeze.
                started = time.monotonic()
                wait_until(
                    lambda: page.locator("[data-testid=dummy] button.card.legal").count() > 0,
                    timeout=1.0,
                    message="dummy's cards ready after dummy's trick",
                )
                count = len(view["dummy_hand"])
                assert click_card(page, "[data-testid=dummy] button.card.legal")
                wait_until(
                    lambda count=count: len((page.evaluate(VIEW) or {}).get("dummy_hand") or []) < count,
                    timeout=1.0,
                    message="dummy's lead accepted",
                )
                assert time.monotonic() - started < 1.5
                fast_after_dummy += 1
            elif dummy_turn:
                click_card(page, "[data-testid=dummy] button.card.legal")
            else:
                click_card(page, "[data-testid=hand] button.card.legal")
        time.sleep(0.05)
    assert fast_after_dummy >= 1, "declarer never led from dummy after a trick dummy won"
    assert len(deals_checked) >= 2, deals_checked
    assert saw_auction_in_play

    for size, tag in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        page.locator("[data-sheet-toggle]").click()
        page.locator("[data-testid=rubber-sheet]").wait_for()
        north.shot(f"table2-bridge-sheet-en-{tag}")
        page.locator("[data-testid=sheet-close]").click()
