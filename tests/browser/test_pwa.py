"""Issue 40 in Chromium: the manifest and the service worker register; the
offline page shows when there is no network; "your turn" appears as a system
notification while the table's tab is hidden (notifications granted, turned
on in the preferences), with the title's marker; a push message reaches the
service worker's ``push`` handler (delivered through the DevTools protocol:
headless Chromium has no push service of its own) and becomes a notification
when no page of the site is open."""

from __future__ import annotations

import json

import pytest

from notify import vapid

from . import FULL_CHROMIUM, launch
from .conftest import CHROMIUM, ROOM_URL, ROOT, wait_until

pytestmark = pytest.mark.browser

# The page's visibility, under the test's control: headless Chromium keeps every tab "visible".
HIDDEN_SWITCH = """
(() => {
  let hidden = false;
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (hidden ? "hidden" : "visible") });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  window.__setHidden = (value) => {
    hidden = value;
    document.dispatchEvent(new Event("visibilitychange"));
  };
})();
"""

WORKER_READY = """async () => {
  const reg = await navigator.serviceWorker.ready;
  return { scope: reg.scope, active: Boolean(reg.active), controlled: Boolean(navigator.serviceWorker.controller) };
}"""

NOTIFICATIONS = """async () => {
  const reg = await navigator.serviceWorker.ready;
  return (await reg.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
}"""


@pytest.fixture(scope="module")
def browser(browser):
    """The full browser for this module: the headless shell the other modules
    use (tests/browser/__init__.py) shows no notification and takes no push."""
    if CHROMIUM == FULL_CHROMIUM:
        yield browser
        return
    full = launch(browser.browser_type, FULL_CHROMIUM)
    yield full
    full.close()


@pytest.fixture(scope="module", autouse=True)
def site_keys():
    """The site's VAPID keys (the embedded default's file, read by the running site on each use)."""
    vapid.write_local(ROOT / "db")


def allow_notifications(player, site):
    player.context.grant_permissions(["notifications"], origin=site)
    player.page.add_init_script(HIDDEN_SWITCH)


def turn_on(player):
    page = player.goto("/me/preferences/")
    box = page.locator("[data-testid=notify-settings]")
    toggle = page.locator("[data-testid=notify-toggle]")
    wait_until(lambda: toggle.is_enabled(), message="the switch")
    toggle.check()
    wait_until(lambda: box.get_attribute("data-ready") == "1", message="notifications turned on")
    return page


def test_the_manifest_and_worker_register_and_the_offline_page_shows(people, site):
    lena = people("lena", lang="en", signed_up=False)
    page = lena.goto("/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    manifest = page.evaluate("(url) => fetch(url).then((r) => r.json())", href)
    assert manifest["display"] == "standalone" and manifest["lang"] == "en"
    state = page.evaluate(WORKER_READY)
    assert state["scope"] == f"{site}/" and state["active"]
    wait_until(
        lambda: page.evaluate("() => Boolean(navigator.serviceWorker.controller)"), message="controlled"
    )
    cached = page.evaluate(
        "async () => { const names = await caches.keys(); const c = await caches.open(names[0]);"
        " return { names, urls: (await c.keys()).map((r) => new URL(r.url).pathname) }; }"
    )
    assert len(cached["names"]) == 1 and cached["names"][0].startswith("takhteh-static-")
    assert "/offline/" in cached["urls"] and "/static/css/site.css" in cached["urls"]
    assert all(u.startswith("/static/") or u == "/offline/" for u in cached["urls"])
    # Chromium's own installability check (what its install prompt needs): no error but
    # "in-incognito" (every Playwright context is an incognito one).
    cdp = lena.context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []
    parsed = cdp.send("Page.getAppManifest")
    assert parsed["url"].endswith("/manifest.webmanifest") and parsed["errors"] == []
    lena.shot("pwa-installable-en-desktop")

    lena.context.set_offline(True)
    page.goto(f"{site}/leaderboard/")
    page.locator("[data-testid=offline-en]").wait_for()
    assert page.locator("[data-testid=offline-fa]").is_visible()
    lena.shot("pwa-offline-en-desktop")
    lena.context.set_offline(False)
    page.goto(f"{site}/leaderboard/")
    assert page.locator("[data-testid=offline-en]").count() == 0


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_your_turn_notification_while_the_table_is_hidden(people, site, lang):
    player = people("nika", lang=lang)
    allow_notifications(player, site)
    page = turn_on(player)
    state = page.locator("[data-testid=notify-state]").inner_text()
    assert state  # on (with or without push: headless Chromium may offer none)
    assert page.evaluate("() => localStorage.getItem('takhteh.notify')") == "on"

    page = player.goto("/")
    page.evaluate(WORKER_READY)
    page.locator("[data-testid=practice-hokm4]").click()
    page.wait_for_url(ROOM_URL)
    page.evaluate("() => window.__setHidden(true)")
    wait_until(lambda: page.title().startswith("● "), timeout=30, message="the turn's title marker")
    wait_until(
        lambda: any(n["data"]["kind"] == "turn" for n in page.evaluate(NOTIFICATIONS)),
        message="a 'your turn' notification",
    )
    (note,) = [n for n in page.evaluate(NOTIFICATIONS) if n["data"]["kind"] == "turn"]
    assert note["title"] == ("نوبت توست" if lang == "fa" else "Your turn")
    assert note["data"]["url"].startswith("/rooms/")


def test_a_push_reaches_the_service_worker(people, site):
    player = people("pari", lang="fa")
    allow_notifications(player, site)
    page = turn_on(player)
    page.evaluate(
        "() => { window.__pushes = []; navigator.serviceWorker.addEventListener('message',"
        " (e) => window.__pushes.push(e.data)); }"
    )
    cdp = player.context.new_cdp_session(page)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    wait_until(
        # (page.evaluate lets Playwright hand over the protocol's events meanwhile)
        lambda: page.evaluate("() => 0") == 0 and any(r["scopeURL"] == f"{site}/" for r in registrations),
        timeout=10,
        message="the registration",
    )
    reg_id = next(r["registrationId"] for r in registrations if r["scopeURL"] == f"{site}/")
    payload = {
        "kind": "invite",
        "title": "دعوت برای شما",
        "body": "سارا",
        "url": "/friends/",
        "tag": "invite-1",
    }

    # A page of the site is open and visible: it hears of the push, no system notification.
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": site, "registrationId": reg_id, "data": json.dumps(payload)},
    )
    wait_until(lambda: page.evaluate("() => window.__pushes.length") == 1, message="the push at the page")
    assert page.evaluate("() => window.__pushes[0]") == {"type": "push", "data": payload}

    # No page of the site open (a closed tab): the worker shows it.
    page.goto("about:blank")
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": site, "registrationId": reg_id, "data": json.dumps(payload)},
    )
    page.goto(f"{site}/friends/")

    def shown():
        return [n for n in page.evaluate(NOTIFICATIONS) if n["tag"] == "invite-1"]

    wait_until(lambda: shown(), message="the push's notification")
    assert shown()[0]["title"] == "دعوت برای شما" and shown()[0]["data"]["url"] == "/friends/"


