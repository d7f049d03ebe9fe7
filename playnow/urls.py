from django.urls import path

from . import views

app_name = "playnow"
urlpatterns = [
    path("party/", views.party, name="party"),
    path("party/status/", views.party_status, name="party_status"),
    path("table/<int:pk>/", views.wait, name="wait"),
    path("table/<int:pk>/status/", views.wait_status, name="wait_status"),
    path("table/<int:pk>/bots/", views.bots, name="bots"),
    path("together/", views.together, name="together"),
    path("table/<int:pk>/cancel/", views.cancel, name="cancel"),
    path("<str:preset>/", views.press, name="press"),
]
