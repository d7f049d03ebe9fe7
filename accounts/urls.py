from django.urls import path

from . import views

urlpatterns = [
    path("preferences/", views.preferences, name="preferences"),
    path("preferences/sound/", views.sound_preference, name="sound_preference"),
]
