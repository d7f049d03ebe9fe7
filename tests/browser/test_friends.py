"""R-9 in the browser: a friend request by username, then a live invite that
reaches the friend's open friends page over his personal socket (ws/me/),
with the top bar's badge, and the seat taken from it."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, ROOM_URL, digits

pytestmark = pytest.mark.browser


def test_r9_a_live_invite_reaches_the_friends_open_page(people):
    leila = people("leila", lang="fa", viewport=PHONE)
    nima = people("nima", lang="en", viewport=DESKTOP)

    # Add a friend by username; he accepts.
    page = leila.goto("/friends/")
    page.locator("[data-testid=add-friend]").fill(nima.name)
    page.locator("[data-testid=add-friend]").press("Enter")
    page.wait_for_load_state()
    assert page.locator(f'[data-outgoing="{nima.name}"]').count() == 1
    friends = nima.goto("/friends/")
    friends.locator(f'[data-incoming="{leila.name}"] button').first.click()
    friends.wait_for_load_state()
    friends.locator(f'[data-friend="{leila.name}"]').wait_for()
    friends.wait_for_function("() => window.takhtehFriends && window.takhtehFriends.open")

    # Leila opens a waiting room and invites him from her friends page.
    lobby = leila.goto("/rooms/?game=hokm4")
    lobby.locator("[data-testid=create-hokm4] [data-testid=create-room]").click()
    lobby.wait_for_url(ROOM_URL)
    code = ROOM_URL.search(lobby.url).group(1)
    page = leila.goto("/friends/")
    page.locator(f'[data-friend="{nima.name}"] .fr-dot').wait_for()
    assert page.locator(f'[data-friend="{nima.name}"] [data-online=online]').count() == 1
    page.locator(f"[data-testid=invite-{nima.name}]").click()
    page.wait_for_load_state()

    # Without a reload, Nima's page shows the invite, a toast and the badge.
    toast = friends.locator("[data-testid=invite-toast]")
    toast.wait_for()
    assert leila.name in toast.inner_text()
    item = friends.locator("[data-testid=invite-list] li[data-invite]")
    item.wait_for()
    assert leila.name in item.inner_text()
    badge = friends.locator("[data-testid=friends-badge]")
    assert badge.is_visible() and digits(badge.inner_text()) == "1"
    nima.shot("friends-invite-en-desktop")
    leila.shot("friends-sent-fa-phone")
    friends.set_viewport_size(PHONE)
    nima.shot("friends-invite-en-phone")
    page.set_viewport_size(DESKTOP)
    leila.shot("friends-sent-fa-desktop")

    item.get_by_role("button", name="Take the seat").click()
    friends.wait_for_url(f"**/rooms/{code}/")
    friends.locator("[data-testid=wait-panel]").wait_for()
    lobby_seat = friends.locator(f'[data-testid^=seat-]:has-text("{nima.name}")')
    lobby_seat.first.wait_for()
