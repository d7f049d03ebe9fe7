"""The friends app's sockets (the per-user channel for invites and presence)."""

websocket_urlpatterns: list = []
