"""The sockets' shared transport: the gate (the Origin must be the site's
own, issue 14, item 7) and the consumer loop with one queue (``OneQueue``,
issue 13; the table's socket and the arena's use it).

Channels' AllowedHostsOriginValidator compares the Origin's host name with
ALLOWED_HOSTS and ignores the scheme and the port, so a page served by any
other program on the same machine (``http://127.0.0.1:9999``) could open a
socket with the user's cookie. Here an Origin is accepted only when its
scheme, host and port are those of

- the site itself, as the browser reached it: the Host header (which must
  itself be one of ALLOWED_HOSTS) with the socket's scheme (ws -> http,
  wss -> https, or https behind a TLS proxy that says so); or
- an entry of CSRF_TRUSTED_ORIGINS (the same list Django's CSRF check trusts).

A request without a Host header (only test harnesses send one) falls back
to the server's address, or else to an ALLOWED_HOSTS name on the scheme's
default port. A socket path or query string with a NUL byte is refused too
(PostgreSQL refuses NUL in text).
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from channels.auth import AuthMiddleware
from channels.auth import get_user as channels_get_user
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer
from channels.security.websocket import WebsocketDenier
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_key(origin: str) -> tuple[str, str, int] | None:
    """``scheme://host[:port]`` -> (scheme, host, port), or None when it is not one."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    if parts.username is not None or parts.password is not None or parts.query or parts.fragment:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def _headers(scope) -> dict[bytes, bytes]:
    return {name.lower(): value for name, value in scope.get("headers", [])}


def _scheme(scope, headers) -> str:
    if scope.get("scheme") in ("wss", "https"):
        return "https"
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        name, value = proxy
        header = name.removeprefix("HTTP_").lower().replace("_", "-").encode()
        if headers.get(header, b"").decode("latin-1").split(",")[0].strip() == value:
            return "https"
    return "http"


def site_origins(scope) -> set[tuple[str, str, int]]:
    """The origins this socket's page may come from."""
    headers = _headers(scope)
    scheme = _scheme(scope, headers)
    allowed = {key for key in map(origin_key, settings.CSRF_TRUSTED_ORIGINS) if key}
    host = headers.get(b"host", b"").decode("latin-1").strip()
    if not host and scope.get("server"):
        server_host, server_port = scope["server"][0], scope["server"][1]
        host = f"{server_host}:{server_port}" if server_port else str(server_host)
    if host:
        domain, _port = split_domain_port(host)
        if domain and validate_host(domain, settings.ALLOWED_HOSTS):
            key = origin_key(f"{scheme}://{host}")
            if key:
                allowed.add(key)
    else:
        for name in settings.ALLOWED_HOSTS:
            if name and "*" not in name and not name.startswith("."):
                allowed.add((scheme, name.lower(), DEFAULT_PORTS[scheme]))
    return allowed


def origin_allowed(scope) -> bool:
    origin = _headers(scope).get(b"origin")
    if not origin:
        return False
    key = origin_key(origin.decode("latin-1"))
    return key is not None and key in site_origins(scope)


class SiteOriginValidator:
    """ASGI middleware: deny a socket whose Origin is not the site's own."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            path = scope.get("path", "")
            query = scope.get("query_string", b"")
            if not origin_allowed(scope) or "\x00" in path or b"%00" in query or b"\x00" in query:
                return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)


class LaneAuthMiddleware(AuthMiddleware):
    """Channels' AuthMiddleware, with the session and the user read on the
    arrivals' threads (infra/lanes.py, the ``hello`` lane) instead of Channels'
    one thread for every database call of the process: with a thousand
    tables opening at once, 4,000 sockets' users were read one at a time
    there, a socket every 9 ms (issue 13). A connection that closes while
    its user is read leaves the read to finish on its thread."""

    async def resolve_scope(self, scope):
        from infra.lanes import db

        scope["user"]._wrapped = await db(_get_user, lane="hello")(scope)


def _get_user(scope):
    """Channels' ``get_user`` (the session's backend reads the user: the
    site's own reads his profile in the same statement, accounts/backends.py)."""
    return channels_get_user.func(scope)


def LaneAuthMiddlewareStack(inner):
    """``AuthMiddlewareStack`` with ``LaneAuthMiddleware``."""
    return CookieMiddleware(SessionMiddleware(LaneAuthMiddleware(inner)))


async def _pump(receive, inbox: asyncio.Queue) -> None:
    """The server's frames into ``inbox`` (``OneQueue.__call__``)."""
    while True:
        inbox.put_nowait(await receive())


class OneQueue:
    """Channels' consumer loop, with one queue for everything (issue 13): a
    mixin before Channels' consumer class.

    Channels waits on two tasks at once for every message (the socket's
    next frame and the layer's next message: ``asyncio.wait``, and a new
    task after each message). Here the layer puts this connection's
    messages, still serialised, into the same queue the server puts the
    socket's frames in (``new_channel_into``, infra/layers.py), and one
    ``get`` serves both, in the order they came; the layer's
    ``layer.resumed`` (its pub/sub connection back, issue 39) reaches the
    socket the same way. Where that queue is not an ``asyncio.Queue`` of
    ours to share (another server), a task moves the frames into a queue of
    our own; without the lean layer (the embedded default's in-memory one),
    Channels' own loop runs."""

    async def __call__(self, scope, receive, send):
        layer = get_channel_layer(self.channel_layer_alias)
        into = getattr(layer, "new_channel_into", None)
        if into is None:
            return await super().__call__(scope, receive, send)
        self.scope = scope
        self.channel_layer = layer
        self.base_send = send
        shared = getattr(receive, "__self__", None)
        pump = None
        if type(shared) is asyncio.Queue and getattr(receive, "__func__", None) is asyncio.Queue.get:
            inbox = shared
        else:
            inbox = asyncio.Queue()
            pump = asyncio.ensure_future(_pump(receive, inbox))
        self.channel_name = await into(inbox)
        deserialize = layer.deserialize
        try:
            while True:
                message = await inbox.get()
                if type(message) is bytes:
                    message = deserialize(message)
                await self.dispatch(message)
        except StopConsumer:
            pass
        finally:
            if pump is not None:
                pump.cancel()
            await layer.release(self.channel_name)


def scope_language(scope, user=None) -> str:
    """The language a socket's texts are worded in, chosen as the page's was
    (Django's LocaleMiddleware, then accounts' UserLanguageMiddleware): the
    switcher's cookie, else the signed-in user's preference, else the
    browser's Accept-Language, else the site's default (Persian)."""
    from django.utils.translation import get_supported_language_variant
    from django.utils.translation.trans_real import parse_accept_lang_header

    known = dict(settings.LANGUAGES)
    choice = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
    if choice in known:
        return choice
    if user is not None and getattr(user, "is_authenticated", False):
        profile = getattr(user, "profile", None)
        if profile is not None and profile.language in known:
            return profile.language
    for name, value in scope.get("headers") or ():
        if name == b"accept-language":
            header = value.decode("latin-1")[:255]
            for code, _q in parse_accept_lang_header(header):
                if code == "*":
                    break
                try:
                    return get_supported_language_variant(code)
                except LookupError:
                    continue
            break
    return settings.LANGUAGE_CODE
