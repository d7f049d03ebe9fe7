"""ASGI entry point: HTTP through Django, WebSockets through Channels.

WebSockets pass the origin validator (infra/websocket.py: scheme, host and port) and session
authentication before they reach a consumer (Channels docs, tutorial part 2).
"""

import asyncio
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from infra import sampler  # noqa: E402

sampler.start_from_env()  # PROFILE_SAMPLES=file: a whole-process CPU profile (off by default)

from django.core.asgi import get_asgi_application  # noqa: E402

django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from events.routing import websocket_urlpatterns as events_sockets  # noqa: E402
from friends.routing import websocket_urlpatterns as friends_sockets  # noqa: E402
from games import clock  # noqa: E402
from infra import memory  # noqa: E402
from infra.websocket import LaneAuthMiddlewareStack, SiteOriginValidator  # noqa: E402
from ops.asgi import observed  # noqa: E402
from playnow.routing import websocket_urlpatterns as lobby_sockets  # noqa: E402
from rooms.routing import websocket_urlpatterns as table_sockets  # noqa: E402

websocket_urlpatterns = [*table_sockets, *friends_sockets, *lobby_sockets, *events_sockets]

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SiteOriginValidator(LaneAuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Everything the server needs is imported: freeze it, and collect garbage
# less often (infra/memory.py: the full collections' pauses were the tail).
memory.tune()


async def application(scope, receive, send):
    """The router, and the server's event loop made known to the in-process
    deadline clock on the first request of any kind (HTTP included), so a
    practice match started over HTTP has its bots' timers armed at once."""
    if not clock.loop_bound():
        clock.bind_loop(asyncio.get_running_loop())
    if scope["type"] == "lifespan":
        return await _lifespan(receive, send)
    return await router(scope, receive, send)


application = observed(application)  # log context, sockets and loop lag (ops/asgi.py)


async def _lifespan(receive, send):
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            clock.bind_loop(asyncio.get_running_loop())
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            # The timers go; a deadline already running (a bot's move) finishes its transaction.
            await asyncio.to_thread(clock.settle, 10.0)
            await send({"type": "lifespan.shutdown.complete"})
            return
