from __future__ import annotations

import pytest

from games import clock


@pytest.fixture(autouse=True)
def quiet_play_now(settings):
    settings.DEADLINES = "inprocess"
    settings.TABLE = {**settings.TABLE, "BOT_DELAY": 0.01, "ROUND_PAUSE": 0.01}
    settings.FAIR_WAIT_SECONDS = 0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.PLAY_NOW_TIMERS = False  # the tests drive the sweep themselves
    settings.PLAY_NOW_BOT_WAIT = 20
    yield
    clock.set_now(None)
    clock.settle()


@pytest.fixture
def later():
    """Move the play service's clock forward by ``seconds``."""
    offset = [0.0]
    import time

    clock.set_now(lambda: time.time() + offset[0])

    def move(seconds: float):
        offset[0] += seconds

    return move


@pytest.fixture
def people(make_user):
    return [make_user(f"n{i}") for i in range(8)]
