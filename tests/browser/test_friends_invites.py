"""R-9 in the browser (issue 34): the friends badge counts each pending
invite once, also after a page load; an invite shows how long it is still
valid and goes by itself when it expires; when its room fills up its "Take
the seat" goes at once, and comes back if a seat is freed; a second invite
to the same friend is refused with a word saying so."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, digits
from .onsite import on_site

pytestmark = pytest.mark.browser

SETUP = r"""
import json, sys
from django.contrib.auth import get_user_model
from friends import services as friends
from rooms import services as rooms

host, guest, other = sys.argv[1:]
User = get_user_model()
h, g, o = (User.objects.get(username=n) for n in (host, guest, other))
for a in (h, o):
    friends.send_request(a, g.username)
    friends.accept_request(g, a.username)
room = rooms.create_room(h, "hokm4", {})
invite = friends.invite(h, g.username)
print(json.dumps({"code": room.code, "invite": invite.pk}))
"""

FILL = r"""
import json, sys
from django.contrib.auth import get_user_model
from rooms import services as rooms
from rooms.models import Room

code, action = sys.argv[1:]
room = Room.objects.get(code=code)
User = get_user_model()
names = [f"{code}_f{n}" for n in (2, 3, 4)]
people = [User.objects.filter(username=n).first() or User.objects.create_user(n, password="x-" + n) for n in names]
if action == "fill":
    for number, person in zip((2, 3, 4), people):
        rooms.sit(room, person, number, move=True)
else:
    rooms.leave(room, people[-1])
print(json.dumps({"ok": True}))
"""

# A second room of `other`'s with an invite to `guest` that was sent 9 min 52 s ago.
NEARLY_EXPIRED = r"""
import datetime as dt, json, sys
from django.contrib.auth import get_user_model
from django.utils import timezone
from friends import services as friends
from friends.models import Invite
from rooms import services as rooms

other, guest = sys.argv[1:]
User = get_user_model()
o = User.objects.get(username=other)
rooms.create_room(o, "hokm2", {})
invite = friends.invite(o, guest)
Invite.objects.filter(pk=invite.pk).update(created_at=timezone.now() - dt.timedelta(minutes=9, seconds=52))
print(json.dumps({"invite": invite.pk}))
"""


def badge_count(page) -> str:
    badge = page.locator("[data-testid=friends-badge]")
    return "0" if badge.is_hidden() else digits(badge.inner_text())


def wait_socket(page):
    page.wait_for_function("() => window.takhtehFriends && window.takhtehFriends.open")


def test_r9_one_invite_counts_once_after_a_reload_counts_down_and_loses_its_button_when_the_room_fills(
    people,
):
    leila = people("leila", lang="fa", viewport=PHONE)
    nima = people("nima", lang="en", viewport=DESKTOP)
    sara = people("sara", lang="en", viewport=DESKTOP)
    made = on_site(SETUP, leila.name, nima.name, sara.name)
    code, invite = made["code"], made["invite"]

    # Any page, loaded and loaded again: one invite, "1" (it read "2" after a load).
    lobby = nima.goto("/rooms/")
    wait_socket(lobby)
    lobby.wait_for_function("() => !document.querySelector('[data-testid=friends-badge]').hidden")
    assert badge_count(lobby) == "1"
    lobby.reload()
    wait_socket(lobby)
    lobby.wait_for_function("() => !document.querySelector('[data-testid=friends-badge]').hidden")
    assert badge_count(lobby) == "1"

    # The friends page: the invite with its time left, counting down by itself.
    page = nima.goto("/friends/")
    wait_socket(page)
    item = page.locator(f'[data-testid=invite-list] li[data-invite="{invite}"]')
    countdown = item.locator("[data-testid=invite-countdown]")
    first = countdown.inner_text()
    assert first.startswith("valid for 9:") or first.startswith("valid for 10:"), first
    page.wait_for_function(
        "([sel, was]) => document.querySelector(sel).textContent !== was",
        arg=[f'li[data-invite="{invite}"] [data-testid=invite-countdown]', first],
    )
    take = item.locator("[data-testid=take-seat]")
    assert take.is_visible()
    page.wait_for_function("() => !document.querySelector('[data-testid=friends-badge]').hidden")
    assert badge_count(page) == "1"
    nima.shot("friends-invite-countdown-en-desktop")
    page.set_viewport_size(PHONE)
    nima.shot("friends-invite-countdown-en-phone")
    page.set_viewport_size(DESKTOP)

    # Her page: he is marked as invited, and inviting him again says so.
    hers = leila.goto("/friends/")
    assert hers.locator(f"[data-testid=invited-{nima.name}]").is_visible()
    hers.locator(f"[data-testid=invite-{nima.name}]").click()
    hers.wait_for_load_state()
    assert "دعوت شده" in hers.locator(".messages").inner_text()
    leila.shot("friends-already-invited-fa-phone")

    # The room fills: live, the button goes, a word says why, the badge goes down.
    on_site(FILL, code, "fill")
    take.wait_for(state="detached")
    closed = item.locator("[data-testid=invite-closed]")
    closed.wait_for()
    assert "full" in closed.inner_text()
    page.wait_for_function("() => document.querySelector('[data-testid=friends-badge]').hidden")
    nima.shot("friends-invite-room-full-en-desktop")
    # Loaded again: still no button.
    page.reload()
    wait_socket(page)
    assert item.locator("[data-testid=invite-closed]").is_visible()
    assert item.locator("[data-testid=take-seat]").count() == 0
    assert item.get_by_role("button", name="Take the seat").count() == 0
    # A seat is freed: the button is back.
    on_site(FILL, code, "free")
    item.locator("[data-testid=take-seat]").wait_for()
    assert item.locator("[data-testid=invite-closed]").count() == 0

    # An invite with eight seconds left: it goes by itself, and the badge with it.
    late = on_site(NEARLY_EXPIRED, sara.name, nima.name)["invite"]
    page.reload()
    wait_socket(page)
    old = page.locator(f'li[data-invite="{late}"]')
    assert digits(old.locator("[data-testid=invite-countdown]").inner_text()).startswith("valid for 0:0")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=friends-badge]').textContent.trim() !== ''"
    )
    assert badge_count(page) == "2"
    old.wait_for(state="detached", timeout=20000)
    assert badge_count(page) == "1"
    assert page.locator(f'li[data-invite="{invite}"]').is_visible()


def test_r9_the_invite_countdown_in_persian(people):
    nima = people("nima", lang="fa", viewport=PHONE)
    leila = people("leila", lang="en", viewport=DESKTOP)
    sara = people("sara", lang="en", viewport=DESKTOP)
    made = on_site(SETUP, leila.name, nima.name, sara.name)
    page = nima.goto("/friends/")
    wait_socket(page)
    countdown = page.locator(f'li[data-invite="{made["invite"]}"] [data-testid=invite-countdown]')
    text = countdown.inner_text()
    assert "معتبر" in text and any(d in text for d in "۰۱۲۳۴۵۶۷۸۹"), text
    nima.shot("friends-invite-countdown-fa-phone")
    page.set_viewport_size(DESKTOP)
    nima.shot("friends-invite-countdown-fa-desktop")
