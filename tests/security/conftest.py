"""The security suite shares the table's socket fixtures (tests/rooms/conftest.py)."""

from tests.rooms.conftest import connect, fast_table  # noqa: F401 - fixtures
