from tests.leaderboard.conftest import quiet_table  # noqa: F401 - the same quiet table
