"""Issue 40 at the table: a whole Hokm round and a Bridge auction played with the
keyboard only; the live region says one trick's cards and its winner in order;
"confirm each card" lifts before it plays; a double tap never plays two cards
(and the server refuses a second act for the same version); the stand-in badge
(L-7) drawn from the state frame, with screenshots at 320x568 and 390x844."""

from __future__ import annotations

import time

import pytest

from .conftest import DESKTOP, ROOM_URL, wait_until
from .test_a11y_pages import check_axe, check_narrow

pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 568}
PHONE_390 = {"width": 390, "height": 844}

VIEW = """() => {
  const a = window.takhteh && window.takhteh.app;
  const f = a && a.liveFrame;
  if (!f) return null;
  return {...f.view, status: f.status, v: f.v, busy: a.busy};
}"""
SAID = "() => window.takhteh.app.announcer.said.slice()"
FOCUS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  return {tag: el.tagName, card: el.dataset.card || null, testid: el.dataset.testid || null,
          call: el.dataset.call || null, inHand: Boolean(el.closest('[data-testid=hand]')),
          inPanel: Boolean(el.closest('[data-panel]')), legal: el.classList.contains('legal')};
}"""
RANKS = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "10"}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def card_label(card: str) -> str:
    return f"{RANKS.get(card[0], card[0])} of {SUITS[card[1]]}"


def practice(player, game: str):
    page = player.goto("/")
    page.locator(f"[data-testid=practice-{game}]").click()
    page.wait_for_url(ROOM_URL)
    wait_until(lambda: page.evaluate(VIEW), timeout=30, message=f"{game} started")
    return page


def tab_to(page, want, limit: int = 80, still=None) -> dict | None:
    """Press Tab until the focused element is what ``want(focus)`` asks for; None when
    ``still()`` says the choice has gone meanwhile (the turn clock chose on a busy machine)."""
    visited = []
    for i in range(limit):
        focus = page.evaluate(FOCUS)
        if focus and want(focus):
            return focus
        visited.append(focus)
        if still is not None and i % 8 == 7 and not still():
            return None
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached the control: {visited}")


def test_issue40_a_whole_hokm_round_with_the_keyboard_only_and_its_trick_said_in_order(people):
    """R-1, H4-2..H4-8 by keyboard: Tab into the panel and the hand, arrows in the hand, Enter plays."""
    nima = people("keys", lang="en", viewport=DESKTOP)
    page = practice(nima, "hokm4")

    def still(kind):
        return lambda: any(a["type"] == kind for a in (page.evaluate(VIEW) or {}).get("legal") or [])

    page.mouse.move(0, 0)
    played = 0
    arrows_used = False
    trick_checked = False
    end = time.monotonic() + 240
    while time.monotonic() < end:
        view = page.evaluate(VIEW)
        if view and view.get("last_result"):
            break  # the round is over
        if view and view.get("last_trick") and not trick_checked:
            trick_checked = check_trick_said(page, view)
        legal = (view or {}).get("legal") or []
        if not view or view["busy"] or not legal:
            time.sleep(0.05)
            continue
        types = {a["type"] for a in legal}
        if "trump" in types:
            if tab_to(
                page,
                lambda f: f["inPanel"] and (f["testid"] or "").startswith("trump-"),
                still=still("trump"),
            ):
                page.keyboard.press("Enter")
        elif "play" in types:
            focus = tab_to(page, lambda f: f["inHand"] and f["legal"], still=still("play"))
            if focus is None:
                continue
            count = len(view["hand"])
            if not arrows_used and sum(1 for a in legal if a["type"] == "play") > 1:
                page.keyboard.press("ArrowRight")
                moved = page.evaluate(FOCUS)
                assert moved["inHand"] and moved["card"] != focus["card"], "the arrow moved within the hand"
                arrows_used = True
            page.keyboard.press("Enter")
            wait_until(
                lambda count=count: (
                    len((page.evaluate(VIEW) or {}).get("hand") or []) < count
                    or (page.evaluate(VIEW) or {}).get("last_result")
                ),
                timeout=10,
                message="the card played",
            )
            played += 1
        else:
            time.sleep(0.05)
    # H4-4: the round ends as soon as a side has seven tricks.
    assert played >= 4, f"only {played} cards played by keyboard"
    assert len([a for a in nima.sent("act") if a["action"]["type"] == "play"]) == played
    assert arrows_used
    assert trick_checked, "no trick's announcements were checked"
    # Nothing was clicked: every action went out by the keyboard (the page saw no pointer).
    assert page.evaluate("() => window.takhteh.app.keyboardUser") is True
    said = page.evaluate(SAID)
    assert any(line.startswith("Round over:") and "Match score" in line for line in said), said[-5:]


def check_trick_said(page, view) -> bool:
    """The live region said the last trick's four cards, by whom, then its winner, in order."""
    last = view["last_trick"]
    if len(last["cards"]) != 4:
        return False
    names = page.evaluate("() => [1, 2, 3, 4].map((n) => window.takhteh.app.name(n))")
    me = view["viewer"]
    want = []
    for entry in last["cards"]:
        label = card_label(entry["card"])
        who = "You" if entry["seat"] == me else names[entry["seat"] - 1]
        want.append(f"You played {label}." if entry["seat"] == me else f"{who} played {label}.")
    winner = last["winner"]
    want.append("You took the trick." if winner == me else f"{names[winner - 1]} took the trick.")
    said = [line.replace("\u2068", "").replace("\u2069", "") for line in page.evaluate(SAID)]
    said = [line for line in said if not line.startswith("Your turn")]  # the viewer's turn: its own line
    # Find the four cards and the winner as consecutive lines (a turn may ride on a line's end).
    for i in range(len(said) - 4):
        if all(said[i + k].startswith(want[k]) for k in range(5)):
            lines = page.locator("[data-testid=announcer] p").all_inner_texts()
            assert lines, "the live region holds the lines"
            assert page.locator("[data-testid=announcer]").get_attribute("aria-live") == "polite"
            return True
    raise AssertionError(f"the trick was not said in order: want {want}, said {said[-12:]}")


