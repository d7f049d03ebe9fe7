"""Django's Redis cache with one client, and so one connection pool, per process.

Django keeps a cache object per context (``django.core.cache.caches`` is an
asgiref ``Local``): under Daphne every WebSocket connection and every request
runs in a context of its own, so each made a new ``RedisCacheClient`` with a
new pool, and its first cache call opened a new TCP connection to Redis (a
name lookup, a connect and a handshake). At a storm of arrivals that was a
good part of each connection's hello (issue 13, profiled). The client is
thread-safe (redis-py's pool is), so every cache object of the process with
the same servers and options shares one.

And one ``redis.Redis`` per pool: Django's client makes a new one for every
call (``get_client``), whose table of reply callbacks alone cost about
0.2 ms of CPU, as much as the call itself (issue 39: two of them per
arriving socket, the session's read and the presence's signature).
"""

from __future__ import annotations

import functools
import re
import threading
import time
from collections import OrderedDict

from django.conf import settings
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.http import HttpResponse
from django.utils.functional import cached_property

_clients: dict = {}
_lock = threading.Lock()


class ReusedClients(RedisCacheClient):
    """Django's client, with one ``redis.Redis`` per connection pool (thread-safe, as its pool)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._reused: dict = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._reused.get(index)
        if client is None:
            with _lock:
                client = self._reused.get(index)
                if client is None:
                    pool = self._pools.get(index)
                    if pool is None:
                        pool = self._pools[index] = self._pool_class.from_url(
                            self._servers[index], **self._pool_options
                        )
                    client = self._reused[index] = self._client(connection_pool=pool)
        return client


class SharedRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = ReusedClients

    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
            return client


# --- What everyone sees alike, computed once for everyone (issue 33) ------------------------
#
# A page's part that is the same for every visitor (the leaderboard's page, a
# player's statistics, the count of open tables) is kept in the cache for a
# few seconds, under a generation of its topic: whoever changes what it is
# made of calls ``touch(topic)`` (after commit), and the next reader makes it
# anew. One round trip reads the value and its topic's generation together.


def _generation_key(topic: str) -> str:
    return f"shared-gen:{topic}"


def shared(key: str, make, seconds: float, topic: str):
    """``make()``, or its copy made less than ``seconds`` ago in ``topic``'s current generation."""
    from django.core.cache import cache

    gen_key, value_key = _generation_key(topic), f"shared:{topic}:{key}"
    try:
        found = cache.get_many([gen_key, value_key])
    except Exception:  # noqa: BLE001 - the cache down: the page is made without it
        return make()
    generation = found.get(gen_key, 0)
    kept = found.get(value_key)
    if kept is not None and kept[0] == generation:
        return kept[1]
    value = make()
    try:
        cache.set(value_key, (generation, value), seconds)
    except Exception:  # noqa: BLE001
        pass
    return value


def touch(topic: str) -> None:
    """Every ``shared`` copy of ``topic`` is out of date from now on."""
    from django.core.cache import cache

    key = _generation_key(topic)
    try:
        try:
            cache.incr(key)
        except ValueError:  # no generation yet
            cache.add(key, 1, None) or cache.incr(key)
    except Exception:  # noqa: BLE001 - the cache down: copies expire by their own time
        pass


def touch_on_commit(topic: str) -> None:
    """``touch`` now and again once the transaction commits: a reader between the
    two may keep a copy of what is being replaced, the second touch ends it."""
    from django.db import transaction

    touch(topic)
    transaction.on_commit(lambda: touch(topic))


# --- Whole pages for anonymous visitors (issue 33) --------------------------------------------
#
# A public page drawn for one anonymous visitor is what every anonymous
# visitor of the same address, host and language is shown: each process keeps
# it for ``ANONYMOUS_PAGE_SECONDS`` in its own memory (no round trip). Only its
# CSRF tokens are personal: they are found in the drawn page by what they
# unmask to (this visitor's secret), kept as a placeholder, and each visitor
# who is served the kept copy gets his own token in their place. Nothing is
# kept for a signed-in visitor, a visitor with a message waiting, a request
# other than GET, an answer other than 200, or an answer that sets a cookie.

