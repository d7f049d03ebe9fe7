from django.urls import path

from . import api

app_name = "playnow_api"
urlpatterns = [
    path("lobby/tables/", api.LobbyTablesView.as_view(), name="lobby_tables"),
    path("rooms/<slug:code>/ratings/", api.RoomRatingsView.as_view(), name="room_ratings"),
]
