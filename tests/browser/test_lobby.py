"""The lobby (open tables, create with the game's rules, join by link), the
rules page with its way back to the table (R-8), and the generic table for
the other games (Shelem for two's columns, the bridge bidding box)."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, ROOM_URL, digits

pytestmark = pytest.mark.browser


def test_lobby_lists_rooms_and_joins_by_link(people):
    nima = people("nima", lang="en", viewport=DESKTOP)
    page = nima.goto("/rooms/?game=shelem4")
    form = page.locator("[data-testid=create-shelem4]")
    assert form.is_visible()
    form.locator("[name=rule_jokers]").check()
    form.locator("[data-testid=create-room]").click()
    page.wait_for_url(ROOM_URL)
    code = ROOM_URL.search(page.url).group(1)
    page.locator("[data-testid=wait-panel]").wait_for()
    assert page.locator("[data-rule=jokers]").count() == 1

    # the creator may give an empty seat to a bot, and take it back.
    page.locator("[data-testid=bot-seat-4]").click()
    page.locator("[data-testid=seat-4] .avatar-bot").wait_for()
    page.locator("[data-testid=unbot-seat-4]").click()
    page.locator("[data-testid=seat-4] .avatar-empty").wait_for()

    # the rules open in place over this very table (the link still names the way
    # back, for a page opened on its own), and close back to it.
    rules = page.locator("[data-testid=rules-link]")
    assert f"back=/rooms/{code}/" in rules.get_attribute("href")
    rules.click()
    page.locator("[data-testid=rules-panel]").wait_for()
    page.locator("[data-testid=rules-back]").click()
    page.locator("[data-testid=rules-panel]").wait_for(state="hidden")
    page.wait_for_url(ROOM_URL)
    page.locator("[data-testid=wait-panel]").wait_for()

    leila = people("leila", lang="fa", viewport=PHONE)
    lobby = leila.goto("/rooms/")
    card = lobby.locator(f'[data-room="{code}"]')
    assert "3" in digits(card.inner_text())  # three free seats
    nima.goto("/rooms/").locator(f'[data-room="{code}"]').wait_for()
    nima.shot("lobby-en-desktop")
    leila.shot("lobby-fa-phone")
    lobby.locator("[data-testid=join-link]").fill(f"{leila.site}/rooms/{code}/")
    lobby.locator("[data-testid=join-link]").press("Enter")
    lobby.wait_for_url(f"**/rooms/{code}/")
    lobby.locator("[data-testid=take-seat-2]").wait_for()


def test_other_games_use_the_same_table(people):
    reza = people("reza", lang="en", viewport=PHONE)
    page = reza.goto("/")
    page.locator("[data-testid=practice-bridge]").click()
    page.wait_for_url(ROOM_URL)
    # Bridge: N/E/S/W by the seats, the auction and (on my turn) the bidding box.
    page.locator(".tag-compass").first.wait_for(timeout=20000)
    assert page.locator(".tag-compass").count() == 4
    box = page.locator("[data-testid=call-panel]")
    box.wait_for(timeout=20000)
    reza.shot("bridge-bidding-en-phone")
    box.locator("[data-call=P]").click()

    page = reza.goto("/")
    page.locator("[data-testid=practice-shelem2]").click()
    page.wait_for_url(ROOM_URL)
    page.locator("[data-testid=my-columns]").wait_for(timeout=20000)
    page.locator("[data-testid=their-columns]").wait_for()
    assert page.locator("[data-testid=my-columns] .column").count() == 3
    reza.shot("shelem2-columns-en-phone")
