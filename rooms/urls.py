from django.urls import path

from . import explain, views

app_name = "rooms"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.create, name="create"),
    path("practice/<str:game>/", views.practice, name="practice"),
    path("explain/bridge/", explain.explain_bridge, name="explain-bridge"),  # issue 38
    path("<slug:code>/", views.room, name="room"),
]
