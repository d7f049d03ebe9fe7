"""The rules pages for players (R-8): card pictures, the room's own table
rules marked where they differ (H4-5 kot, H4-6 target, H4-X1, SH-1), the
glossary, and the embedded page the table opens in its panel."""

from __future__ import annotations

import re

import pytest

from rooms.models import Room


@pytest.fixture
def kot_room(alice):
    # H4-5 kot on (usually off), H4-6 target 3 (usually 7), H4-X1 middle card off (usually on).
    return Room.objects.create(
        game="hokm4", creator=alice, rules={"kot": True, "target": 3, "middle_card": False}, code="kotroom1"
    )


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["hokm", "hokm4", "hokm2", "shelem4", "shelem2", "bridge"])
def test_r_8_every_rules_page_has_card_pictures_and_the_glossary(client, game):
    html = client.get(f"/rules/{game}/").content.decode()
    assert 'data-testid="glossary"' in html and "data-cards=" in html
    assert "js/rules/card_pictures.js" in html
    assert 'data-testid="room-rules"' not in html  # no room named: no table box


@pytest.mark.django_db
def test_h4_5_h4_6_h4_x1_the_rooms_rules_are_marked_where_they_differ(client, kot_room):
    html = client.get("/rules/hokm/?room=kotroom1").content.decode()
    assert 'data-testid="room-rules"' in html
    for name in ("kot", "target", "middle_card"):
        assert f'data-testid="differs-{name}"' in html
    for name in ("early_play", "lead_run", "ace_partners", "turn_seconds"):
        assert f'data-testid="differs-{name}"' not in html
    assert 'class="at-table differs" data-at-table="kot"' in html
    assert 'class="at-table" data-at-table="early_play"' in html


@pytest.mark.django_db
def test_sh_1_a_shelem_room_with_jokers_is_marked(client, alice):
    Room.objects.create(game="shelem4", creator=alice, rules={"jokers": True}, code="jokers12")
    html = client.get("/rules/shelem4/?room=jokers12").content.decode()
    assert 'data-testid="differs-jokers"' in html and 'data-testid="differs-cap"' not in html


@pytest.mark.django_db
def test_a_room_of_another_game_or_no_room_shows_no_table_box(client, kot_room):
    assert 'data-testid="room-rules"' not in client.get("/rules/shelem/?room=kotroom1").content.decode()
    assert 'data-testid="room-rules"' not in client.get("/rules/hokm/?room=nosuch").content.decode()


@pytest.mark.django_db
def test_r_8_the_embedded_page_may_be_framed_by_our_own_table_only(client, kot_room):
    response = client.get("/rules/hokm4/?room=kotroom1&embed=1")
    assert response.headers["X-Frame-Options"] == "SAMEORIGIN"
    html = response.content.decode()
    assert 'class="topbar"' not in html and 'data-testid="room-rules"' in html
    assert 'class="topbar"' in client.get("/rules/hokm4/").content.decode()


GLOSSARY = {
    # The issue's words (hakem, trump, trick, round, kot, cutting, widow, sars, dummy, rubber ...), as written.
    "en": ["Hakem", "Trump", "Trick", "Round", "Kot", "Cutting", "Widow", "Sars", "Dummy", "Rubber", "Draft"],
    "fa": ["حاکم", "حکم", "دست", "دور", "کُت", "بُریدن", "زمین", "سَرس", "دامی", "رابِر", "انتخابِ جفت‌ها"],
}


def glossary_terms(html: str) -> list[str]:
    block = html[html.index('data-testid="glossary"') :]
    return re.findall(r"<dt>(.*?)</dt>", block[: block.index("</section>")])


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["fa", "en"])
@pytest.mark.parametrize("game", ["hokm4", "hokm2", "shelem4", "shelem2", "bridge"])
def test_r_8_the_glossary_names_the_issues_words_in_the_pages_language(client, game, lang):
    client.cookies["lang"] = lang
    terms = glossary_terms(client.get(f"/rules/{game}/").content.decode())
    assert set(GLOSSARY[lang]) <= set(terms), set(GLOSSARY[lang]) - set(terms)


def section(html: str, anchor: str) -> str:
    start = html.index(f'id="{anchor}"')
    end = html.find("<h2", start)
    return html[start : end if end != -1 else None]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("game", "anchor", "pictures"),
    [("hokm2", "hokm2", ["QH back"]), ("shelem2", "shelem2", ["KS 9S AS 5S", "TD back back back"])],
)
def test_h2_4_s2_1_the_two_player_games_have_their_own_section_with_pictures(client, game, anchor, pictures):
    html = client.get(f"/rules/{game}/").content.decode()
    assert 'data-testid="variant-note"' in html and f'href="#{anchor}"' in html
    own = section(html, anchor)
    for cards in pictures:
        assert f'data-cards="{cards}"' in own
    # A four-player table's page does not send its players to the two-player section.
    assert 'data-testid="variant-note"' not in client.get(f"/rules/{game[:-1]}4/").content.decode()


@pytest.mark.django_db
def test_b_3_b_8_the_bridge_page_explains_declarer_dummy_and_honours(client):
    client.cookies["lang"] = "en"
    html = client.get("/rules/bridge/").content.decode()
    assert "declarer" in html and 'data-cards="AH KH QH JH TH"' in html and "vulnerable" in html


@pytest.mark.django_db
def test_the_hokm_page_is_the_lessons_in_writing_each_section_leads_to_its_lesson(client):
    html = client.get("/rules/hokm4/").content.decode()
    for n in (1, 2, 4, 5, 8, 9):
        assert f'href="/school/{n}/" data-testid="try-lesson-{n}"' in html
    # In the table's panel a lesson opens in a new tab: the panel stays on the rules.
    embedded = client.get("/rules/hokm4/?embed=1").content.decode()
    assert 'data-testid="try-lesson-5" target="_blank"' in embedded
    assert 'data-testid="school-lead" target="_blank"' in embedded
    assert 'target="_blank"' not in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("game", "lang", "english"),
    [(g, "fa", False) for g in ("hokm2", "shelem2", "bridge")] + [("hokm2", "en", True)],
)
def test_r_8_a_persian_rules_page_has_no_english_left_in_it(client, game, lang, english):
    """Every section, caption and glossary line reaches a Persian player in Persian."""
    client.cookies["lang"] = lang
    html = client.get(f"/rules/{game}/").content.decode()
    body = html[html.index("<article>") : html.index("</dl>")]
    text = re.sub(r"<[^>]+>", " ", body)
    left = re.findall(r"[^.]*\b(?:the|and|you|is|of)\b[^.]*", text)
    assert bool(left) == english, left  # the English page is the check's own control
