from django.urls import path

from . import views

app_name = "rooms"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.create, name="create"),
    path("practice/<str:game>/", views.practice, name="practice"),
    path("<slug:code>/", views.room, name="room"),
]