def test_issue40_a_bridge_auction_with_the_keyboard_only(people):
    """B-2 by keyboard: the bidding box is reached by Tab, the arrows move in it, Enter calls."""
    nora = people("keysb", lang="en", viewport=DESKTOP)
    page = practice(nora, "bridge")
    page.keyboard.press("Tab")
    calls = 0
    end = time.monotonic() + 120
    while time.monotonic() < end:
        view = page.evaluate(VIEW)
        if view and view["phase"] != "auction" and (calls or view["phase"] == "play"):
            break
        legal = [a for a in ((view or {}).get("legal") or []) if a["type"] == "call"]
        if not view or view["busy"] or not legal:
            time.sleep(0.05)
            continue
        count = len(view.get("calls") or [])
        if calls == 0 and any(a["call"] not in ("P", "X", "XX") for a in legal):
            # The lowest legal bid, then one step right with the arrow: the next bid in the box.
            first = tab_to(page, lambda f: f["inPanel"] and f["call"] and f["call"][0].isdigit())
            page.keyboard.press("ArrowRight")
            moved = page.evaluate(FOCUS)
            assert moved["call"] and moved["call"] != first["call"]
            chosen = moved["call"]
        else:
            tab_to(page, lambda f: f["call"] == "P")
            chosen = "P"
        page.keyboard.press("Enter")
        wait_until(
            lambda count=count: (
                len((page.evaluate(VIEW) or {}).get("calls") or []) > count
                or (page.evaluate(VIEW) or {}).get("phase") != "auction"
            ),
            timeout=10,
            message="the call accepted",
        )
        mine = [c for c in (page.evaluate(VIEW).get("calls") or []) if c["seat"] == view["viewer"]]
        if mine:
            assert mine[-1]["call"] == chosen
        calls += 1
    assert calls >= 1
    said = page.evaluate(SAID)
    assert any(line.startswith("You: ") for line in said), said[-6:]
    view = page.evaluate(VIEW)
    if view["phase"] == "play":
        assert any(line.startswith("The contract is ") for line in said), said[-6:]


