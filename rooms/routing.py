from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/table/<slug:code>/", consumers.TableConsumer.as_asgi()),
]
