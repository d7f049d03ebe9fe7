"""Sign-up, sign-in, sign-out and usernames (issue: Foundation)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

User = get_user_model()
PASSWORD = "a-long-Secret-42"


def signup(client, username, password=PASSWORD, email=""):
    return client.post(
        reverse("account_signup"),
        {"username": username, "email": email, "password1": password, "password2": password},
    )


@pytest.mark.django_db
def test_it_signs_up_signs_out_and_signs_in_again(client):
    response = signup(client, "alice")
    assert response.status_code == 302
    user = User.objects.get(username="alice")
    assert user.profile.show_online and user.profile.card_sounds and not user.profile.hide_reactions
    assert client.get(reverse("home")).context["user"].is_authenticated

    client.post(reverse("account_logout"))
    assert not client.get(reverse("home")).context["user"].is_authenticated

    response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"].username == "alice"


@pytest.mark.django_db
def test_it_signs_in_ignoring_the_case_of_the_username(client):
    signup(client, "Alice")
    client.post(reverse("account_logout"))
    client.post(reverse("account_login"), {"login": "aLICE", "password": PASSWORD})
    assert client.get(reverse("home")).context["user"].username == "Alice"


@pytest.mark.django_db
def test_it_refuses_a_duplicate_username_ignoring_case(client):
    assert signup(client, "Alice").status_code == 302
    client.post(reverse("account_logout"))
    response = signup(client, "aLiCe")
    assert response.status_code == 200
    assert "username" in response.context["form"].errors
    assert User.objects.filter(username__iexact="alice").count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_database_itself_refuses_a_case_variant(alice):
    from django.db import IntegrityError

    with pytest.raises(IntegrityError):
        User.objects.create_user(username="ALICE", password=PASSWORD)


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["علی_۱۳", "bob_42", "رضا"])
def test_it_accepts_persian_letters_digits_and_underscore(client, username):
    assert signup(client, username).status_code == 302
    assert User.objects.filter(username=username).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["ab", "a" * 21, "bad name", "x-y", "semi;colon"])
def test_it_refuses_bad_usernames(client, username):
    response = signup(client, username)
    assert response.status_code == 200
    assert "username" in response.context["form"].errors
    assert not User.objects.exists()


@pytest.mark.django_db
def test_it_changes_the_password(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": "correct-horse-battery", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


@pytest.mark.django_db
def test_preferences_are_saved(client, alice):
    client.force_login(alice)
    client.post(
        reverse("preferences"),
        {"show_online": "", "card_sounds": "on", "hide_reactions": "on", "language": "en"},
    )
    alice.profile.refresh_from_db()
    assert (alice.profile.show_online, alice.profile.card_sounds, alice.profile.hide_reactions) == (
        False,
        True,
        True,
    )
    assert alice.profile.language == "en"


@pytest.mark.django_db
def test_failed_sign_ins_are_rate_limited(client, alice):
    client.cookies["lang"] = "en"
    for _ in range(6):
        response = client.post(reverse("account_login"), {"login": "alice", "password": "wrong-password"})
    assert "Too many failed login attempts" in response.content.decode()
    # allauth's login_failed limit (5 per 5 minutes per user): even the right password is refused now
    response = client.post(reverse("account_login"), {"login": "alice", "password": "correct-horse-battery"})
    assert response.status_code == 200 and not response.context["user"].is_authenticated