def set_preference(player, field: str, on: bool):
    page = player.goto("/me/preferences/")
    box = page.locator(f"input[name={field}]")
    box.set_checked(on)
    page.locator("#main form button[type=submit]").click()
    page.wait_for_load_state()
    assert player.goto("/me/preferences/").locator(f"input[name={field}]").is_checked() is on


def wait_my_card_turn(page, timeout: float = 60):
    return wait_until(
        lambda: (
            lambda v: (
                v if v and not v["busy"] and any(a["type"] == "play" for a in v["legal"] or []) else None
            )
        )(page.evaluate(VIEW)),
        timeout=timeout,
        message="my turn to play a card",
    )


def test_issue40_confirm_each_card_lifts_first_then_plays(people):
    sara = people("confirm", lang="en", viewport=DESKTOP)
    set_preference(sara, "confirm_cards", True)
    page = practice(sara, "hokm4")
    assert page.locator("#table-app").get_attribute("data-confirm-cards") == "true"
    for _ in range(2):  # two of her turns
        view = wait_my_card_turn(page)
        card = page.locator("[data-testid=hand] button.card.legal").first
        name = card.get_attribute("data-card")
        before = len(sara.sent("act"))
        card.click(position={"x": 10, "y": 30}, force=True)
        lifted = page.locator(f"[data-testid=hand] button.card.lifted[data-card='{name}']")
        lifted.wait_for()
        assert lifted.get_attribute("aria-pressed") == "true"
        assert len(sara.sent("act")) == before, "the first tap only lifts the card"
        assert page.evaluate(SAID)[-1].endswith("press again to play it.")
        sara.shot("a11y-confirm-card-lifted-en-desktop")
        lifted.click(position={"x": 10, "y": 30}, force=True)
        wait_until(lambda before=before: len(sara.sent("act")) == before + 1, message="the second tap plays")
        assert sara.sent("act")[-1]["action"] == {"type": "play", "card": name}
        held = len(view["hand"])
        wait_until(lambda held=held: len(page.evaluate(VIEW)["hand"]) < held, message="the card left")


def test_issue40_confirm_bids_asks_before_a_shelem_bid(people):
    sara = people("confirmb", lang="en", viewport=DESKTOP)
    set_preference(sara, "confirm_bids", True)
    page = practice(sara, "shelem4")
    wait_until(
        lambda: any(a["type"] in ("bid", "pass") for a in (page.evaluate(VIEW) or {}).get("legal") or []),
        timeout=60,
        message="my turn to bid",
    )
    before = len(sara.sent("act"))
    page.locator("[data-testid=bid-button]").click()
    page.locator("[data-testid=confirm-bid]").wait_for()
    assert len(sara.sent("act")) == before, "a bid waits for its confirmation"
    page.locator("[data-testid=confirm-bid-yes]").click()
    wait_until(lambda: len(sara.sent("act")) == before + 1, message="the confirmed bid sent")
    assert sara.sent("act")[-1]["action"]["type"] == "bid"


ERRORS = """() => {
  const app = window.takhteh.app;
  window.__errors = [];
  const onError = app.onError.bind(app);
  app.onError = (frame) => { window.__errors.push(frame); onError(frame); };
}"""


