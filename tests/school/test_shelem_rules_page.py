"""Issue 34: the Shelem rules page says what RULES.md says about jokers
(SH-7, SH-8), the cap, the lead and how a match ends (SH-11: a side at minus
the cap loses), so that a player whose match ended after one round can find
why; in Persian and English."""

from __future__ import annotations

import html as htmllib
import re

import pytest

from rooms.models import Room

pytestmark = pytest.mark.django_db


def page(client, url, lang):
    client.cookies["lang"] = lang
    response = client.get(url)
    assert response.status_code == 200
    return htmllib.unescape(response.content.decode())


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("game", ["shelem", "shelem4", "shelem2"])
def test_sh_7_sh_8_sh_11_the_english_page_says_every_point(client, game):
    words = text(page(client, f"/rules/{game}/", "en"))
    for said in (
        # SH-7: red beats black, both beat every ordinary card; jokers as trumps.
        "The red joker beats the black joker, and both beat every ordinary card.",
        "the jokers belong to the trump suit, above its ace",
        "a trump lead may be followed with a joker, and must be when a joker is your only trump",
        "a joker led later is a trump lead",
        "a player out of the suit led may cut with one",
        # SH-7: a joker lead in sars sets no suit.
        "In a sars round a trick led with a joker sets no suit",
        # SH-8: the other joker must follow a first-card joker.
        "the player holding the other joker must play it in that trick",
        "If the leader holds both jokers, nobody has this duty.",
        # SH-11: the cap, the lead, equal totals, minus the cap.
        "300, 600, 900 or 1200 points; usually 600",
        "leads by 165, 330 or 495 points (200, 400 or 600 with jokers)",
        "If the totals are equal, play goes on.",
        "A side whose total falls to minus the cap or below loses the match at once",
        "Why a match can end after a single round",
    ):
        assert said in words, said


def test_sh_11_the_persian_page_says_it_in_persian(client):
    html = page(client, "/rules/shelem/", "fa")
    words = text(html)
    for said in (
        "جوکر قرمز جوکر مشکی را می‌بُرد",
        "در دورِ سَرس، دستی که با جوکر شروع شود خالی تعیین نمی‌کند",
        "کسی که جوکرِ دیگر را دارد باید آن را در همان دست بدهد",
        "منفیِ سقف",
        "چرا مسابقه ممکن است با یک دور تمام شود",
        "۳۰۰، ۶۰۰، ۹۰۰ یا ۱۲۰۰",
    ):
        assert said in words, said
    assert "Why a match can end" not in words and "red joker" not in words


def test_sh_11_the_match_end_has_its_anchor_and_the_rooms_own_cap_and_lead(client, alice):
    Room.objects.create(game="shelem4", creator=alice, rules={"cap": 300, "lead": 1}, code="capped01")
    html = page(client, "/rules/shelem4/?room=capped01&back=/rooms/capped01/", "en")
    assert 'id="match-end"' in html and 'data-testid="one-round-match"' in html
    # The table's own choices beside the explanation, marked where they differ from the usual.
    end = html.index('id="match-end"')
    assert html.index('data-at-table="cap"', end) > end
    assert 'class="at-table differs" data-at-table="cap"' in html
    assert 'class="at-table differs" data-at-table="lead"' in html
    assert 'data-testid="back-to-table"' in html


def test_sh_11_the_match_result_links_to_why_a_shelem_match_ended():
    """The table's result panel (static/js/table/panels.js) links a finished Shelem
    match to the rules' #match-end with the room named (its own cap and lead)."""
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2] / "static/js/table/panels.js").read_text()
    assert 'data-testid": "why-match-ended"' in source and "#match-end" in source


@pytest.mark.parametrize(
    "lang,said",
    [
        ("en", "is not played yet: the middle card stays in view. Only laying the middle card itself early"),
        ("fa", "فقط اگر خودِ خال وسط را زودتر بگذارد"),
    ],
)
def test_h4_x1_the_hokm_page_says_an_early_card_keeps_the_middle_card_up(client, lang, said):
    assert said in text(page(client, "/rules/hokm/", lang))
