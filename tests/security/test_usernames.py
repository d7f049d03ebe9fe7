"""Issue 14, item 9: look-alike and reserved usernames are refused at
sign-up, and the database itself refuses two names with the same key."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.validators import is_reserved, normalise_username

User = get_user_model()
PASSWORD = "a-long-Secret-42"

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_rate_limits(settings):
    settings.ACCOUNT_RATE_LIMITS = False


def signup(client, username):
    return client.post(
        reverse("account_signup"),
        {"username": username, "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("fz1", "ｆｚ１"),  # full-width (NFKC)
        ("ｆｚ１", "FZ1"),
        ("strasse", "STRAßE"),  # casefold, not lower
        ("paypal", "раураl"),  # Cyrillic р, а, у
        ("kato", "κατο"),  # Greek look-alikes
        ("علی", "علي"),  # Arabic yeh beside Persian yeh
        ("کاوه", "كاوه"),  # Arabic kaf beside Persian keheh
        ("reza1", "reza۱"),  # Persian digit
        ("مریم", "مـریم"),  # tatweel
    ],
)
def test_a_look_alike_of_a_taken_name_is_refused(client, first, second):
    assert signup(client, first).status_code == 302
    client.post(reverse("account_logout"))
    response = signup(client, second)
    assert response.status_code == 200, second
    assert "username" in response.context["form"].errors
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    "name",
    [
        "admin",
        "Admin",
        "ADMINISTRATOR",
        "root",
        "moderator",
        "staff",
        "support",
        "system",
        "bot",
        "аdmin",
        "ａｄｍｉｎ",
        "admin_1",
        "support_team",
        "root42",
        "مدیر",
        "مدير",
        "پشتیبانی",
        "ربات",
        "ادمین",
    ],
)
def test_a_reserved_name_is_refused_at_sign_up(client, name):
    response = signup(client, name)
    assert response.status_code == 200, name
    assert "username" in response.context["form"].errors
    assert not User.objects.exists()


@pytest.mark.parametrize("name", ["rootbeer", "botanist", "modest", "علیرضا", "Ali_2026"])
def test_ordinary_names_are_still_accepted(client, name):
    assert not is_reserved(name)
    assert signup(client, name).status_code == 302
    assert User.objects.get().username == name


def test_the_stored_name_is_the_nfkc_form():
    user = User.objects.create_user(username="ｆｚ１", password=PASSWORD)
    user.refresh_from_db()
    assert user.username == "fz1" and user.username_key == "fz1"
    assert normalise_username("ｆｚ１") == "fz1"


def test_the_database_refuses_a_second_name_with_the_same_key(alice):
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="аlice", password=PASSWORD)  # Cyrillic а


def test_a_rename_keeps_the_key_in_step(alice):
    alice.username = "Alicia"
    alice.save(update_fields=["username"])
    alice.refresh_from_db()
    assert alice.username_key == "alicia"


def test_sign_in_by_the_key_finds_the_user(client):
    assert signup(client, "Kaveh").status_code == 302
    client.post(reverse("account_logout"))
    response = client.post(reverse("account_login"), {"login": "kaveh", "password": PASSWORD})
    assert response.status_code == 302