def test_issue40_a_double_tap_never_plays_two_cards(people):
    """The page sends one act for a double click; the server refuses a second act of the same version."""
    ali = people("double", lang="en", viewport=DESKTOP)
    page = practice(ali, "hokm4")
    page.evaluate(ERRORS)
    view = wait_my_card_turn(page)
    before = len(ali.sent("act"))
    page.locator("[data-testid=hand] button.card.legal").first.dblclick(
        position={"x": 10, "y": 30}, force=True
    )
    wait_until(lambda: len(ali.sent("act")) >= before + 1, message="the act sent")
    held = len(view["hand"])
    wait_until(lambda: len(page.evaluate(VIEW)["hand"]) == held - 1, message="one card left")
    assert len(ali.sent("act")) == before + 1, "a double click sent two acts"
    # The server: two acts for the same version (as from two stale pages) play one card only.
    view = wait_my_card_turn(page)
    plays = [a["card"] for a in view["legal"] if a["type"] == "play"]
    if len(plays) < 2:
        pytest.skip(
            "only one legal card this turn"
        )  # pragma: no cover - rare (a single card of the led suit)
    n = len(view["hand"])
    page.evaluate(
        """([v, a, b]) => {
          const s = window.takhteh.app.socket;
          s.send({type: 'act', action: {type: 'play', card: a}, v, ref: 9001});
          s.send({type: 'act', action: {type: 'play', card: b}, v, ref: 9002});
        }""",
        [view["v"], plays[0], plays[1]],
    )
    wait_until(lambda: page.evaluate("() => window.__errors.length") > 0, message="the second act refused")
    refused = page.evaluate("() => window.__errors")
    assert any(e.get("ref") == 9002 for e in refused), refused
    wait_until(lambda: len(page.evaluate(VIEW)["hand"]) <= n - 1, message="the first act played")
    assert len(page.evaluate(VIEW)["hand"]) == n - 1
    assert plays[1] in page.evaluate(VIEW)["hand"]


STAND_IN = """(seat) => {
  // The live frames are held while the badge is looked at (the bots play on and
  // their frames would redraw the seat); the injected one is the server's form.
  const app = window.takhteh.app;
  app.socket.onFrame = () => {};
  const room = JSON.parse(JSON.stringify(app.room));
  room.seats[1] = {...room.seats[1], user: 'Dariush', bot: false, presence: 'disconnected'};
  app.onFrame({type: 'room', room, you: app.you});
  app.onFrame({...app.frame, events: [], full: true, stand_in: seat ? [seat] : []});
}"""


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_issue40_l7_the_stand_in_badge_from_the_state_frame_and_screenshots(people, lang):
    for size, viewport in (("320", NARROW), ("390", PHONE_390)):
        player = people(f"badge{size}", lang=lang, viewport=viewport)
        page = practice(player, "hokm4")
        wait_until(lambda page=page: (page.evaluate(VIEW) or {}).get("hand"), timeout=30, message="dealt")
        player.settle()
        player.shot(f"a11y-table-{lang}-{size}x{viewport['height']}")
        assert page.locator("[data-testid^=stand-in-]").count() == 0
        # Seat 2 made a person who is gone (in practice it is a bot's: the badge is for people).
        page.evaluate(STAND_IN, 2)
        badge = page.locator("[data-testid=stand-in-2]")
        badge.wait_for(timeout=5000)
        box = badge.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 0.5
        label = page.locator("[data-testid=seat-2]").get_attribute("aria-label")
        assert ("Stand-in playing" if lang == "en" else "جانشین بازی می‌کند") in label
        assert page.evaluate("() => document.scrollingElement.scrollWidth - innerWidth") <= 0
        player.shot(f"a11y-stand-in-{lang}-{size}x{viewport['height']}")
        # A later frame without the flag: the badge goes (he is back).
        page.evaluate(STAND_IN, 0)
        wait_until(
            lambda page=page: page.locator("[data-testid=stand-in-2]").count() == 0, message="badge gone"
        )


# --- issue 40: the phone's bidding box in two steps (320x568) ---------------------------------

