"""Issue 21: a bot seat's level, chosen when it is added, is the level it plays at,
through the same play service as people (R-1, L-2)."""

import pytest

from games import clock, engine
from games import services as play_service
from games.engine import CHANCE
from games.errors import PlayError
from games.models import Match, Move
from rooms import services as room_service
from rooms.models import Seat

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_bot_seat_keeps_its_level_and_plays_legal_moves_through_the_play_service(
    alice, settings, monkeypatch
):
    settings.DEADLINES = "inprocess"
    room = room_service.create_room(alice, "hokm4", {"middle_card": False})
    with pytest.raises(PlayError) as caught:
        room_service.set_bot(room, alice, 2, level="genius")
    assert caught.value.code == "bad_level"
    for number, level in ((2, "strong"), (3, "easy"), (4, "normal")):
        room_service.set_bot(room, alice, number, level=level)
    assert Seat.objects.get(room=room, number=2).bot_level == "strong"
    seen = []
    from games import bots

    real = bots.bot_action

    def spy(game, state, seat, level="normal", seed=0):
        seen.append((seat, level))
        return real(game, state, seat, level="easy", seed=seed)  # quick, whatever was asked

    monkeypatch.setattr(play_service, "bot_action", spy)
    match = room_service.start(room, alice)
    assert {p["seat"]: p.get("level") for p in match.players} == {
        1: None,
        2: "strong",
        3: "easy",
        4: "normal",
    }
    game = engine.get("hokm4")
    for _ in range(40):
        match.refresh_from_db()
        to_act = game.to_act(match.state)
        seat = min(to_act)
        if seat == 1:
            play_service.play(match.pk, game.auto_action(match.state, 1), user=alice, version=match.version)
            continue
        Match.objects.filter(pk=match.pk).update(deadlines={str(seat): clock.now() - 1})
        assert play_service.expire(match.pk, match.version) is not None
    levels = dict(seen)
    assert {levels.get(2), levels.get(3), levels.get(4)} <= {"strong", "easy", "normal"}
    assert all(levels[s] == {2: "strong", 3: "easy", 4: "normal"}[s] for s in levels if s != CHANCE)
    assert Move.objects.filter(match=match, actor=Move.Actor.BOT).count() == len(seen)
