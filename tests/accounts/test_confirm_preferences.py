"""Issue 40, misclicks: "confirm each card" and "confirm bids" are preferences of the
profile, off by default, saved by the preferences form and handed to the table page."""

from __future__ import annotations

import pytest
from django.urls import reverse


@pytest.mark.django_db
def test_confirmations_are_off_by_default(alice):
    assert (alice.profile.confirm_cards, alice.profile.confirm_bids) == (False, False)


@pytest.mark.django_db
def test_the_preferences_form_saves_them(client, alice):
    client.force_login(alice)
    client.post(
        reverse("preferences"),
        {"card_sounds": "on", "confirm_cards": "on", "confirm_bids": "on", "language": "en"},
    )
    alice.profile.refresh_from_db()
    assert (alice.profile.confirm_cards, alice.profile.confirm_bids) == (True, True)
    page = client.get(reverse("preferences")).content.decode()
    assert 'name="confirm_cards"' in page and 'name="confirm_bids"' in page


@pytest.mark.django_db
@pytest.mark.parametrize("cards,bids", [(False, False), (True, False), (False, True)])
def test_the_table_page_carries_them(client, alice, cards, bids):
    from rooms import services

    alice.profile.confirm_cards = cards
    alice.profile.confirm_bids = bids
    alice.profile.save()
    room = services.create_room(alice, "shelem4", {}, is_private=False)
    client.force_login(alice)
    html = client.get(reverse("rooms:room", args=[room.code])).content.decode()
    assert f'data-confirm-cards="{str(cards).lower()}"' in html
    assert f'data-confirm-bids="{str(bids).lower()}"' in html


@pytest.mark.django_db
def test_a_visitor_table_page_has_them_off(client, alice):
    from rooms import services

    room = services.create_room(alice, "bridge", {}, is_private=False)
    html = client.get(reverse("rooms:room", args=[room.code])).content.decode()
    assert 'data-confirm-cards="false"' in html and 'data-confirm-bids="false"' in html
