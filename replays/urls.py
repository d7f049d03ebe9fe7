from django.urls import path

from . import views

app_name = "replays"
urlpatterns = [
    path("", views.index, name="index"),
    path("<int:match_id>/", views.viewer, name="viewer"),
    path("<int:match_id>/data/", views.data, name="data"),
]
