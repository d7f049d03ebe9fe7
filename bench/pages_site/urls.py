from django.shortcuts import render
from django.urls import path

from config.urls import urlpatterns as site


def floor(request):
    """The site's base layout and nothing else: no query, no session written."""
    return render(request, "bench/floor.html")


urlpatterns = [path("bench-floor/", floor, name="bench-floor"), *site]
