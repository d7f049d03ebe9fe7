"""Issue 34: a sign-up whose two passwords differ says so, even when the
first is also too short (allauth skipped the comparison then)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db

MISMATCH = "You must type the same password each time."


def post(client, password1, password2, lang="en"):
    client.cookies["lang"] = lang
    return client.post(
        reverse("account_signup"),
        {"username": "newcomer", "email": "", "password1": password1, "password2": password2},
    )


def test_a_short_password_typed_differently_hears_both(client):
    response = post(client, "abc", "abd")
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert MISMATCH in errors["password2"]
    assert errors["password1"]  # and still that it is too short
    assert not get_user_model().objects.filter(username="newcomer").exists()


def test_a_good_password_typed_differently_hears_it_once(client):
    errors = post(client, "a-long-Secret-42", "a-long-Secret-43").context["form"].errors
    assert errors["password2"] == [MISMATCH]
    assert "password1" not in errors


def test_the_same_short_password_twice_only_hears_too_short(client):
    errors = post(client, "abc", "abc").context["form"].errors
    assert "password2" not in errors and errors["password1"]


def test_in_persian_the_mismatch_is_persian_too(client):
    response = post(client, "abc", "abd", lang="fa")
    html = response.content.decode()
    (message,) = response.context["form"].errors["password2"]
    assert message != MISMATCH and message in html