PANEL_GEOMETRY = """(sel) => {
  const box = (el) => { const b = el.getBoundingClientRect(); return {x: b.left, y: b.top, r: b.right, b: b.bottom}; };
  const shown = (el) => el.offsetParent !== null;
  const panel = [...document.querySelectorAll(sel)].find(shown) || null;
  const controls = panel ? [...panel.querySelectorAll('button, input')].filter(shown) : [];
  return {
    panel: panel ? box(panel) : null,
    step: panel ? panel.dataset.step || null : null,
    names: [...document.querySelectorAll('.seat .seat-name')].filter(shown)
      .map((el) => ({...box(el), text: el.innerText})),
    fair: [...document.querySelectorAll('[data-testid=fair-box] > *')].filter(shown).map(box),
    controls: controls.map((el) => ({...box(el), text: el.dataset.call || el.dataset.testid || el.innerText})),
    scroll: document.scrollingElement.scrollWidth - innerWidth,
  };
}"""


def meets(a: dict, b: dict) -> bool:
    return a["x"] < b["r"] - 0.5 and b["x"] < a["r"] - 0.5 and a["y"] < b["b"] - 0.5 and b["y"] < a["b"] - 0.5


def check_phone_panel(
    page, selector: str, where: str, controls: bool = True, width: int = NARROW["width"]
) -> dict:
    """The panel covers no seat's name plate, the page does not scroll sideways, and every
    control of the panel is a tap target of at least 40x40 px (issue 40, 320x568)."""
    geo = page.evaluate(PANEL_GEOMETRY, selector)
    assert geo["panel"], f"{where}: no panel {selector}"
    assert len(geo["names"]) == 4, (where, geo["names"])
    covered = [n for n in geo["names"] if meets(geo["panel"], n)]
    assert not covered, (where, geo["panel"], covered)
    # Nor does the fair deal's box in the felt's corner (every seat's name stays readable).
    assert not [n for n in geo["names"] for f in geo["fair"] if meets(f, n)], (
        where,
        geo["fair"],
        geo["names"],
    )
    assert geo["scroll"] <= 0, (where, geo["scroll"])
    small = [c for c in geo["controls"] if c["r"] - c["x"] < 39.5 or c["b"] - c["y"] < 39.5]
    assert not small, (where, small)
    assert geo["controls"] or not controls, where
    assert geo["panel"]["x"] >= 0 and geo["panel"]["r"] <= width, (where, geo["panel"])
    return geo


def wait_my_call(page, timeout: float = 60):
    """My turn to call, or None once the auction is over."""

    def ready():
        view = page.evaluate(VIEW)
        if not view:
            return None
        if view["phase"] != "auction":
            return {"over": view}
        if not view["busy"] and any(a["type"] == "call" for a in view.get("legal") or []):
            return {"turn": view}
        return None

    got = wait_until(ready, timeout=timeout, message="my turn to call")
    return got.get("turn")


def wait_call_taken(page, count: int):
    wait_until(
        lambda: (
            len((page.evaluate(VIEW) or {}).get("calls") or []) > count
            or (page.evaluate(VIEW) or {}).get("phase") != "auction"
        ),
        timeout=10,
        message="the call accepted",
    )


def focus_on(page) -> dict:
    return page.evaluate(
        "() => { const el = document.activeElement; return el ? {call: el.dataset.call || null,"
        " level: el.dataset.level || null, testid: el.dataset.testid || null} : {}; }"
    )


