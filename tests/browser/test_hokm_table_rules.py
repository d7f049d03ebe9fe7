"""Hokm's table rules in real browsers: the partner's face-up middle card on
the felt and its pick-up (H4-X1), a card laid early, face down in front of
its player for the others, face up and marked for himself, taken back,
played by itself when his turn comes, then the three-trick wait (H4-X2)."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, ROOM_URL, click_in_fan, wait_until
from .test_hokm_table import sit_and_ready

pytestmark = pytest.mark.browser

VIEW = "() => { const f = window.takhteh.app.liveFrame; return f ? f.view : null; }"


def create_room(creator, **rules) -> str:
    page = creator.goto("/rooms/?game=hokm4")
    page.locator("[data-testid=pick-hokm4]").check(force=True)
    form = page.locator("[data-testid=create-hokm4]")
    form.locator("[name=rule_target]").select_option(index=0)
    for name, on in rules.items():
        box = form.locator(f"[name=rule_{name}]")
        if box.is_checked() != on:
            box.click()
    form.locator("[data-testid=create-room]").click()
    page.wait_for_url(ROOM_URL)
    return page.url


def view(player):
    return player.page.evaluate(VIEW)


def start_table(people):
    alice = people("alice", lang="fa", viewport=DESKTOP)
    bob = people("bob", lang="en", viewport=DESKTOP)
    carol = people("carol", lang="fa", viewport=PHONE)
    dave = people("dave", lang="en", viewport=PHONE)
    players = [alice, bob, carol, dave]
    url = create_room(alice, middle_card=True, early_play=True)
    page = alice.page
    page.locator("[data-testid=wait-panel]").wait_for()
    link = page.locator("[data-testid=room-link]").input_value()
    for seat, player in zip((2, 3, 4), (bob, carol, dave), strict=True):
        sit_and_ready(player, link, seat)
    start = page.locator("[data-testid=start]")
    wait_until(lambda: not start.is_disabled(), message="the start button")
    start.click()
    wait_until(
        lambda: all((view(p) or {}).get("phase") == "trump" for p in players), message="the trump step"
    )
    return players, url


def seat_page(players, seat):
    return players[seat - 1]  # alice sits at 1, bob 2, carol 3, dave 4 (no H4-X6 here)


def play_card(player, selector: str, message: str) -> None:
    """Click the card ``selector`` where it shows in the fan (``click_in_fan``: a forced
    click at its middle lands on the card over it, which may not be legal, and nothing is
    sent), until the page has sent it."""
    before = len(player.sent("act"))

    def sent() -> bool:
        if len(player.sent("act")) > before:
            return True
        return click_in_fan(player.page, selector) and len(player.sent("act")) > before

    wait_until(sent, message=message)


def test_h4_x1_the_middle_card_lies_face_up_for_all_until_the_partner_picks_it_up_and_h4_x2_an_early_card_is_face_down(
    people,
):
    players, _url = start_table(people)
    hakem = view(players[0])["hakem"]
    mate = (hakem + 1) % 4 + 1  # C-2: the seat opposite
    kinds = {1: "desktop", 2: "desktop", 3: "phone", 4: "phone"}

    # H4-X1: the hakem says "partner's middle card"; it lies face up on the felt for everyone.
    seat_page(players, hakem).page.locator("[data-testid=trump-middle]").click()
    for p in players:
        p.page.locator("[data-testid=middle-card] .card.face").wait_for()
    middle = view(players[0])["middle"]
    assert middle and all(view(p)["trump"] == middle[1] for p in players)
    for n, p in enumerate(players, start=1):
        card = p.page.locator("[data-testid=middle-card] .card").first.get_attribute("data-card")
        assert card == middle
        # Only the partner has the button; the others just see the card.
        assert p.page.locator("[data-testid=pick-up]").count() == (1 if n == mate else 0)
        p.shot(f"hokm-x1-middle-{'partner' if n == mate else 'seat'}-{p.lang}-{kinds[n]}")

    # He picks it up (off his turn: the hakem leads first); it leaves the felt for everyone.
    partner = seat_page(players, mate)
    partner.page.locator("[data-testid=pick-up]").click()
    for p in players:
        wait_until(
            lambda p=p: p.page.locator("[data-testid=middle-card]").count() == 0, message="middle gone"
        )
        assert view(p)["middle"] is None
    assert middle in view(partner)["hand"]
    partner.page.locator(f"[data-testid=hand] .card[data-card='{middle}']").wait_for()
    partner.shot(f"hokm-x1-picked-up-{partner.lang}-{kinds[mate]}")

    # H4-X2: the hakem leads; the player after next lays his card early, face down.
    leader = seat_page(players, hakem)
    play_card(leader, "[data-testid=hand] button.card.legal", "the lead sent")
    wait_until(lambda: len(view(players[0])["trick"]) == 1, message="the lead")
    early_seat = mate  # plays third in this trick
    early = seat_page(players, early_seat)
    wait_until(
        lambda: early.page.locator("[data-testid=early-mode]").count() == 1, message="the early button"
    )
    early.page.locator("[data-testid=early-mode]").click()
    early.page.locator("[data-testid=hand] button.card.legal.early").first.wait_for()
    chosen = early.page.locator("[data-testid=hand] button.card.legal.early").first.get_attribute("data-card")
    play_card(
        early, f"[data-testid=hand] button.card.legal.early[data-card='{chosen}']", "the early card sent"
    )
    mark = f"[data-testid=early-{early_seat}]"
    for n, p in enumerate(players, start=1):
        p.page.locator(mark).wait_for()
        if n == early_seat:
            # He sees his own card, face up and marked, and may take it back.
            assert p.page.locator(f"{mark} .card.face").get_attribute("data-card") == chosen
            p.page.locator("[data-testid=take-back-card]").wait_for()  # his card is the take-back button
        else:
            # The others see only its back: the card is in none of their views.
            assert p.page.locator(f"{mark} .card.back").count() == 1
            assert p.page.locator(f"{mark} .card.face").count() == 0
            assert chosen not in p.page.evaluate("() => JSON.stringify(window.takhteh.app.liveFrame)")
    for n, p in enumerate(players, start=1):
        p.shot(f"hokm-x2-early-{'own' if n == early_seat else 'seen'}-{p.lang}-{kinds[n]}")

    # Taken back: the card is in his hand again and nothing lies in front of him.
    early.page.locator("[data-testid=take-back-card]").click()
    for p in players:
        wait_until(lambda p=p: p.page.locator(mark).count() == 0, message="taken back")
    early.page.locator(f"[data-testid=hand] .card[data-card='{chosen}']").wait_for()

    # Laid again; the next player plays and the early card turns over on the table by itself.
    early.page.locator("[data-testid=early-mode]").click()
    play_card(early, f"[data-testid=hand] button.card.legal.early[data-card='{chosen}']", "laid again")
    players[0].page.locator(mark).wait_for()
    second = seat_page(players, hakem % 4 + 1)
    play_card(second, "[data-testid=hand] button.card.legal", "the second card sent")
    for p in players:
        p.page.locator(f"[data-trick] .tc[data-card='{chosen}']").wait_for()
        assert p.page.locator(mark).count() == 0
    # The three-trick wait is shown to him.
    wait_until(lambda: early.page.locator("[data-testid=early-wait]").count() == 1, message="the wait")
    assert early.page.locator("[data-testid=early-mode]").count() == 0
    early.shot(f"hokm-x2-wait-{early.lang}-{kinds[early_seat]}")

    # H4-X3, how a run's cards still to lead look to everyone (the view's "run", rendered
    # from this page's own last frame with a run added: the deal here is not ours to choose).
    show_run = """(run) => { const a = window.takhteh.app; const f = JSON.parse(JSON.stringify(a.frame));
        f.full = true; f.events = []; f.view.run = run; a.onFrame(f); }"""
    for n in (1, 4):
        p = seat_page(players, n)
        p.page.evaluate(show_run, {"seat": hakem, "cards": ["KH", "QH"]})
        strip = p.page.locator("[data-testid=run-left]")
        strip.wait_for()
        assert [c.get_attribute("data-card") for c in strip.locator(".card").all()] == ["KH", "QH"]
        p.shot(f"hokm-x3-run-left-{p.lang}-{kinds[n]}")

    # H4-X3, choosing a run: the leader's panel offers each legal run and sends the one he picks
    # (a frame of this page with a run added to its legal actions; this room has no runs, so the
    # server refuses it with a clear error and nothing changes).
    offer_run = """(run) => { const a = window.takhteh.app; const f = JSON.parse(JSON.stringify(a.frame));
        f.full = true; f.events = []; f.view.run = null; f.view.legal = [...f.view.legal, run]; a.onFrame(f); }"""
    p = seat_page(players, 2)
    before = len(p.sent("act"))
    p.page.evaluate(offer_run, {"type": "run", "cards": ["AS", "KS", "QS"]})
    button = p.page.locator("[data-testid=run-0]")
    button.wait_for()
    p.shot(f"hokm-x3-run-offer-{p.lang}-{kinds[2]}")
    button.click()
    wait_until(lambda: len(p.sent("act")) > before, message="the run sent")
    assert p.sent("act")[-1]["action"] == {"type": "run", "cards": ["AS", "KS", "QS"]}
    p.page.locator(".toast-error").first.wait_for()  # refused, nothing changed
