"""The floor: a consumer that rebroadcasts every frame it receives to its
four-socket group (``/ws/floor/<table>/``). Plain Channels, nothing else."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.floor.settings")

import django  # noqa: E402

django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


class Floor(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = f"floor.{self.scope['url_route']['kwargs']['table']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send(self.group, {"type": "relay", "text": text_data})

    async def relay(self, message):
        await self.send(text_data=message["text"])


async def _http(scope, receive, send):
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"floor"})


application = ProtocolTypeRouter(
    {"http": _http, "websocket": URLRouter([path("ws/floor/<slug:table>/", Floor.as_asgi())])}
)
