"""M-1, M-5: the Play now buttons, the waiting page, and the lobby's socket."""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from config.asgi import application
from playnow import lobby, services
from playnow.models import Table
from rooms.models import Room, Seat
from tests.rooms.conftest import session_key_for

pytestmark = pytest.mark.django_db


def test_m1_home_and_lobby_show_a_play_now_button_per_preset(client, alice):
    client.force_login(alice)
    home = client.get("/").content.decode()
    lobby_page = client.get(reverse("rooms:lobby")).content.decode()
    for key in ("hokm4", "hokm2", "shelem4", "shelem4j", "shelem2", "bridge"):
        assert f'data-testid="play-now-{key}"' in home
        assert f'data-testid="play-now-{key}"' in lobby_page
    assert 'data-testid="create-hokm4"' in lobby_page  # more options: today's room creation


def test_m1_press_waits_then_bots_now_takes_the_player_to_the_table(client, alice):
    client.force_login(alice)
    response = client.post(reverse("playnow:press", args=["hokm4"]))
    table = Table.objects.get()
    assert response.url == reverse("playnow:wait", args=[table.pk])
    page = client.get(response.url).content.decode()
    assert 'data-testid="bots-now"' in page and "alice" in page
    state = client.get(reverse("playnow:wait_status", args=[table.pk])).json()
    assert state["started"] is False and 19 < state["seconds_left"] <= 20
    assert [s["name"] for s in state["seats"]] == ["alice", None, None, None]
    response = client.post(reverse("playnow:bots", args=[table.pk]))
    assert response.url == table.room.get_absolute_url()
    assert client.get(reverse("playnow:wait", args=[table.pk])).url == table.room.get_absolute_url()


def test_m1_a_bad_preset_says_so_and_opens_nothing(client, alice, settings):
    client.force_login(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.post(reverse("playnow:press", args=["poker"]), follow=True)
    assert Room.objects.count() == 0
    assert "There is no such game to play now." in response.content.decode()


def test_m1_signed_out_visitors_are_sent_to_sign_in(client):
    response = client.post(reverse("playnow:press", args=["hokm4"]))
    assert response.status_code == 302 and "login" in response.url


def test_m5_snapshot_lists_waiting_tables_with_ratings_and_people_playing(alice, bob, charlie):
    services.press(alice, "hokm4")
    t2 = services.press(bob, "hokm2")
    services.press(charlie, "hokm2")
    snap = lobby.snapshot("en")
    assert [t["game"] for t in snap["waiting"]] == ["hokm4"]
    seat = snap["waiting"][0]["seats"][0]
    assert seat == {"name": "alice", "bot": False, "rating": 1500, "provisional": True}
    assert snap["waiting"][0]["free"] == 3
    assert [t["code"] for t in snap["watch"]] == [t2.room.code]
    assert snap["playing"] == 2 and snap["playing_text"] == "2 people playing now"


def test_m5_practice_table_whose_only_person_left_leaves_the_lobby(alice):
    table = services.press(alice, "hokm4", bots_now=True)
    assert [t["code"] for t in lobby.snapshot("en")["watch"]] == [table.room.code]
    from rooms import services as room_service

    room_service.leave(table.room, alice, confirm=True)
    assert Room.objects.get(pk=table.room_id).status == "finished"
    assert lobby.snapshot("en")["watch"] == []
    from games.models import Match

    match = Match.objects.get(room_id=table.room_id)  # closed for real: its match ended, not left running
    assert match.status == "abandoned" and match.next_deadline is None
    assert not Seat.objects.filter(room_id=table.room_id, user__isnull=False).exists()


def test_m5_a_table_nobody_is_at_for_ten_minutes_is_closed(alice, bob, later):
    practice = services.press(alice, "hokm4", bots_now=True)
    waiting = services.press(bob, "shelem4")
    assert lobby.close_abandoned() == 0  # first seen now
    later(9 * 60)
    assert lobby.close_abandoned() == 0
    later(61)
    assert lobby.close_abandoned() == 2
    assert Room.objects.get(pk=practice.room_id).status == "finished"
    assert Room.objects.get(pk=waiting.room_id).status == "finished"
    snap = lobby.snapshot("en")
    assert snap["waiting"] == [] and snap["watch"] == []


def test_m5_a_connected_person_keeps_his_table_open(alice, later):
    from infra import presence

    table = services.press(alice, "hokm4")
    lobby.close_abandoned()
    later(11 * 60)
    presence.store().touch(table.room.code, "conn-1", f"u:{alice.pk}", 1)
    assert lobby.close_abandoned() == 0
    assert Room.objects.get(pk=table.room_id).status == "waiting"


@pytest.mark.django_db(transaction=True)
async def test_m5_the_lobby_socket_sends_changes_without_a_reload(settings, alice, bob):
    from asgiref.sync import sync_to_async

    settings.LOBBY_TICK_SECONDS = 0.05
    key = await sync_to_async(session_key_for)(None)
    comm = WebsocketCommunicator(
        application,
        "/ws/lobby/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", f"sessionid={key}".encode())],
    )
    connected, _ = await comm.connect()
    assert connected
    first = json.loads(await comm.receive_from(timeout=5))
    assert first["type"] == "lobby" and first["waiting"] == []
    table = await sync_to_async(services.press)(alice, "hokm2")
    update = json.loads(await comm.receive_from(timeout=5))
    assert [t["code"] for t in update["waiting"]] == [table.room.code]
    await sync_to_async(services.press)(bob, "hokm2")
    update = json.loads(await comm.receive_from(timeout=5))
    assert update["waiting"] == [] and [t["code"] for t in update["watch"]] == [table.room.code]
    assert update["playing"] == 2
    # Nothing changed: nothing is sent (coalesced; moves are not in the snapshot).
    assert await comm.receive_nothing(timeout=0.3)
    # Moves at the table change nothing in the lobby: nothing is sent for them.
    played = await sync_to_async(_play_some)(table.room_id, 6)
    assert played >= 6
    assert await comm.receive_nothing(timeout=0.5)
    await comm.disconnect()


