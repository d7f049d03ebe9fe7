"""Issue 14, item 7: a table socket is accepted only from the site's own
origin (scheme, host and port) or a CSRF_TRUSTED_ORIGINS entry; another
program on the same host (another port) or scheme is refused, even with the
user's cookie. A NUL byte in the socket's path is refused too (item 6)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from infra.websocket import origin_key
from tests.rooms.conftest import make_room, session_key_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


async def opens(path, origin, host=None, key=None, scheme=None) -> bool:
    headers = []
    if host is not None:
        headers.append((b"host", host.encode()))
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if key:
        headers.append((b"cookie", f"sessionid={key}".encode()))
    comm = WebsocketCommunicator(application, path, headers=headers)
    if scheme:
        comm.scope["scheme"] = scheme
    connected, _ = await comm.connect(timeout=5)
    if connected:
        await comm.disconnect()
    return connected


@pytest.mark.parametrize(
    ("origin", "host", "accepted"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", True),  # the site itself
        ("http://localhost:8000", "localhost:8000", True),
        ("http://127.0.0.1:9999", "127.0.0.1:8000", False),  # another program on this host
        ("http://127.0.0.1", "127.0.0.1:8000", False),  # port 80 is not 8000
        ("https://127.0.0.1:8000", "127.0.0.1:8000", False),  # another scheme
        ("http://localhost:8000", "127.0.0.1:8000", False),  # another host name
        ("http://evil.example:8000", "evil.example:8000", False),  # not one of ALLOWED_HOSTS
        ("null", "127.0.0.1:8000", False),  # sandboxed frame, file://
        ("http://user@127.0.0.1:8000", "127.0.0.1:8000", False),
        (None, "127.0.0.1:8000", False),  # no Origin at all
        ("http://testserver", None, True),  # no Host (test harness): listed name, default port
        ("http://testserver:8080", None, False),
    ],
)
async def test_only_the_sites_own_origin_opens_a_socket(alice, bob, origin, host, accepted):
    room = await sync_to_async(make_room)(alice, [bob], game="hokm2")
    key = await sync_to_async(session_key_for)(alice)
    assert await opens(f"/ws/table/{room.code}/", origin, host, key) is accepted


async def test_a_trusted_origin_is_accepted_and_its_port_matters(settings, alice, bob):
    settings.CSRF_TRUSTED_ORIGINS = ["https://takhteh.example"]
    room = await sync_to_async(make_room)(alice, [bob], game="hokm2")
    path = f"/ws/table/{room.code}/"
    assert await opens(path, "https://takhteh.example", "127.0.0.1:8000")
    assert await opens(path, "https://takhteh.example:443", "127.0.0.1:8000")
    assert not await opens(path, "https://takhteh.example:8443", "127.0.0.1:8000")
    assert not await opens(path, "http://takhteh.example", "127.0.0.1:8000")


async def test_a_secure_socket_wants_an_https_origin(alice, bob):
    room = await sync_to_async(make_room)(alice, [bob], game="hokm2")
    path = f"/ws/table/{room.code}/"
    assert await opens(path, "https://localhost", "localhost", scheme="wss")
    assert not await opens(path, "http://localhost", "localhost", scheme="wss")


async def test_a_nul_in_the_socket_path_is_refused(alice):
    assert not await opens("/ws/table/ab\x00cd/", "http://testserver")
    assert not await opens("/ws/table/abcd/?x=%00", "http://testserver")


def test_origin_key_normalises_default_ports_and_case():
    assert origin_key("HTTP://LocalHost") == ("http", "localhost", 80)
    assert origin_key("https://a.example:443") == ("https", "a.example", 443)
    assert origin_key("ftp://a.example") is None
    assert origin_key("http://a.example:99999") is None
    assert origin_key("http://a.example/path") is None
