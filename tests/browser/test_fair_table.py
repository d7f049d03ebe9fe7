"""The fair deal in a real browser at a real table (RULES.md F-1..F-4, docs/fairness.md).

A player takes "play now with bots" (Hokm, bots in the other three seats):
his browser makes its value, sends the fingerprint, then the value; the
server deals from the record. After round 1 the badge on the table says
the deal verified and the round page re-checks it from what this browser
kept. Round 2's record is forged on its way to the browser (a socket route
replaces a bot's value with another, its fingerprint and the deck it gives:
a record that agrees with itself): the badge says, loudly, that the deal
did not verify.
"""

from __future__ import annotations

import hashlib
import json
import time

import pytest

from games import fairdeal

from .conftest import DESKTOP, PHONE, ROOM_URL, act_on, wait_until, what_now

pytestmark = pytest.mark.browser


def forge(record: dict) -> None:
    """What a lying server would publish: bot seat 2's value replaced after the
    round, with the fingerprint of the new value and the deck it gives. The
    record agrees with itself; only what the browser saw can catch it."""
    chosen = hashlib.sha256(b"chosen after the round").hexdigest()
    record["values"][1].update(value=chosen, commitment=fairdeal.commitment(chosen))
    record["deck"] = fairdeal.order(
        record["cards"],
        record["server_secret"],
        [v["value"] for v in record["values"]],
        purpose="deal",
        table=record["table"],
        round_number=record["round"],
    )


def tamper_round(number: int):
    """A socket route that forges the ``fair_record`` of round ``number`` only."""

    def route(ws):
        server = ws.connect_to_server()

        def from_server(message):
            if isinstance(message, str) and '"fair_record"' in message:
                frame = json.loads(message)
                if frame["record"]["round"] == number:
                    forge(frame["record"])
                    message = json.dumps(frame)
            ws.send(message)

        server.on_message(from_server)
        ws.on_message(lambda message: server.send(message))

    return route


def badge(player) -> dict | None:
    return player.page.evaluate(
        """() => { const b = document.querySelector('[data-testid=fair-badge]');
                   return b ? {state: b.dataset.state, text: b.textContent, href: b.getAttribute('href')} : null; }"""
    )


def results(player) -> list[dict]:
    return player.page.evaluate("() => (window.takhteh.app.fair ? window.takhteh.app.fair.results : [])")


def play_until(player, predicate, timeout=120.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        if not act_on(player, what_now(player), 1):
            time.sleep(0.1)
    raise AssertionError(f"{player.name}: not reached; fair results {results(player)}")


WORDS = {"en": ("verified", "NOT"), "fa": ("تأیید شد", "تأیید نشد")}


@pytest.mark.parametrize(("lang", "viewport", "size"), [("en", DESKTOP, "desktop"), ("fa", PHONE, "phone")])
def test_f3_a_real_browser_verifies_its_deal_and_catches_a_tampered_record(people, lang, viewport, size):
    verified, failed = WORDS[lang]
    sara = people("sara", lang=lang, viewport=viewport)
    sara.page.route_web_socket("**/ws/table/**", tamper_round(2))
    page = sara.goto("/")
    page.locator("[data-testid=practice-hokm4]").click()
    page.wait_for_url(ROOM_URL)

    # F-1, F-2: the browser sent a 64-hex fingerprint for round 1, then the value that makes it.
    wait_until(lambda: sara.sent("fair_reveal"), timeout=20, message="the browser's value")
    commit = sara.sent("fair_commit")[0]
    reveal = sara.sent("fair_reveal")[0]
    assert commit["round"] == 1 and reveal["round"] == 1
    assert len(commit["commitment"]) == 64 and len(reveal["value"]) == 64
    digest = page.evaluate(
        """async (v) => { const b = new Uint8Array(v.match(/../g).map((h) => parseInt(h, 16)));
             return [...new Uint8Array(await crypto.subtle.digest('SHA-256', b))]
               .map((x) => x.toString(16).padStart(2, '0')).join(''); }""",
        reveal["value"],
    )
    assert digest == commit["commitment"]

    # Round 1 is played to its end by clicking; the badge says the deal verified.
    play_until(sara, lambda: any(r["round"] == 1 for r in results(sara)))
    first = next(r for r in results(sara) if r["round"] == 1)
    assert first["ok"], first
    shown = badge(sara)
    assert shown["state"] == "ok" and verified in shown["text"] and failed not in shown["text"]
    sara.shot(f"fair-badge-verified-{lang}-{size}")
    match_id = shown["href"].split("/")[2]
    stored = page.evaluate(f"() => JSON.parse(localStorage.getItem('takhteh:fair:{match_id}:1'))")
    assert stored["fromDeal"] and stored["revealed"] and len(stored["hand"]) == 13  # H4: thirteen cards

    # Round 2's record is forged on the way (consistent in itself): the check fails, loudly,
    # on the fingerprints this browser saw (F-1) and on its own cards and the cards played (F-3).
    play_until(sara, lambda: any(r["round"] == 2 for r in results(sara)), timeout=150)
    second = next(r for r in results(sara) if r["round"] == 2)
    assert not second["ok"], second
    assert {"commitments_seen", "own_hand", "played"} <= set(second["failed"]), second
    assert not {"value", "deck", "server_commitment"} & set(second["failed"]), second
    shown = badge(sara)
    assert shown["state"] == "failed" and failed in shown["text"]
    sara.shot(f"fair-badge-failed-{lang}-{size}")

    # The round page re-runs round 1's check from what this browser kept at the table.
    sara.goto(f"/fair/{match_id}/1/")
    result = sara.page.locator("[data-testid=fair-result]")
    wait_until(lambda: result.get_attribute("data-state") in ("ok", "failed"), message="the page's check")
    assert result.get_attribute("data-state") == "ok"
    codes = sara.page.locator("[data-testid=fair-checks] li[data-ok=true]").evaluate_all(
        "els => els.map(e => e.dataset.code)"
    )
    assert {"own_value", "own_hand", "played", "draw_seen", "commitments_seen"} <= set(codes)