def test_m5_a_private_practice_table_whose_person_is_gone_ten_minutes_is_closed(alice, later):
    from rooms import services as room_service

    room = room_service.practice(alice, "hokm4")
    assert lobby.close_abandoned() == 0
    later(10 * 60 + 1)
    assert lobby.close_abandoned() == 1
    room.refresh_from_db()
    assert room.status == "finished"
    assert not Seat.objects.filter(room=room, user__isnull=False).exists()


def _play_some(room_id: int, count: int) -> int:
    """``count`` actions of the room's match through the play service (dealer and
    automatic moves); returns how many versions the match moved on."""
    from games import accept, engine
    from games import services as play_service
    from games.engine import CHANCE
    from games.models import Match, Move

    match_id = Match.objects.get(room_id=room_id).pk
    before = Match.objects.get(pk=match_id).version
    for _ in range(count):
        match = Match.objects.get(pk=match_id)
        game = engine.get(match.game)
        seat = min(game.to_act(match.state))
        if seat == CHANCE:
            play_service.play(match_id, accept.shuffled(match, game), seat=CHANCE, actor=Move.Actor.DEALER)
        else:
            play_service.play(
                match_id, game.auto_action(match.state, seat), seat=seat, actor=Move.Actor.CLOCK
            )
    return Match.objects.get(pk=match_id).version - before


def test_m5_the_snapshot_words_its_numbers_in_persian_digits(alice, bob):
    services.press(alice, "hokm2")
    services.press(bob, "hokm2")
    assert lobby.snapshot("fa")["playing_text"].startswith("۲ ")
    assert lobby.snapshot("en")["playing_text"] == "2 people playing now"


@pytest.mark.parametrize("language,shown", [("fa", "۱۵۰۰؟"), ("en", "1500?")])
def test_m2_the_waiting_page_marks_a_provisional_rating_in_the_pages_own_script(
    client, alice, settings, language, shown
):
    client.force_login(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.post(reverse("playnow:press", args=["hokm4"]))
    page = client.get(response.url).content.decode()
    assert f'<span class="rating">{shown}</span>' in page
    other = "?" if language == "fa" else "؟"
    assert f"{shown[:-1]}{other}" not in page
