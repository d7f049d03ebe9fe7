"""R-5 with R-9: a moderator's mute refuses the player's reactions at the table, and only his."""

import pytest

from friends import moderation
from games.errors import PlayError
from rooms import services as room_service
from tests.rooms.conftest import make_room

pytestmark = pytest.mark.django_db


def test_a_muted_player_cannot_react_and_the_others_still_can(alice, bob, make_user, settings):
    settings.DEADLINES = "inprocess"
    moderator = make_user("modder", is_staff=True)
    room = make_room(alice, [bob], game="hokm2")
    moderation.mute_reactions(bob, moderator, "spam", minutes=30)
    with pytest.raises(PlayError) as caught:
        room_service.react(room, bob, "clap")
    assert caught.value.code == "muted"
    assert room_service.react(room, alice, "clap") == 1
