"""R-9 in the browser: a friend request by username, then a live invite that
reaches the friend's open pages over his personal socket (ws/me/): the
friends page's list, and on any other page the toast and the top bar's
badge; the seat taken from it. Then he hides his online status: his friend's
open page says so at once and no longer says he is online, while at their
table she still sees his connection badge."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, ROOM_URL, digits
from .onsite import on_site

pytestmark = pytest.mark.browser

SETUP = r"""
import json, sys
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from rooms import services as rooms

moderator, first, second = sys.argv[1:]
User = get_user_model()
mod = User.objects.get(username=moderator)
mod.is_staff = True  # staff to open the admin, a member of Moderators: not a superuser
mod.save(update_fields=["is_staff"])
mod.groups.add(Group.objects.get(name="Moderators"))
a, b = User.objects.get(username=first), User.objects.get(username=second)
room = rooms.create_room(a, "hokm2", {})
rooms.sit(room, b, 2, move=True)
rooms.set_ready(room, b, True)
match = rooms.start(room, a)
print(json.dumps({"code": room.code, "match": match.pk}))
"""


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
    # A second tab of his on another page (the lobby): the invite reaches it too.
    other_tab = nima.context.new_page()
    other_tab.goto(f"{nima.site}/rooms/")
    other_tab.wait_for_function("() => window.takhtehFriends && window.takhtehFriends.open")
    assert other_tab.locator("[data-testid=friends-badge]").is_hidden()

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
    other_toast = other_tab.locator("[data-testid=invite-toast]")
    other_toast.wait_for()
    assert leila.name in other_toast.inner_text()
    other_badge = other_tab.locator("[data-testid=friends-badge]")
    assert other_badge.is_visible() and digits(other_badge.inner_text()) == "1"
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

    # Her friends page is open while he hides his online status (the preference defaults to shown).
    page = leila.goto("/friends/")
    page.wait_for_function("() => window.takhtehFriends && window.takhtehFriends.open")
    assert page.locator(f'[data-friend="{nima.name}"] .fr-dot').get_attribute("data-online") == "online"
    prefs = other_tab
    prefs.goto(f"{nima.site}/me/preferences/")
    box = prefs.locator("input[name=show_online]")
    assert box.is_checked()
    box.uncheck()
    prefs.locator("#main form[method=post] button[type=submit]").click()
    prefs.wait_for_load_state()
    assert not prefs.locator("input[name=show_online]").is_checked()

    # Her open page hears of it at once: neither online nor offline, hidden, in words too.
    page.locator(f'[data-friend="{nima.name}"] .fr-dot[data-online=hidden]').wait_for()
    assert page.locator(f'[data-friend="{nima.name}"] .fr-state').is_visible()
    # Loaded again, the same, though he has two tabs open.
    page = leila.goto("/friends/")
    dot = page.locator(f'[data-friend="{nima.name}"] .fr-dot')
    dot.wait_for()
    assert dot.get_attribute("data-online") == "hidden"
    # He sits at her table already: no invite for him, a word instead.
    assert page.locator(f"[data-testid=at-table-{nima.name}]").is_visible()
    assert page.locator(f"[data-testid=invite-{nima.name}]").count() == 0
    leila.shot("friends-hidden-fa-desktop")
    # At their table she still sees his connection badge.
    room = leila.goto(f"/rooms/{code}/")
    room.locator(f'[data-testid^=seat-]:has-text("{nima.name}") .presence-connected').first.wait_for()


def test_r9_a_moderator_deactivates_a_reported_player_who_is_thrown_out_of_his_live_table(people):
    """The report from the friends page with the match chosen; a Moderators
    member (staff, not superuser) deactivates him for good in the admin; his
    open table page is told at once and does not reconnect, hers plays on."""
    mona = people("mona", lang="en", viewport=DESKTOP)
    leila = people("leila", lang="fa", viewport=DESKTOP)
    nima = people("nima", lang="en", viewport=DESKTOP)
    made = on_site(SETUP, mona.name, leila.name, nima.name)
    code, match = made["code"], made["match"]

    # Leila reports him, the match already chosen (as the table's result panel links it).
    page = leila.goto(f"/friends/?report={nima.name}&match={match}")
    assert page.locator("#rp-match").input_value() == str(match)
    page.locator("#rp-reason").select_option("abuse")
    page.locator("#rp-details").fill("insults in every trick")
    page.locator(".fr-report button[type=submit]").click()
    page.wait_for_load_state()
    table = leila.goto(f"/rooms/{code}/")
    table.locator("[data-testid=hand]").wait_for()
    his = nima.goto(f"/rooms/{code}/")
    his.locator("[data-testid=hand]").wait_for()
    his.wait_for_function("() => window.takhtehFriends && window.takhtehFriends.open")

    # The moderator's queue, the report with his matches, the action.
    admin = mona.goto("/admin/friends/report/")
    admin.locator("#result_list tbody tr", has_text=nima.name).locator("th a, td a").first.click()
    admin.wait_for_load_state()
    assert f"/admin/games/match/{match}/change/" in admin.content()
    admin.locator("a.button", has_text="Warn, mute, deactivate or void").click()
    admin.wait_for_load_state()
    admin.locator("select[name=action]").select_option("deactivate")
    admin.locator("select[name=duration]").select_option("")
    admin.locator("textarea[name=reason]").fill("abuse at the table, for good")
    mona.shot("friends-moderate-en-desktop")
    admin.locator("input[type=submit]").click()
    admin.wait_for_load_state()
    assert admin.locator(".messagelist .success").count() == 1

    # At once: his table says he is signed out and stays so; his personal socket is closed too.
    his.locator("[data-testid=signed-out]").wait_for(timeout=5000)
    his.wait_for_function("() => window.takhtehFriends && !window.takhtehFriends.open")
    nima.shot("friends-deactivated-table-en-desktop")
    his.wait_for_timeout(1500)
    assert his.locator("[data-testid=signed-out]").is_visible()  # no reconnect as a visitor
    assert table.locator("[data-testid=signed-out]").count() == 0
    # The record: who, when, why.
    actions = mona.goto("/admin/friends/moderatoraction/")
    row = actions.locator("#result_list tbody tr").first
    assert mona.name in row.inner_text() and "for good" in row.inner_text() and nima.name in row.inner_text()
