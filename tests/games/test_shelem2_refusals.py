"""Shelem for two through the play service (S2-2, S2-4, issue 34): a hand card
played in the column phase is refused with ``column_card_due`` and a message
in the player's language that says a column card is due; nothing changes."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import engine, services
from games.engine import CHANCE
from games.errors import PlayError
from games.models import Match
from rooms import services as room_service
from tests.rooms.conftest import make_room

pytestmark = pytest.mark.django_db(transaction=True)


def to_column_phase(match: Match):
    """Auto-play until a seat is to play the third card of a trick (from his columns)."""
    game = engine.get("shelem2")
    for _ in range(400):
        match.refresh_from_db()
        state = match.state
        to_act = game.to_act(state)
        if state.get("phase") == "play" and len(state["trick"]) == 2 and to_act and CHANCE not in to_act:
            return game, state, min(to_act)
        if CHANCE in to_act:
            services.expire(match.pk, match.version)
            continue
        seat = min(to_act)
        services.play(match.pk, game.auto_action(state, seat), seat=seat, version=match.version)
    raise AssertionError("no column phase reached")


def test_s2_4_a_hand_card_in_the_column_phase_says_a_column_card_is_due(alice, bob, settings):
    settings.DEADLINES = "inprocess"
    room = make_room(alice, [bob], game="shelem2")
    match = room_service.start(room, alice)
    game, state, seat = to_column_phase(match)
    hand_card = state["hands"][seat - 1][0]
    version = match.version
    with pytest.raises(PlayError) as refused:
        services.play(match.pk, {"type": "play", "card": hand_card}, seat=seat, version=version)
    assert refused.value.code == "column_card_due"
    with translation.override("en"):
        english = refused.value.as_frame()["message"]
    with translation.override("fa"):
        persian = refused.value.as_frame()["message"]
    assert "column card is due" in english and "not in your hand" not in english
    assert "ستون" in persian
    match.refresh_from_db()
    assert match.version == version and match.state == state  # bad input changes nothing
