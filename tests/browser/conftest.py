"""The site for real, in Debian's Chromium (Playwright, sync API).

A session-scoped fixture makes a fresh PostgreSQL database, migrates it and
starts Daphne on a free port with in-process deadlines, short bot and round
pauses; the tests drive real browser contexts against it. The server is
another process: no pytest-django database fixtures here.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
import warnings
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.browser import PASSWORD, chromium_path, launch

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = chromium_path()
# One database per run (several people may run the suite on one machine at once).
# Each xdist worker runs browser modules on a Daphne and a database of its own.
DB_NAME = (os.environ.get("BROWSER_DB_NAME") or f"takhteh_browser_{os.getpid()}") + (
    f"_{os.environ['PYTEST_XDIST_WORKER']}" if os.environ.get("PYTEST_XDIST_WORKER") else ""
)
DEFAULT_DATABASE_URL = "postgres://takhteh:takhteh@127.0.0.1:5432/takhteh"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
# Redis pub/sub (the channel layer) ignores the database number: two runs on one
# Redis would hear each other's room broadcasts unless their prefixes differ.
CHANNEL_PREFIX = os.environ.get("BROWSER_CHANNEL_PREFIX") or f"t-{DB_NAME}"
# The same for the cache (a fixed "browser" prefix let two runs, or two xdist workers'
# runs, read each other's cached copies): the servers and commands of one run share it.
CACHE_PREFIX = os.environ.get("BROWSER_CACHE_PREFIX") or f"c-{DB_NAME}"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
FA_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")


BROWSER_DIR = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    """A browser test that fails is run once more before it counts as failed
    (as Playwright's own runner does on CI): a real Chromium, a real Daphne
    and the bots of the tables share two cores here, and a wait that is long
    enough alone is now and then too short beside a whole suite. A fault
    fails both tries; the summary lists every rerun (``R``). ``BROWSER_RERUNS=0``
    shows a first failure as it is (when a test is being written)."""
    reruns = int(os.environ.get("BROWSER_RERUNS", "1"))
    if not reruns:
        return
    for item in items:
        if BROWSER_DIR in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.flaky(reruns=reruns, reruns_delay=2))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database(url: str, name: str, drop_only: bool = False) -> str:
    """Drop and (unless ``drop_only``) re-create ``name``; returns its URL."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def _wait_healthy(url: str, proc: subprocess.Popen, log: Path, timeout: float = 120.0) -> None:
    # a condition wait: on a loaded 2-core machine (a second pytest worker beside
    # it) Daphne's start can take longer than 40 s, which errors the whole directory
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"daphne exited ({proc.returncode}):\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.25)
    raise RuntimeError(f"daphne never became healthy:\n{log.read_text()[-3000:]}")


def _bind_server_loop(port: int) -> None:
    """Open one table socket (to no room) so the server binds its event loop.

    The in-process deadlines (games/clock.py) arm their timers on the loop a
    socket connection binds; a practice match started over HTTP in a fresh
    process would otherwise wait for the ten-second sweep for its bots.
    """
    request = (
        "GET /ws/table/warmup/ HTTP/1.1\r\n"
        f"Host: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(request.encode())
        conn.recv(1024)
        time.sleep(0.2)


def _catalogues_stale() -> bool:
    """Whether a .po catalogue is newer than its .mo (or has none): `make test`
    has just compiled them all, and a compile costs seconds of CPU."""
    for po in [*ROOT.glob("locale/*/LC_MESSAGES/*.po"), *ROOT.glob("*/locale/*/LC_MESSAGES/*.po")]:
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            return True
    return False


@pytest.fixture(scope="package")
def browser():
    """One Chromium for every test of this directory in a row (the root
    conftest's is per module, for the modules elsewhere that drive a page
    among async tests). Every test here is synchronous, so Playwright's event
    loop in this thread disturbs none of them; it is closed when the
    directory's tests end, before any other directory's asyncio tests run
    (with xdist workers, each time a worker turns from browser modules to
    others: a launch costs about a second). Each test still gets contexts of
    its own (``people``)."""
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            chromium = launch(p.chromium, CHROMIUM)
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The base URL of a real Daphne serving the site against its own database."""
    admin_url = os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL)
    db_url = _database(admin_url, DB_NAME)
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "REDIS_URL": os.environ.get("REDIS_URL", DEFAULT_REDIS_URL),
        "CACHE_PREFIX": CACHE_PREFIX,
        "CHANNEL_PREFIX": CHANNEL_PREFIX,
        "DEADLINES": "inprocess",
        "BOT_DELAY": "0.2",
        "BOT_LEVEL": "easy",
        "ROUND_PAUSE": "1",
        # M-5: a table whose people all went (a finished test's closed browser) closes after
        # this long instead of ten minutes: its bots and its stand-in (L-7) stop playing, so
        # the suite's later tests do not share the two cores with every earlier test's table.
        "LOBBY_ABANDONED_SECONDS": "45",
        # A few people per test: a smaller pool than the site's (16 + 8 for the moves), so three
        # workers' servers beside the benchmarks' stay well within PostgreSQL's 100 connections.
        "DB_POOL_SIZE": "8",
        "MOVE_CONNECTIONS": "4",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONUNBUFFERED": "1",
    }
    python = sys.executable
    compiled = subprocess.run(
        [python, "manage.py", "compiletranslations"] if _catalogues_stale() else ["true"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    if compiled.returncode:
        # A catalogue being edited elsewhere must not stop the browser suite: the
        # pages fall back to the English source text (the .mo files of the last compile stay).
        warnings.warn(f"compiletranslations failed: {compiled.stderr.strip()[-500:]}", stacklevel=1)
    subprocess.run(
        [python, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    port = _free_port()
    log = tmp_path_factory.mktemp("daphne") / "daphne.log"
    daphne = Path(python).with_name("daphne")
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [str(daphne), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            cwd=ROOT,
            env={**env, "DJANGO_SETTINGS_MODULE": "tests.browser.server_settings"},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc, log)
        _bind_server_loop(port)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        try:
            _database(admin_url, DB_NAME, drop_only=True)
        except Exception:  # noqa: BLE001 - a leftover database is dropped next time
            pass


def unique(name: str) -> str:
    """A username (3–20 letters, digits, underscores) unique to this run."""
    return f"{name}_{uuid.uuid4().hex[:5]}"


def digits(text: str) -> str:
    return text.translate(FA_DIGITS)


class Player:
    """One person at a browser: his own context (cookies), one page."""

    def __init__(self, browser, site: str, name: str, lang: str = "fa", viewport=None, reduced_motion=None):
        self.site = site
        self.name = name
        self.lang = lang
        self.context = browser.new_context(
            viewport=viewport or DESKTOP,
            locale="fa-IR" if lang == "fa" else "en-US",
            reduced_motion=reduced_motion,
        )
        self.context.add_cookies([{"name": "lang", "value": lang, "url": site}])
        self.context.set_default_timeout(15000)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def goto(self, path: str):
        self.page.goto(path if path.startswith("http") else f"{self.site}{path}")
        return self.page

    def sign_up(self):
        """Through the real sign-up form: a username and a password, nothing more."""
        page = self.goto("/accounts/signup/")
        form = page.locator("#main form[method=post]")
        form.locator("input[name=username]").fill(self.name)
        form.locator("input[name=password1]").fill(PASSWORD)
        form.locator("input[name=password2]").fill(PASSWORD)
        form.locator("button[type=submit]").click()
        user = page.locator("[data-testid=signed-in-user]")
        try:  # the next page; a busy two-core machine (Chromium, Daphne, earlier tables) takes its time
            user.wait_for(timeout=40000)
        except Exception as exc:
            errors = page.locator(".errorlist, [role=alert]").all_inner_texts()
            raise AssertionError(f"sign-up of {self.name} did not sign in: {page.url} {errors}") from exc
        assert user.inner_text().strip() == self.name
        return self

    def sign_in(self):
        """Made and signed in by the suite's own door (tests/browser/urls.py),
        then at the home page, as the form leaves him: no form to load and post."""
        response = self.context.request.post(
            f"{self.site}/__tests__/sign-in/", form={"username": self.name, "lang": self.lang}
        )
        assert response.ok, f"sign-in of {self.name}: {response.status} {response.text()[:300]}"
        page = self.goto("/")
        assert page.locator("[data-testid=signed-in-user]").inner_text().strip() == self.name
        return self

    def sent(self, kind: str | None = None) -> list[dict]:
        frames = self.page.evaluate("() => (window.takhteh ? window.takhteh.sent.slice() : [])")
        return [f for f in frames if kind is None or f.get("type") == kind]

    def settle(self, timeout_ms: int = 1500) -> None:
        """Wait until the page's short animations and transitions have finished
        (a card sliding in, a panel fading), so a screenshot shows where things
        came to rest; the endless ones and the long ones (a turn's countdown
        ring) are not waited for."""
        self.page.evaluate(
            """(limit) => Promise.race([
                 Promise.all(document.getAnimations()
                   .filter((a) => {
                     const t = a.effect && a.effect.getComputedTiming();
                     return t && t.endTime !== Infinity && t.endTime - (t.localTime || 0) < limit;
                   })
                   .map((a) => a.finished.catch(() => null))),
                 new Promise((done) => setTimeout(done, limit)),
               ])""",
            timeout_ms,
        )

    def shot(self, name: str, settle: bool = True):
        if settle:
            self.settle()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.page.screenshot(path=str(path))
        return path

    def close(self):
        self.context.close()


@pytest.fixture
def people(browser, site):
    """people("alice", lang="en", viewport=PHONE) -> a signed-up Player at the home page (anonymous
    with signed_up=False; through the real sign-up form with via_form=True, else made by the server;
    reduced_motion="reduce" for a browser that asks for less motion)."""
    made: list[Player] = []

    def make(
        name: str,
        lang: str = "fa",
        viewport=None,
        signed_up: bool = True,
        reduced_motion=None,
        via_form: bool = False,
    ) -> Player:
        player = Player(browser, site, unique(name) if signed_up else name, lang, viewport, reduced_motion)
        made.append(player)
        if signed_up:
            player.sign_up() if via_form else player.sign_in()
        return player

    yield make
    for player in made:
        errors = player.errors
        player.close()
        assert not errors, f"{player.name}: JavaScript errors: {errors}"


WHAT_NOW = """() => {
  const q = (s) => document.querySelector(s);
  if (q('[data-testid=match-result]')) return 'result';
  if (q('[data-testid=round-result]')) return 'round';
  if (q('[data-testid=trump-panel] .suit-btn:not([disabled])')) return 'trump';
  if (q('[data-testid=draft-take]:not([disabled])')) return 'draft';
  if (q('[data-testid=hand] button.card.legal')) return 'card';
  return null;
}"""


def what_now(player) -> str | None:
    """What the table asks of this player now, in one look: result, round, trump, draft, card or None."""
    return player.page.evaluate(WHAT_NOW)


def act_on(player, need: str | None, turn: int) -> bool:
    """Do what the table asks (``what_now``): take the shown card of the draft
    two times in three and refuse it the third (H2-4), name the first suit as
    trump, or play the first legal card. True when something was clicked."""
    page = player.page
    try:
        if need == "draft":
            page.locator("[data-testid=draft-take]" if turn % 3 else "[data-testid=draft-refuse]").click(
                timeout=3000, force=True
            )
        elif need == "trump":
            page.locator("[data-testid=trump-panel] .suit-btn").first.click(timeout=3000)
        elif need == "card":
            return click_in_fan(page, "[data-testid=hand] button.card.legal")
        else:
            return False
    except Exception:  # noqa: BLE001 - re-rendered under the pointer; the next look tries again
        return False
    return True


def click_in_fan(page, selector: str) -> bool:
    """Click the first card ``selector`` of the hand where it shows in the fan (its corner:
    a forced click at its middle lands on the card over it). False if it was re-rendered
    under the pointer (the next look tries again)."""
    try:
        page.locator(selector).first.click(position={"x": 10, "y": 30}, timeout=3000, force=True)
    except Exception:  # noqa: BLE001 - re-rendered under the pointer; the next look tries again
        return False
    return True


def play_match(players, timeout: float = 120.0, before=None) -> None:
    """Every player at his table page clicks what it asks until each sees the
    match's result; ``before(player, need)`` is called before each act."""
    turn = 0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        needs = [what_now(p) for p in players]
        if all(need == "result" for need in needs):
            return
        progressed = False
        for player, need in zip(players, needs, strict=True):
            if before is not None:
                before(player, need)
            turn += 1
            progressed = act_on(player, need, turn) or progressed
        if not progressed:
            time.sleep(0.04)
    raise AssertionError("the match did not end")


ROOM_URL = re.compile(r"/rooms/([a-z0-9]+)/$")


def wait_until(predicate, timeout: float = 20.0, interval: float = 0.05, message: str = "condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {message}")
