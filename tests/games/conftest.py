"""Fixtures of the play service's tests."""

import pytest


@pytest.fixture(autouse=True)
def no_fair_wait(settings):
    """No browser sends fair deal values here: every human seat gets its
    substitute at once (F-4), so a match deals as soon as it starts."""
    settings.FAIR_WAIT_SECONDS = 0
