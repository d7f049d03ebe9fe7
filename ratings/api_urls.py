from django.urls import path

from . import api

app_name = "ratings_api"
urlpatterns = [
    path("players/<str:username>/ratings/", api.PlayerRatingsView.as_view(), name="player_ratings"),
    path("matches/<int:match_id>/", api.MatchSummaryView.as_view(), name="match"),
]
