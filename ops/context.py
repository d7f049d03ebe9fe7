"""What a log line knows about where it came from: the request or socket id,
the user, the room and the match, kept in a context variable.

The ASGI entry (``config/asgi.py``) opens one context per request or socket
(``scope_context``); a thread hop (``sync_to_async``) copies the variable, and
the dict in it is shared, so what the socket learns later (its match) is seen
by the lines logged on its threads too.
"""

from __future__ import annotations

import contextvars
import uuid

from asgiref.sync import iscoroutinefunction
from django.utils.decorators import sync_and_async_middleware

_current: contextvars.ContextVar[dict | None] = contextvars.ContextVar("takhteh_log_context", default=None)


def current() -> dict | None:
    return _current.get()


def open_scope(scope: dict) -> contextvars.Token:
    """A new context for one request or socket (its id, its kind, the room in its path)."""
    kind = scope.get("type", "")
    path = scope.get("path", "")
    ctx = {"scope": scope}
    if kind == "websocket":
        ctx["socket_id"] = uuid.uuid4().hex[:16]
        parts = [p for p in path.split("/") if p]
        if len(parts) >= 3 and parts[:2] == ["ws", "table"]:
            ctx["room"] = parts[2]
    else:
        ctx["request_id"] = uuid.uuid4().hex[:16]
    return _current.set(ctx)


def close(token: contextvars.Token) -> None:
    ctx = _current.get()
    if ctx is not None:
        ctx.clear()  # a task started from it and still running keeps no closed socket's scope
    try:
        _current.reset(token)
    except ValueError:  # reset from another context: nothing to undo
        pass


def note(**fields) -> None:
    """Add what is now known (a match id) to the current context, if any."""
    ctx = _current.get()
    if ctx is not None:
        ctx.update(fields)


def user_id(ctx: dict) -> int | None:
    """The user of the context's request or socket, only if already resolved
    (a log line never makes a database query)."""
    from django.utils.functional import empty

    for holder in (ctx.get("request"), ctx.get("scope")):
        if holder is None:
            continue
        user = holder.get("user") if isinstance(holder, dict) else getattr(holder, "user", None)
        if user is None:
            continue
        wrapped = getattr(user, "_wrapped", user)
        if wrapped is empty or wrapped is None:
            continue
        if getattr(wrapped, "is_authenticated", False):
            return wrapped.pk
    return None


def _remember(request) -> None:
    ctx = _current.get()
    if ctx is not None:
        ctx["request"] = request


@sync_and_async_middleware
def request_context_middleware(get_response):
    """Makes the request (and so, once resolved, its user) known to the log
    lines; sync and async alike, so it never adds a thread hop."""
    if iscoroutinefunction(get_response):

        async def middleware(request):
            _remember(request)
            return await get_response(request)

    else:

        def middleware(request):
            _remember(request)
            return get_response(request)

    return middleware
