"""The browser suite's sign-in door (tests/browser/urls.py) exists only in
that suite's server: the site's URLs have no such path, so no person can be
made, or signed in, without the sign-up form's checks."""

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db


def test_the_site_has_no_test_sign_in_door(client):
    assert settings.ROOT_URLCONF == "config.urls"
    response = client.post("/__tests__/sign-in/", {"username": "intruder", "lang": "en"})
    assert response.status_code == 404
    assert not get_user_model().objects.filter(username="intruder").exists()
    assert "_auth_user_id" not in client.session