@pytest.mark.parametrize("lang", ["fa", "en"])
@pytest.mark.parametrize("size", [(320, 568), (390, 844)])
def test_screenshots_of_the_notification_settings_and_the_offline_page(people, site, lang, size):
    viewport = {"width": size[0], "height": size[1]}
    player = people("shot", lang=lang, viewport=viewport)
    allow_notifications(player, site)
    page = turn_on(player)
    page.locator("[data-testid=notify-settings]").scroll_into_view_if_needed()
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    player.shot(f"pwa-notify-settings-{lang}-{size[0]}x{size[1]}", settle=False)
    page.evaluate(WORKER_READY)
    wait_until(
        lambda: page.evaluate("() => Boolean(navigator.serviceWorker.controller)"), message="controlled"
    )
    player.context.set_offline(True)
    page.goto(f"{site}/")
    page.locator(f"[data-testid=offline-{lang}]").wait_for()
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    player.shot(f"pwa-offline-{lang}-{size[0]}x{size[1]}", settle=False)
    player.context.set_offline(False)


BEFRIEND_AND_INVITE = r"""
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
rooms.create_room(h, "hokm4", {})
invite = friends.invite(h, g.username)
print(json.dumps({"invite": invite.pk}))
"""


def test_an_invite_and_a_friend_online_notify_the_hidden_page(people, site):
    from .onsite import on_site

    leila = people("leila", lang="en")
    sara = people("sara", lang="en")
    nima = people("nima", lang="en")
    allow_notifications(nima, site)
    turn_on(nima)
    page = nima.goto("/rooms/")
    page.wait_for_function("() => window.takhtehFriends && window.takhtehFriends.open")
    page.evaluate("() => window.__setHidden(true)")
    made = on_site(BEFRIEND_AND_INVITE, leila.name, nima.name, sara.name)

    def kinds():
        return {n["data"]["kind"]: n for n in page.evaluate(NOTIFICATIONS)}

    wait_until(lambda: "invite" in kinds(), timeout=60, message="the invite's notification")
    note = kinds()["invite"]
    assert note["title"] == "Your invite" and leila.name in note["body"]
    assert note["tag"] == f"invite-{made['invite']}"

    sara.goto("/")  # her page's socket: she comes online, and shows it
    wait_until(lambda: "friend_online" in kinds(), timeout=60, message="the friend-online notification")
    assert kinds()["friend_online"]["body"] == f"{sara.name} is online."
    # A visible page says nothing to the system (its own toast and badge do).
    page.evaluate("() => window.__setHidden(false)")
    before = page.evaluate("() => window.takhtehNotify.shown.length")
    page.evaluate(
        """(name) => document.dispatchEvent(new CustomEvent("takhteh:friends",
             { detail: { type: "presence", user: name, online: true } }))""",
        leila.name,
    )
    assert page.evaluate("() => window.takhtehNotify.shown.length") == before
