"""Review hands (R-10) in the browser: a finished hokm2 match between two
people, replayed with the slider, the step buttons, the keyboard arrows (RTL:
forward points left in Persian) and autoplay at two speeds; a bridge deal with
its auction, contract, four hands and double-dummy table, its seats in their
physical places in both languages; screenshots in Persian and English, phone
(390 px) and desktop."""

from __future__ import annotations

import json
import os
import re
from urllib.parse import urlsplit, urlunsplit

import pytest

from . import forked
from .conftest import (
    CACHE_PREFIX,
    DB_NAME,
    DEFAULT_DATABASE_URL,
    DEFAULT_REDIS_URL,
    DESKTOP,
    SCREENSHOTS,
    digits,
    wait_until,
)

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}  # the brief's phone width
SMALL_PHONE = {"width": 360, "height": 740}

# Runs in a separate Django process against the live site's database: two
# seated players, the match played to its end through the play service.
RECORD = """
import json, sys
from django.contrib.auth import get_user_model
from games import engine, services
from games.engine import CHANCE
from games.errors import PlayError
from games.models import Match
from rooms import services as rooms
name, rules, opts, first, *others = sys.argv[1:]
opts = json.loads(opts)
from games.models import Round
User = get_user_model()
a = User.objects.get(username=first)
room = rooms.create_room(a, name, json.loads(rules))
for number, other in enumerate(others, start=2):
    guest = User.objects.filter(username=other).first() or User.objects.create_user(other, password="x-" + other)
    rooms.sit(room, guest, number, move=True); rooms.set_ready(room, guest, True)
match = rooms.start(room, a)
game = engine.get(name)
for _ in range(5000):
    match.refresh_from_db()
    if match.status != Match.Status.ACTIVE:
        break
    if opts.get("rounds") and Round.objects.filter(match=match, result__isnull=False).exclude(
        result__events=[]
    ).count() >= opts["rounds"]:
        room.refresh_from_db()  # enough scored rounds: the last guest leaves (L-3), the match is over
        rooms.leave(room, User.objects.get(username=others[-1]), confirm=True)
        match.refresh_from_db()
        break
    to_act = game.to_act(match.state)
    try:
        if CHANCE in to_act:
            services.expire(match.pk, match.version)
        else:
            seat = min(to_act)
            services.play(match.pk, game.auto_action(match.state, seat), seat=seat, version=match.version)
    except PlayError:
        continue  # the site's own sweep moved first: look again
played = sorted({e["card"] for m in match.moves.all() for e in m.events if e["type"] == "card_played"})
print(json.dumps({"match": match.pk, "status": match.status, "played": played}))
"""


