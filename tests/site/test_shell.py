"""The bilingual shell: Persian right-to-left by default, English left-to-right."""

import re

import pytest
from django.urls import reverse

PERSIAN_DIGITS = "۰۱۲۳۴۵۶۷۸۹"


@pytest.mark.django_db
def test_the_home_page_is_persian_and_rtl_by_default(client):
    html = client.get(reverse("home")).content.decode()
    assert re.search(r'<html lang="fa" dir="rtl">', html)
    assert any(d in html for d in PERSIAN_DIGITS), "numbers are written with Persian digits"
    assert "حکم" in html  # Hokm


@pytest.mark.django_db
def test_the_home_page_in_english_is_ltr_with_latin_digits(client):
    client.cookies["lang"] = "en"
    html = client.get(reverse("home")).content.decode()
    assert '<html lang="en" dir="ltr">' in html
    assert not any(d in html for d in PERSIAN_DIGITS)
    assert "Hokm" in html


@pytest.mark.django_db
def test_the_language_switcher_sets_english(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert 'dir="ltr"' in client.get("/").content.decode()


@pytest.mark.django_db
def test_the_top_bar_links_every_section(client, alice):
    client.force_login(alice)
    html = client.get(reverse("home")).content.decode()
    for name in ("rooms:lobby", "leaderboard:index", "friends:index", "rules"):
        assert f'href="{reverse(name)}"' in html
    assert 'data-testid="signed-in-user">alice<' in html


@pytest.mark.django_db
def test_the_persian_font_is_served_by_the_site(client):
    css = client.get("/static/css/site.css")
    body = b"".join(css.streaming_content) if css.streaming else css.content
    assert b"Vazirmatn-Variable.woff2" in body and b"https://" not in body
    font = client.get("/static/fonts/Vazirmatn-Variable.woff2")
    assert font.status_code == 200
    assert client.get("/static/fonts/Vazirmatn-OFL.txt").status_code == 200


@pytest.mark.django_db
def test_no_page_loads_anything_from_another_host(client):
    for url in ["/", reverse("account_login"), reverse("account_signup"), reverse("rules")]:
        html = client.get(url).content.decode()
        assert not re.search(r'(src|href)="https?://', html), url


@pytest.mark.django_db
def test_a_non_staff_user_cannot_open_the_admin(client, alice):
    client.force_login(alice)
    response = client.get("/admin/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


@pytest.mark.django_db
def test_a_moderator_deactivates_a_user(client, make_user, bob):
    mod = make_user("mod", is_staff=True, is_superuser=True)
    client.force_login(mod)
    assert client.get("/admin/accounts/user/").status_code == 200
    client.post("/admin/accounts/user/", {"action": "deactivate", "_selected_action": [bob.pk]})
    bob.refresh_from_db()
    assert bob.is_active is False
