"""The security suite shares the table's socket fixtures (tests/rooms/conftest.py)."""

import pytest  # noqa: E402

from tests.rooms.conftest import connect, fast_table  # noqa: F401 - fixtures


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Sign-ups and sign-ins by the dozen: a cheap hasher (tests only)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