def record_match(game: str, rules: dict, *usernames: str, rounds: int = 0) -> dict:
    """Play a whole match of ``game`` between ``usernames`` (the first creates the room;
    the others are made if they do not exist) on the live site's database; with
    ``rounds``, only until that many rounds are scored, then the last one leaves."""
    admin = os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL)
    env = {
        **os.environ,
        "DATABASE_URL": urlunsplit(urlsplit(admin)._replace(path=f"/{DB_NAME}")),
        "REDIS_URL": os.environ.get("REDIS_URL", DEFAULT_REDIS_URL),
        "CACHE_PREFIX": CACHE_PREFIX,
        "DEADLINES": "inprocess",
        "ROUND_PAUSE": "0",
        "FAIR_WAIT_SECONDS": "0",  # nobody's browser sends values here: substitutes at once (F-4)
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    argv = ["x", game, json.dumps(rules), json.dumps({"rounds": rounds}), *usernames]
    script = f"import sys; sys.argv = {argv!r}\n" + RECORD
    out = forked.run(["manage.py", "shell", "-c", script], env=env, timeout=300, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def step_of(page) -> int:
    return int(page.locator("[data-testid=replay-app]").get_attribute("data-step"))


def shown_cards(page) -> set[str]:
    return set(
        page.eval_on_selector_all(
            "[data-testid=replay-app] [data-card]", "els => els.map(e => e.dataset.card)"
        )
    )


def timeline_of(page) -> dict:
    """The timeline the page itself loaded (its data URL, with the page's cookies)."""
    return page.evaluate(
        "async () => (await (await fetch(document.getElementById('replay-app').dataset.url)).json())"
    )


def open_replay(player, url: str):
    page = player.goto(url)
    app = page.locator("[data-testid=replay-app]")
    wait_until(lambda: app.get_attribute("data-mode") == "ready", message="the replay to load")
    return page


def own_host_only(player) -> list[str]:
    """Every request the page makes from now on (none may leave the site: the chart is drawn here)."""
    urls: list[str] = []
    player.page.on("request", lambda r: urls.append(r.url))
    return urls


LAYOUT_FAULTS = """() => {
  const w = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > w + 1) out.push('page scrolls sideways');
  const inside = (el, box) => { const r = el.getBoundingClientRect(); const b = box.getBoundingClientRect();
    return r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1; };
  const bar = document.querySelector('[data-bar]');
  for (const chip of bar.querySelectorAll('.chip')) if (!inside(chip, bar)) out.push('chip cut: ' + chip.innerText);
  const felt = document.querySelector('[data-felt]');
  for (const name of felt.querySelectorAll('.seat-name')) if (!inside(name, name.closest('.slot')) || !inside(name, felt)) out.push('name out of its seat: ' + name.innerText + ' ' + JSON.stringify([name.getBoundingClientRect(), name.closest('.slot').getBoundingClientRect()]));
  for (const card of document.querySelectorAll('[data-trick] .tc')) {
    if (!inside(card, felt)) out.push('trick card off the felt: ' + card.dataset.card);
    for (const name of felt.querySelectorAll('.seat-name')) {
      const a = card.getBoundingClientRect(); const b = name.getBoundingClientRect();
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
        out.push('card ' + card.dataset.card + ' over the name ' + name.innerText);
    }
  }
  const status = document.querySelector('[data-status] .status-line');
  if (status) for (const card of document.querySelectorAll('[data-trick] .tc')) {
    const a = card.getBoundingClientRect(); const b = status.getBoundingClientRect();
    if (a.left < b.right && b.left < a.right && a.top < b.bottom - 1 && b.top < a.bottom - 1)
      out.push('status over the card ' + card.dataset.card);
  }
  return out;
}"""


def layout_faults_of_list(page) -> list[str]:
    return page.evaluate(
        """() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1
                 ? ['page scrolls sideways'] : []"""
    )


def layout_faults(page) -> list[str]:
    return page.evaluate(LAYOUT_FAULTS)


def to_full_trick(page) -> None:
    for _ in range(40):
        if page.locator("[data-testid=replay-trick] .tc.winner").count():
            return
        page.locator("[data-testid=step-forward]").click()
    raise AssertionError("no full trick within 40 steps")


def test_r_10_slider_steps_keys_and_autoplay_move_through_a_match(people, site):
    ann = people("ann", lang="fa", viewport=DESKTOP)
    ben = people("ben", lang="en", viewport=PHONE)
    recorded = record_match("hokm2", {"target": 3}, ann.name, ben.name)
    assert recorded["status"] == "finished"
    played = set(recorded["played"])
    url = f"/replays/{recorded['match']}/"

    requests = own_host_only(ann)
    page = open_replay(ann, url)
    app = page.locator("[data-testid=replay-app]")
    data = timeline_of(page)
    steps, rounds = data["steps"], data["rounds"]
    assert len(rounds) >= 3  # hokm2 to 3 rounds won
    slider = page.locator("[data-testid=slider]")
    last = int(slider.get_attribute("max"))
    # the slider runs across the whole match: every step of every round
    assert last == len(steps) - 1 and last > 50

    # the slider jumps anywhere in the match, to its very end and back to its start
    slider.fill(str(last))
    wait_until(lambda: step_of(page) == last, message="the slider to the end")
    assert app.get_attribute("data-round") == str(len(rounds) - 1)
    score = page.locator("[data-testid=replay-score] b").all_inner_texts()
    assert [int(digits(t)) for t in score] == data["match"]["result"]["score"]
    slider.fill("0")
    wait_until(lambda: step_of(page) == 0, message="the slider to the start")
    assert app.get_attribute("data-round") == "0"
    slider.fill(str(last // 2))
    wait_until(lambda: step_of(page) == last // 2, message="the slider to move")
    # step buttons and the arrows: in Persian the forward arrow points left
    page.locator("[data-testid=step-forward]").click()
    assert step_of(page) == last // 2 + 1
    page.locator("[data-testid=step-back]").click()
    page.locator("[data-testid=step-forward]").click()
    assert step_of(page) == last // 2 + 1
    page.locator("[data-testid=replay-round]").click()  # focus off the buttons
    page.keyboard.press("ArrowLeft")
    assert step_of(page) == last // 2 + 2
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert step_of(page) == last // 2
    # the round picker goes to a round's first step
    page.locator("[data-testid=round-picker]").select_option("1")
    first_of_2 = next(s["i"] for s in steps if s["round"] == 1)
    wait_until(lambda: step_of(page) == first_of_2, message="round 2's first step")
    assert app.get_attribute("data-round") == "1"
    # the trump of the round on the bar (H2-3: named by the hakem)
    to_full_trick(page)
    trump = rounds[1]["trump"]
    assert (
        page.locator("[data-testid=replay-trump]").inner_text().strip().rstrip("\ufe0e")
        == {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}[trump]
    )
    assert page.locator("[data-testid=replay-trick] .tc").count() == 2
    # the score chart, drawn by the page: one line per side, one point per round and the start
    chart = page.locator("[data-testid=score-chart] svg")
    assert chart.locator("path").count() == 2
    assert chart.locator("circle").count() == 2 * len(data["chart"])
    assert layout_faults(page) == []
    ann.shot("replay-fa-desktop")
    page.screenshot(path=str(SCREENSHOTS / "replay-fa-desktop-full.png"), full_page=True)

    # autoplay moves by itself at the speed chosen, and a pause stays put
    play = page.locator("[data-testid=play]")
    page.locator("[data-testid=speed]").select_option("1600")  # slow
    before = step_of(page)
    play.click()
    assert play.get_attribute("aria-pressed") == "true"
    page.wait_for_timeout(1000)
    assert step_of(page) - before <= 1  # slow: one step in 1.6 s at most
    wait_until(lambda: step_of(page) == before + 1, timeout=5, message="the slow autoplay to advance")
    page.locator("[data-testid=speed]").select_option("120")  # very fast, while playing
    before = step_of(page)
    wait_until(lambda: step_of(page) >= before + 5, timeout=3, message="the fast autoplay to advance")
    assert play.get_attribute("aria-pressed") == "true"
    play.click()
    paused = step_of(page)
    page.wait_for_timeout(400)  # a pause must stay put: several autoplay ticks would have passed
    assert step_of(page) == paused and play.get_attribute("aria-pressed") == "false"
    assert int(slider.input_value()) == paused  # the slider follows autoplay
    assert shown_cards(page) <= played
    assert all(u.startswith(site) for u in requests), [u for u in requests if not u.startswith(site)]

    # English, phone: the other player, at the end of the match
    page = open_replay(ben, url)
    page.keyboard.press("End")
    wait_until(lambda: step_of(page) == last, message="the last step")
    page.keyboard.press("ArrowLeft")  # in English, left is back
    assert step_of(page) == last - 1
    page.keyboard.press("ArrowRight")
    assert shown_cards(page) <= played
    # ben sits in seat 2: his side has the table's "us" colour on the bar, the chart and his seat
    assert page.locator("[data-testid=replay-score] [data-tone=us] small").inner_text() == ben.name
    assert page.locator("[data-testid=score-chart] .rp-key-0").get_attribute("data-team") == "1"
    assert "team-us" in page.locator("[data-slot=bottom] .seat").get_attribute("class")
    assert layout_faults(page) == []
    ben.shot("replay-en-phone")
    page.locator("[data-testid=round-picker]").select_option("0")
    to_full_trick(page)
    assert layout_faults(page) == []
    ben.shot("replay-en-phone-trick")
    page.set_viewport_size(SMALL_PHONE)
    assert layout_faults(page) == []
    page.set_viewport_size(DESKTOP)
    ben.shot("replay-en-desktop")
    page = ann.page
    page.set_viewport_size(PHONE)
    assert layout_faults(page) == []
    ann.shot("replay-fa-phone")
    page.screenshot(path=str(SCREENSHOTS / "replay-fa-phone-full.png"), full_page=True)

    # the list of one's matches links the replay
    page = ann.goto("/replays/")
    row = page.locator(f"[data-testid=replay-list] tr[data-match='{recorded['match']}']")
    assert row.locator("[data-testid=review-link]").get_attribute("href") == url
    ann.shot("replay-list-fa-phone")
    assert layout_faults_of_list(page) == []

    # not a participant: 404
    cleo = people("cleo", lang="en")
    assert cleo.page.goto(f"{cleo.site}{url}").status == 404


def seat_in(page, slot: str) -> int:
    return int(page.locator(f"[data-slot={slot}] [data-seat]").get_attribute("data-seat"))


def test_r_10_b_4_a_bridge_deal_shows_auction_contract_hands_and_double_dummy(people):
    """One bridge deal played out, then a player leaves (L-3): its replay shows the
    auction, the contract with declarer, and at the deal's end the four hands and
    the double-dummy table; the seats sit where the table puts them, in both languages."""
    north = people("north", lang="fa", viewport=DESKTOP)
    east = people("east", lang="en", viewport=PHONE)
    south, west = f"{north.name}_s", f"{north.name}_w"
    recorded = record_match("bridge", {}, north.name, east.name, south, west, rounds=1)
    assert recorded["status"] == "abandoned"
    url = f"/replays/{recorded['match']}/"

    for player, seat in ((north, 1), (east, 2)):
        page = open_replay(player, url)
        data = timeline_of(page)
        deal = next(i for i, r in enumerate(data["rounds"]) if r.get("hands"))
        # B-1 clockwise: the next player (on the viewer's left) sits on the left, in both languages
        assert seat_in(page, "bottom") == seat
        assert seat_in(page, "left") == seat % 4 + 1
        assert seat_in(page, "right") == (seat + 2) % 4 + 1
        left = page.locator("[data-slot=left]").bounding_box()
        right = page.locator("[data-slot=right]").bounding_box()
        assert left["x"] < right["x"]
        page.locator("[data-testid=round-picker]").select_option(str(deal))
        # the auction: each call in the list as it comes, the contract on the bar once it is over
        calls = data["rounds"][deal]["auction"]
        contract_step = next(s["i"] for s in data["steps"] if s["kind"] == "contract" and s["round"] == deal)
        page.locator("[data-testid=slider]").fill(str(contract_step - 1))
        wait_until(lambda p=page, i=contract_step - 1: step_of(p) == i, message="the last call")
        assert page.locator("[data-auction] li").count() == len(calls)
        assert page.locator("[data-testid=replay-contract] b").inner_text().strip() == "\u2014"
        page.locator("[data-testid=step-forward]").click()
        contract = page.locator("[data-testid=replay-contract] b").inner_text().strip()
        level = re.search(r"\d", digits(contract))  # the label may sit in bidi isolates (U+2068 .. U+2069)
        assert (
            contract != "\u2014" and level and level.group() == str(data["rounds"][deal]["contract"]["level"])
        )
        assert page.locator("[data-felt] .bubble").count() >= 1  # the last call above each seat
        # no hand during play: the four hands only at the deal's end (B-4)
        assert page.locator("[data-extra]").is_hidden()
        end = next(s["i"] for s in data["steps"] if s["kind"] == "round_end" and s["round"] == deal)
        page.locator("[data-testid=slider]").fill(str(end))
        wait_until(lambda p=page, i=end: step_of(p) == i, message="the deal's end")
        assert page.locator("[data-extra]").is_visible()
        assert page.locator(".rp-hands dt").count() == 4
        table = page.locator("[data-testid=double-dummy]")
        assert table.locator("tbody tr").count() == 4
        cells = [int(digits(t)) for t in table.locator("tbody td").all_inner_texts()]
        assert len(cells) == 20 and all(0 <= n <= 13 for n in cells)
        dd = data["rounds"][deal]["double_dummy"]
        assert cells == [dd[s][p] for p in range(4) for s in ("C", "D", "H", "S", "NT")]
        player.shot(f"replay-bridge-{player.lang}-{'desktop' if player is north else 'phone'}")
        assert layout_faults(page) == []
        page.screenshot(path=str(SCREENSHOTS / f"replay-bridge-{player.lang}-full.png"), full_page=True)


@pytest.mark.parametrize("game", ["hokm4", "shelem4"])
def test_r_10_four_players_seats_keep_their_physical_places_in_both_languages(people, game):
    """Counter-clockwise play (DESIGN): the next player sits on the viewer's right,
    the partner at the top, in Persian as in English: RTL mirrors text, never seats.
    Shelem's auction is listed call by call and its bid named on the bar."""
    fa = people("hfa", lang="fa", viewport=PHONE)
    en = people("hen", lang="en", viewport=DESKTOP)
    third, fourth = f"{fa.name}_c", f"{fa.name}_d"
    recorded = record_match(game, {}, fa.name, en.name, third, fourth, rounds=1)
    assert recorded["status"] == "abandoned"
    url = f"/replays/{recorded['match']}/"
    for player, seat in ((fa, 1), (en, 2)):
        page = open_replay(player, url)
        assert seat_in(page, "bottom") == seat
        assert seat_in(page, "right") == seat % 4 + 1
        assert seat_in(page, "top") == (seat + 1) % 4 + 1
        assert seat_in(page, "left") == (seat + 2) % 4 + 1
        left = page.locator("[data-slot=left]").bounding_box()
        right = page.locator("[data-slot=right]").bounding_box()
        assert left["x"] < right["x"]
        to_full_trick(page)
        # the trump (or sars) on the bar, the four cards of a trick in the middle
        assert page.locator("[data-testid=replay-trump]").inner_text().strip()
        assert page.locator("[data-testid=replay-trick] .tc").count() == 4
        if game == "shelem4":
            auction = timeline_of(page)["rounds"][0]["auction"]
            assert page.locator("[data-auction] li").count() == len(auction) > 0
            bid = page.locator("[data-testid=replay-bid]").inner_text()
            assert str(max(a["bid"] for a in auction if a["bid"] != "pass")) in digits(bid)
        player.shot(f"replay-{game}-{player.lang}-{'phone' if player is fa else 'desktop'}")
        assert layout_faults(page) == []
