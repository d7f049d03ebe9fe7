"""Persian everywhere (issue 15): our own 404 and 500 pages in both languages,
allauth's «باموفقیت» spelled «با موفقیت», Django's password messages in the
site's words with Persian digits, the favicon, and the table's mute toggle
saved in the profile."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import override_settings
from django.utils import translation

from accounts.templatetags.persian import digits

ROOT = Path(settings.BASE_DIR)


@pytest.mark.django_db
@override_settings(DEBUG=False)
@pytest.mark.parametrize("language,title", [("fa", "صفحه پیدا نشد"), ("en", "Page not found")])
def test_our_404_page_in_both_languages(client, language, title):
    client.cookies["lang"] = language
    response = client.get("/no-such-page-here/")
    assert response.status_code == 404
    html = response.content.decode()
    assert title in html and 'data-testid="error-404"' in html


@pytest.mark.parametrize("language,title", [("fa", "مشکلی پیش آمد"), ("en", "Something went wrong")])
def test_our_500_page_in_both_languages(language, title):
    with translation.override(language):
        html = render_to_string("500.html")
    assert title in html and f'lang="{language}"' in html


def test_success_is_spelled_right_in_persian():
    with translation.override("fa"):
        text = translation.gettext("Password successfully changed.")
    assert "با موفقیت" in text and "باموفقیت" not in text
    for po in ROOT.glob("*/locale/fa/LC_MESSAGES/*.po"):
        assert "باموفقیت" not in "\n".join(
            line for line in po.read_text(encoding="utf-8").splitlines() if line.startswith("msgstr")
        ), po


def test_password_messages_in_persian_digits():
    from django.contrib.auth.password_validation import MinimumLengthValidator
    from django.core.exceptions import ValidationError

    with translation.override("fa"):
        try:
            MinimumLengthValidator(8).validate("ab1")
        except ValidationError as exc:
            message = digits(" ".join(exc.messages))
    assert "گذرواژه" in message and "۸" in message
    assert not re.search(r"[0-9]", message)


def test_favicon_is_linked_and_present():
    base = (ROOT / "templates" / "base.html").read_text(encoding="utf-8")
    assert 'rel="icon"' in base
    assert (ROOT / "static" / "img" / "favicon.svg").is_file()


@pytest.mark.django_db
def test_mute_toggle_saves_card_sounds(client, alice):
    url = "/me/preferences/sound/"
    assert client.post(url, {"on": "0"}).status_code == 403  # signed out: this browser only
    client.force_login(alice)
    assert client.get(url).status_code == 405
    assert client.post(url, {"on": "0"}).json() == {"saved": True, "card_sounds": False}
    alice.profile.refresh_from_db()
    assert alice.profile.card_sounds is False
    client.post(url, {"on": "1"})
    alice.profile.refresh_from_db()
    assert alice.profile.card_sounds is True
