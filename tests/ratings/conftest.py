import pytest

from tests.leaderboard.conftest import quiet_table  # noqa: F401 - the same quiet table


@pytest.fixture(autouse=True)
def no_play_now_timers(settings):
    settings.PLAY_NOW_TIMERS = False
