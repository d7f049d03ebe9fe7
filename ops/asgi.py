"""The ASGI entry's wrapper (issue 39): a log context per request or socket,
open sockets counted by kind, the event loop's lag sampled."""

from __future__ import annotations

from . import context, metrics


def _kind(path: str) -> str:
    if path.startswith("/ws/table/"):
        return "table"
    if path.startswith("/ws/me/"):
        return "me"
    return "other"


def observed(app):
    async def application(scope, receive, send):
        kind = scope["type"]
        if kind == "lifespan":
            return await app(scope, receive, send)
        metrics.watch_loop()
        token = context.open_scope(scope)
        try:
            if kind != "websocket":
                return await app(scope, receive, send)
            socket = _kind(scope.get("path", ""))
            metrics.socket_opened(socket)
            try:
                return await app(scope, receive, send)
            finally:
                metrics.socket_closed(socket)
        finally:
            context.close(token)

    return application
