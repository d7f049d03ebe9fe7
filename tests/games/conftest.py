"""Fixtures of the play service's tests."""

import pytest


@pytest.fixture(autouse=True)
def no_fair_wait(settings):
    """No browser sends fair deal values here: every human seat gets its
    substitute at once (F-4), so a match deals as soon as it starts."""
    settings.FAIR_WAIT_SECONDS = 0


@pytest.fixture
def push_set_kept(monkeypatch):
    """The tests that count a move's statements: the set of players with a push
    subscription (notify/push.py) is read again from the database every few
    seconds on whichever thread asks, so a long suite sometimes lands that one
    read inside a counted move. Keep it fresh for the test's length."""
    from notify import push

    monkeypatch.setattr(push, "_subscribed", (float("inf"), frozenset()))
