"""R-8: "Table rules" opens the game's rules with a button back to the same table."""

import pytest


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["hokm", "hokm4", "hokm2", "shelem", "shelem4", "shelem2", "bridge"])
def test_r_8_each_game_has_its_rules_page(client, game):
    assert client.get(f"/rules/{game}/").status_code == 200


@pytest.mark.django_db
def test_r_8_the_rules_page_returns_to_the_same_table(client):
    html = client.get("/rules/hokm4/?back=/rooms/abcd2345/").content.decode()
    assert 'data-testid="back-to-table"' in html and 'href="/rooms/abcd2345/"' in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    "back", ["https://evil.example/", "//evil.example/rooms/", "/admin/", "javascript:alert(1)"]
)
def test_r_8_the_back_button_only_leads_to_our_own_tables(client, back):
    html = client.get("/rules/hokm/", {"back": back}).content.decode()
    assert 'data-testid="back-to-table"' not in html


@pytest.mark.django_db
def test_an_unknown_game_has_no_rules_page(client):
    assert client.get("/rules/poker/").status_code == 404
