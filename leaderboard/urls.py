from django.urls import path

from . import views

app_name = "leaderboard"
urlpatterns = [
    path("", views.index, name="index"),
    path("players/<str:username>/", views.player, name="player"),
]
