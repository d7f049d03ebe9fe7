"""/fair/<match>/<round>/: the round's fair-deal page (F-3), for the match's players only."""

from __future__ import annotations

import pytest

from games.models import DealRecord

from .conftest import fair_round, make_match, value_for

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


def test_a_visitor_is_sent_to_sign_in(client, played):
    response = client.get(f"/fair/{played.pk}/1/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_an_unknown_round_is_a_404(client, alice, played):
    client.force_login(alice)
    assert client.get(f"/fair/{played.pk}/9/").status_code == 404
