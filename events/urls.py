from django.urls import path

from . import views

app_name = "events"
urlpatterns = [
    path("", views.index, name="index"),
    path("challenge/<str:day_date>/<str:game>/", views.day_page, name="day"),
    path("play/<str:game>/", views.play, name="play"),
    path("review/<int:deal_id>/", views.review, name="review"),
    path("review/<int:deal_id>/frame/", views.review_frame, name="review_frame"),
    path("review/<int:deal_id>/data/", views.review_data, name="review_data"),
    path("arena/<int:arena_id>/", views.arena_page, name="arena"),
    path("arena/<int:arena_id>/join/", views.arena_join, name="arena_join"),
    path("arena/<int:arena_id>/leave/", views.arena_leave, name="arena_leave"),
    path("arena/<int:arena_id>/data/", views.arena_data, name="arena_data"),
]
