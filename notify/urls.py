from django.urls import path

from . import views

urlpatterns = [
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("offline/", views.offline, name="offline"),
    path("notify/subscription/", views.subscription, name="push_subscription"),
]
