"""Fixtures of the events' tests (issue 37): real rooms, the real play service."""

from __future__ import annotations

import pytest

from games import engine, services
from games.engine import CHANCE
from games.models import Match


@pytest.fixture(autouse=True)
def instant_table(settings):
    """No pause between rounds, no bots' pause, no clock of our own: the test drives every move."""
    settings.TABLE = {**settings.TABLE, "BOT_DELAY": 0, "ROUND_PAUSE": 0}
    settings.DEADLINES = "inprocess"
    # E-1's strong bots, with fewer sampled worlds than the site's (a whole
    # day's play costs minutes at 400): still never cut by time, so the same
    # play meets the same answer (test_challenge.py checks it).
    settings.EVENTS_CHALLENGE_BOT_WORLDS = 8


@pytest.fixture(autouse=True)
def one_day(monkeypatch):
    """E-1's day is the site's date (Asia/Tehran): a test that ran across its
    midnight (20:30 UTC) saw the day change under it, its entry made on one
    day and its page asked on the next. Each test keeps the date it began on."""
    from events import challenge

    day = challenge.today()
    monkeypatch.setattr(challenge, "today", lambda: day)
    return day


def play_out(match_id: int, limit: int = 3000, person=None) -> Match:
    """Bots and the dealer through their deadlines (``services.expire``), a
    person's seat through ``services.play`` with ``person(game, state, seat)``
    (default: the engine's automatic move)."""
    match = Match.objects.get(pk=match_id)
    game = engine.get(match.game)
    for _ in range(limit):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return match
        to_act = game.to_act(match.state)
        seat = min(to_act)
        if seat == CHANCE or (match.player_at(seat) or {}).get("bot"):
            assert services.expire(match.pk, match.version) is not None
            continue
        choose = person or (lambda g, s, seat: g.auto_action(s, seat))
        services.play(match.pk, choose(game, match.state, seat), seat=seat, version=match.version)
    raise AssertionError("the match did not end")
