"""/fair/<match>/<round>/: the round's fair-deal page (F-3), for the match's players only."""

from __future__ import annotations

import json
import re

import pytest

from games import fairness
from games.models import DealRecord

from .conftest import deal, exchange, fair_round, make_match, play_out, value_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(alice, bob):
    match = make_match(alice, "hokm4", {1: alice, 3: bob})
    fair_round(match, 1, {1: value_for("a"), 3: value_for("b")})
    return match


def test_f3_a_player_sees_every_input_after_the_round(client, alice, played):
    client.force_login(alice)
    response = client.get(f"/fair/{played.pk}/1/")
    assert response.status_code == 200
    record = DealRecord.objects.get(match=played, number=1)
    text = response.content.decode()
    assert record.server_secret in text and record.server_commitment in text
    assert all(v in text for v in record.values)
    assert 'id="fair-record"' in text and "js/fairness/round.js" in text


def test_f3_before_the_round_ends_the_page_shows_no_secret(client, alice, bob):
    match = make_match(alice, "hokm4", {1: alice, 3: bob})
    fair_round(match, 1, {1: value_for("a"), 3: value_for("b")}, finish=False)
    client.force_login(alice)
    response = client.get(f"/fair/{match.pk}/1/")
    assert response.status_code == 200
    record = DealRecord.objects.get(match=match, number=1)
    text = response.content.decode()
    assert 'data-testid="fair-not-yet"' in text
    assert record.server_secret not in text and not any(v in text for v in record.values)


def test_someone_who_did_not_play_gets_a_404(client, charlie, played):
    client.force_login(charlie)
    assert client.get(f"/fair/{played.pk}/1/").status_code == 404
    assert client.get(f"/fair/{played.pk + 1000}/1/").status_code == 404


def test_f8_a_visitor_gets_the_same_answer_as_for_the_review_link(client, played):
    """Issue 34: a signed-out visitor got a sign-in page here and a 404 for the review's link."""
    fair = client.get(f"/fair/{played.pk}/1/")
    review = client.get(f"/replays/{played.pk}/")
    assert fair.status_code == review.status_code == 404
    assert client.get(f"/fair/{played.pk + 1000}/1/").status_code == 404


def test_an_unknown_round_is_a_404(client, alice, played):
    client.force_login(alice)
    assert client.get(f"/fair/{played.pk}/9/").status_code == 404


def _visible(html: str) -> str:
    """The page without the record's JSON (the inputs F-3 publishes, read by the script)."""
    return re.sub(r'<script id="fair-record"[^>]*>.*?</script>', "", html, flags=re.S)


def test_h2_6_the_hokm2_page_lists_no_hidden_card_but_keeps_the_record(client, alice):
    """H2-6 against F-3 (docs/fairness.md): the record stays whole (its values give
    the deck anyway), but the page never shows the cards put aside."""
    match = make_match(alice, "hokm2", {1: alice})
    fair_round(match, 1, {1: value_for("a")})
    client.force_login(alice)
    html = client.get(f"/fair/{match.pk}/1/").content.decode()
    record = DealRecord.objects.get(match=match, number=1)
    deck = record.deck
    removed = [c for c in deck if c[0] == "2"][:2]
    e = [c for c in deck if c not in removed]
    hidden = removed + e[11:42:2] + e[42:50]  # D-3: the 2s out, every pair's second card, the eight put aside
    assert len(set(hidden)) == 26
    page = _visible(html)
    assert 'data-testid="fair-deck-hidden"' in page and "data-deck" not in page
    shown = [c for c in hidden if re.search(rf"\b{c}\b", page)]
    assert not shown, shown
    assert all(v in page for v in record.values) and record.server_secret in page  # F-3: the inputs
    assert json.dumps(deck) in html  # the record itself is kept (F-3), for the browser's check


def test_the_hokm4_page_lists_the_deck(client, alice, played):
    client.force_login(alice)
    page = _visible(client.get(f"/fair/{played.pk}/1/").content.decode())
    deck = DealRecord.objects.get(match=played, number=1).deck
    assert "data-deck" in page and all(re.search(rf"\b{c}\b", page) for c in deck)


def test_f3_h4_x6_you_marks_the_seat_your_value_was_sent_for_after_the_partners_draw(client, alice, bob):
    """H4-X6 moves players after the values are in (the partners' draw is dealt
    from them): the page marks alice's value at the seat she sent it from,
    not at the seat she holds now."""
    for attempt in range(200):
        match = make_match(
            alice, "hokm4", {1: alice, 3: bob}, rules={"ace_partners": True, "middle_card": False}
        )
        values = {1: value_for(f"a{attempt}"), 3: value_for(f"b{attempt}")}
        fairness.open_round(match, 1)
        exchange(match, 1, values)
        swaps = [e for e in deal(match, 1) if e["type"] == "swap_seats"]
        if any(1 in (e["a"], e["b"]) for e in swaps):
            break
        match.delete()
    else:
        raise AssertionError("no draw moved seat 1")
    for e in swaps:  # what the play service does with the engine's event (services._swap_players)
        moved = {e["a"]: e["b"], e["b"]: e["a"]}
        match.players = [{**p, "seat": moved.get(p["seat"], p["seat"])} for p in match.players]
    match.save()
    play_out(match, 1)
    now = match.seat_of_user(alice.pk)
    assert now != 1
    client.force_login(alice)
    text = client.get(f"/fair/{match.pk}/1/").content.decode()
    row = re.search(r'<tr data-seat="(\d)">\s*<th scope="row">[^<]*\((?:you|شما)\)', text)
    assert row is not None and row.group(1) == "1", "marked at the seat her value was sent for"
    record = DealRecord.objects.get(match=match, number=1)
    assert record.values[0] == values[1]
