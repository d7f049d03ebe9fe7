from django.urls import path

from . import api

app_name = "api"
urlpatterns = [
    path("leaderboard/<str:family>/", api.LeaderboardView.as_view(), name="leaderboard"),
    path("players/<str:username>/", api.PlayerView.as_view(), name="player"),
]