BOX = "[data-testid=call-panel]"


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_issue40_a_bridge_auction_through_the_two_step_box_at_320(people, lang):
    """B-2 at 320x568: levels first, a level opens its five bids (only legal calls enabled), a way
    back; the box never covers a seat's name, no sideways scroll, 40 px targets. In Persian by
    touch with "confirm bids" on; in English by the keyboard only (Enter, arrows, Escape)."""
    player = people(f"steps{lang}", lang=lang, viewport=NARROW)
    if lang == "fa":
        set_preference(player, "confirm_bids", True)
    page = practice(player, "bridge")
    assert page.locator("#table-app").get_attribute("data-confirm-bids") == (
        "true" if lang == "fa" else "false"
    )
    wait_until(
        lambda: (page.evaluate(VIEW) or {}).get("phase") == "auction", timeout=30, message="the auction"
    )
    if lang == "en":
        page.keyboard.press("Tab")
    mine = []
    shots = set()
    end = time.monotonic() + 150
    while time.monotonic() < end:
        view = wait_my_call(page)
        if view is None:
            break
        # Not yet my turn's panel (the bots' frames redraw it): the levels show first.
        page.locator(f"{BOX}[data-step=level]").wait_for()
        if "level" not in shots:
            player.shot(f"a11y-bidding-levels-{lang}-320x568")
            shots.add("level")
            # The whole table at this moment: no sideways scroll, every tap target 40 px, and axe-core
            # finds nothing serious in the box (its groups and buttons are labelled).
            check_narrow(page, f"bridge auction ({lang})")
            check_axe(page, f"two-step box, levels ({lang})")
        check_phone_panel(page, BOX, "levels")
        legal = {a["call"] for a in view["legal"] if a["type"] == "call"}
        # Only the levels with a legal bid are enabled (the same legal calls as the full box).
        for level in range(1, 8):
            enabled = page.locator(f"[data-testid=bb-level-{level}]").is_enabled()
            assert enabled == any(c[0] == str(level) for c in legal if c[0].isdigit()), (level, legal)
        for call in ("P", "X", "XX"):
            assert page.locator(f"{BOX} [data-call='{call}']").is_enabled() == (call in legal), call
        count = len(view.get("calls") or [])
        acts = len(player.sent("act"))
        bids = sorted(c for c in legal if c[0].isdigit())
        if not mine and bids:
            level = int(bids[0][0])
            if lang == "en":
                tab_to(
                    page,
                    lambda f, level=level: (
                        page.evaluate("() => document.activeElement.dataset.level || ''") == str(level)
                    ),
                )
                page.keyboard.press("Enter")
                page.locator(f"{BOX}[data-step=strain]").wait_for()
                first = focus_on(page)
                assert first["call"] and first["call"][0] == str(level), first
                page.keyboard.press("Escape")  # back to the levels, on the level left
                page.locator(f"{BOX}[data-step=level]").wait_for()
                assert focus_on(page)["level"] == str(level)
                page.keyboard.press("Enter")
                page.locator(f"{BOX}[data-step=strain]").wait_for()
            else:
                page.locator(f"[data-testid=bb-level-{level}]").click()
                page.locator(f"{BOX}[data-step=strain]").wait_for()
                page.locator("[data-testid=bb-back]").click()
                page.locator(f"{BOX}[data-step=level]").wait_for()
                page.locator(f"[data-testid=bb-level-{level}]").click()
                page.locator(f"{BOX}[data-step=strain]").wait_for()
            check_phone_panel(page, BOX, "strains")
            player.shot(f"a11y-bidding-strains-{lang}-320x568")
            check_axe(page, f"two-step box, strains ({lang})")
            strains = page.locator("[data-testid=bb-strains] button")
            assert strains.count() == 5
            for i in range(5):
                button = strains.nth(i)
                call = button.get_attribute("data-call")
                assert call[0] == str(level) and button.is_enabled() == (call in legal), (call, legal)
                assert button.get_attribute("aria-label"), call
            assert page.locator("[data-testid=bb-strains]").get_attribute("aria-label")
            assert page.locator("[data-testid=bb-back]").get_attribute("aria-label")
            if lang == "en":
                page.keyboard.press("ArrowRight")
                chosen = focus_on(page)["call"]
                page.keyboard.press("Enter")
            else:
                chosen = max((c for c in bids if c[0] == str(level)), key=lambda c: "CDHSN".index(c[1]))
                page.locator(f"[data-testid=bb-strains] [data-call='{chosen}']").click()
        else:
            chosen = "P"
            if lang == "en":
                tab_to(page, lambda f: f["call"] == "P")
                page.keyboard.press("Enter")
            else:
                page.locator(f"{BOX} [data-call=P]").click()
        if lang == "fa":
            # "Confirm bids": the box gives way to the question, still clear of every name.
            page.locator(f"{BOX}[data-step=confirm]").wait_for()
            assert len(player.sent("act")) == acts, "the call waits for its confirmation"
            check_phone_panel(page, BOX, "confirm")
            if "confirm" not in shots:
                player.shot(f"a11y-bidding-confirm-{lang}-320x568")
                shots.add("confirm")
            page.locator("[data-testid=confirm-bid-yes]").click()
        wait_call_taken(page, count)
        mine.append(chosen)
        # The others' turns: the auction so far in the middle, clear of every name too.
        if page.locator("[data-testid=auction]").is_visible():
            check_phone_panel(page, "[data-testid=auction]", "the auction", controls=False)
        sent = [a["action"] for a in player.sent("act")]
        assert sent[-1] == {"type": "call", "call": chosen}, sent[-3:]
    view = page.evaluate(VIEW)
    assert view["phase"] != "auction", "the auction never ended"
    assert mine and mine[0][0].isdigit(), mine  # a bid made through the two steps
    said = page.evaluate(SAID)
    assert any(line.startswith("The contract is ") or "قرارداد" in line for line in said) or view.get(
        "contract"
    ), said[-4:]
    player.shot(f"a11y-bidding-after-{lang}-320x568")
    if lang == "en":
        assert page.evaluate("() => window.takhteh.app.keyboardUser") is True


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_issue40_shelem_bid_at_320_clear_of_the_names(people, lang):
    """SH-3 at 320x568: the bid's controls cover no seat's name, 40 px targets, no sideways scroll;
    with "confirm bids" the question alone shows, then the bid goes."""
    player = people(f"shbid{lang}", lang=lang, viewport=NARROW)
    set_preference(player, "confirm_bids", True)
    page = practice(player, "shelem4")
    wait_until(
        lambda: any(a["type"] in ("bid", "pass") for a in (page.evaluate(VIEW) or {}).get("legal") or []),
        timeout=60,
        message="my turn to bid",
    )
    panel = "[data-testid=bid-panel]"
    page.locator(panel).wait_for()
    check_phone_panel(page, panel, "bid")
    player.shot(f"a11y-shelem-bid-{lang}-320x568")
    before = len(player.sent("act"))
    page.locator("[data-testid=bid-more]").click()
    page.locator("[data-testid=bid-button]").click()
    page.locator("[data-testid=confirm-bid]").wait_for()
    check_phone_panel(page, panel, "confirm")
    player.shot(f"a11y-shelem-bid-confirm-{lang}-320x568")
    assert len(player.sent("act")) == before
    page.locator("[data-testid=confirm-bid-yes]").click()
    wait_until(lambda: len(player.sent("act")) == before + 1, message="the confirmed bid sent")
    assert player.sent("act")[-1]["action"]["type"] == "bid"


@pytest.mark.parametrize("game", ["bridge", "shelem4"])
@pytest.mark.parametrize(
    "viewport", [{"width": 360, "height": 640}, {"width": 375, "height": 667}], ids=["360x640", "375x667"]
)
def test_issue40_short_phones_bid_clear_of_the_names(people, game, viewport):
    """B-2, SH-3 on short phones: even the compact full bidding box (35 calls) covered the top
    seats' and the player's own name at 360x640 and 375x667; there the box comes in two steps
    and Shelem's bid in short rows, clear of every name, with 40 px targets."""
    player = people("short", lang="fa", viewport=viewport)
    page = practice(player, game)
    kinds = ("call",) if game == "bridge" else ("bid", "pass")
    wait_until(
        lambda: any(a["type"] in kinds for a in (page.evaluate(VIEW) or {}).get("legal") or []),
        timeout=60,
        message="my turn to bid",
    )
    panel = f"{BOX}[data-step=level]" if game == "bridge" else "[data-testid=bid-panel]"
    page.locator(panel).wait_for()
    player.settle()
    check_phone_panel(page, panel, f"{game} {viewport}", width=viewport["width"])
    player.shot(f"a11y-{game}-bidding-fa-{viewport['width']}x{viewport['height']}")
