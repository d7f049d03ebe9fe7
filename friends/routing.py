"""The friends app's sockets (the per-user channel for invites and presence)."""

from django.urls import path

from . import consumers

websocket_urlpatterns: list = [
    path("ws/me/", consumers.MeConsumer.as_asgi()),
]
