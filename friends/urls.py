from django.urls import path

from . import views

app_name = "friends"
urlpatterns = [
    path("", views.index, name="index"),
    path("do/<slug:op>/", views.act, name="act"),
    path("report/", views.report, name="report"),
    path("invites/<int:invite_id>/accept/", views.accept_invite, name="accept_invite"),
    path("invites/<int:invite_id>/decline/", views.decline_invite, name="decline_invite"),
]
