from django.urls import path

from . import views

app_name = "school"
urlpatterns = [
    path("", views.index, name="index"),
    path("progress/", views.progress, name="progress"),
    path("<int:number>/", views.lesson, name="lesson"),
    path("<int:number>/check/", views.check, name="check"),
]
