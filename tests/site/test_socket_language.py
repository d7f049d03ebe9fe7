"""A socket's texts are worded in the page's language, chosen as the page's
was: the switcher's cookie, else the signed-in user's preference, else the
browser's Accept-Language, else Persian. The home page's "people playing now"
line comes over the lobby's socket: an English browser that never touched the
switcher read it in Persian beside an English page (the sockets looked at the
cookie and the profile only)."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from config.asgi import application
from infra.websocket import scope_language
from tests.rooms.conftest import session_key_for


def _scope(cookie=None, accept=None):
    headers = [(b"accept-language", accept.encode())] if accept else []
    return {"cookies": {"lang": cookie} if cookie else {}, "headers": headers}


class _User:
    is_authenticated = True

    def __init__(self, language):
        self.profile = type("P", (), {"language": language})()


@pytest.mark.parametrize(
    "cookie,user,accept,language",
    [
        (None, None, None, "fa"),
        (None, None, "en-US,en;q=0.9", "en"),
        (None, None, "de-DE,de;q=0.9,en;q=0.5", "en"),
        (None, None, "de-DE", "fa"),
        (None, None, "*", "fa"),
        (None, None, "fa-IR,fa;q=0.9,en;q=0.8", "fa"),
        ("fa", None, "en-US", "fa"),  # the switcher wins over the browser
        (None, _User("fa"), "en-US", "fa"),  # the preference wins over the browser
        ("en", _User("fa"), None, "en"),  # the switcher wins over the preference
        (None, AnonymousUser(), "en", "en"),
        ("xx", None, "en", "en"),  # an unknown cookie is ignored
    ],
)
def test_a_sockets_language_is_chosen_as_the_pages(settings, cookie, user, accept, language):
    settings.LANGUAGE_COOKIE_NAME = "lang"
    assert scope_language(_scope(cookie, accept), user) == language


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("accept,expected", [("en-US,en;q=0.9", "0 people playing now"), ("fa-IR", "۰ نفر")])
async def test_m5_the_lobby_socket_words_its_line_in_the_browsers_language(accept, expected):
    key = await sync_to_async(session_key_for)(None)
    comm = WebsocketCommunicator(
        application,
        "/ws/lobby/",
        headers=[
            (b"origin", b"http://testserver"),
            (b"cookie", f"sessionid={key}".encode()),
            (b"accept-language", accept.encode()),
        ],
    )
    connected, _ = await comm.connect()
    assert connected
    first = json.loads(await comm.receive_from(timeout=5))
    await comm.disconnect()
    assert first["type"] == "lobby"
    assert first["playing_text"].startswith(expected)