_PAGE_TOKEN = "\x00csrf-token\x00"
_TOKEN_SHAPE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z0-9]{64}(?![A-Za-z0-9])")
_PAGE_ATTRS = ("xframe_options_exempt", "xframe_options_sameorigin")
_PAGE_LIMIT = 512
_pages: OrderedDict = OrderedDict()
_pages_lock = threading.Lock()


def _page_visitor(request) -> bool:
    """An anonymous visitor with nothing personal to show (no message waiting)."""
    if request.method != "GET" or "messages" in request.COOKIES:  # the cookie storage's own name
        return False
    user = getattr(request, "user", None)
    if user is None or user.is_authenticated:
        return False
    session = getattr(request, "session", None)
    return session is None or not session.get("_messages")


def _keep_page(key, response, request, seconds: float) -> None:
    if (
        response.status_code != 200
        or response.streaming
        or response.cookies
        or not response.get("Content-Type", "").startswith("text/html")
    ):
        return
    content = without_tokens(response.content.decode(response.charset), request)
    headers = [(k, v) for k, v in response.items() if k.lower() not in ("content-length", "set-cookie")]
    attrs = {name: getattr(response, name) for name in _PAGE_ATTRS if hasattr(response, name)}
    with _pages_lock:
        _pages[key] = (time.monotonic() + seconds, content, headers, attrs)
        _pages.move_to_end(key)
        while len(_pages) > _PAGE_LIMIT:
            _pages.popitem(last=False)


def without_tokens(content: str, request) -> str:
    """``content`` with each of this visitor's CSRF tokens in it replaced by a placeholder."""
    from django.middleware.csrf import _unmask_cipher_token

    secret = request.META.get("CSRF_COOKIE") if request is not None else None
    if secret:
        for token in set(_TOKEN_SHAPE.findall(content)):
            if _unmask_cipher_token(token) == secret:
                content = content.replace(token, _PAGE_TOKEN)
    return content


def with_token(content: str, request) -> str:
    """``content`` kept by ``without_tokens``, with this visitor's own CSRF token in it."""
    if _PAGE_TOKEN in content:
        from django.middleware.csrf import get_token

        content = content.replace(_PAGE_TOKEN, get_token(request))
    return content


def _served_page(request, kept) -> HttpResponse:
    _, content, headers, attrs = kept
    content = with_token(content, request)
    response = HttpResponse(content)
    for name, value in headers:
        response[name] = value
    for name, value in attrs.items():
        setattr(response, name, value)
    return response


def anonymous_page(view):
    """Keep the view's page for anonymous visitors a few seconds (``ANONYMOUS_PAGE_SECONDS``,
    0: never), per process; only for pages that show nothing private to an anonymous visitor."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        seconds = getattr(settings, "ANONYMOUS_PAGE_SECONDS", 0)
        if seconds <= 0 or not _page_visitor(request):
            return view(request, *args, **kwargs)
        from django.utils import translation

        key = (request.get_host(), translation.get_language(), request.get_full_path())
        kept = _pages.get(key)
        if kept is not None and kept[0] > time.monotonic():
            return _served_page(request, kept)
        response = view(request, *args, **kwargs)
        _keep_page(key, response, request, seconds)
        return response

    return wrapper


def forget_pages() -> None:
    """Every kept anonymous page of this process is dropped (tests)."""
    with _pages_lock:
        _pages.clear()


# --- What everyone sees alike, kept a moment in the process itself (issue 33) -----------------
#
# For a list that changes by the second (the lobby's rooms) and is read by
# every visitor: each process makes it at most once every
# ``RECENT_LIST_SECONDS`` (0: every time), with no round trip to keep it.

_recent: dict = {}
_recent_lock = threading.Lock()


def recent(key, make, seconds: float | None = None):
    """``make()``, or this process's copy of it made less than ``seconds`` ago."""
    if seconds is None:
        seconds = getattr(settings, "RECENT_LIST_SECONDS", 0)
    if seconds <= 0:
        return make()
    now = time.monotonic()
    kept = _recent.get(key)
    if kept is not None and kept[0] > now:
        return kept[1]
    value = make()
    with _recent_lock:
        if len(_recent) > 256:
            _recent.clear()
        _recent[key] = (now + seconds, value)
    return value


def forget_recent() -> None:
    with _recent_lock:
        _recent.clear()
