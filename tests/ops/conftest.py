from tests.rooms.conftest import connect, fast_table  # noqa: F401 - the table's fixtures
