from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog, set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from ops import health as ops_health
from ops import views as ops_views

from . import fairness_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("readyz", ops_health.readyz, name="readyz"),
    path("metrics", ops_views.metrics, name="metrics"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("rules/", views.rules, name="rules"),
    path("rules/<str:game>/", views.rules, name="rules_game"),
    path("i18n/setlang/", set_language, name="set_language"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("me/", include("accounts.urls")),
    path("friends/", include("friends.urls")),
    path("rooms/", include("rooms.urls")),
    path("play/", include("playnow.urls")),
    path("ratings/", include("ratings.urls")),
    path("leaderboard/", include("leaderboard.urls")),
    path("replays/", include("replays.urls")),
    path("api/friends/", include("friends.api_urls")),
    path("school/", include("school.urls")),
    path("events/", include("events.urls")),
    path("api/", include("leaderboard.api_urls")),
    path("api/", include("ratings.api_urls")),
    path("api/", include("playnow.api_urls")),
    path("fair/<int:match_id>/<int:number>/", fairness_views.fair_round, name="fair_round"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("", include("notify.urls")),  # issue 40: /manifest.webmanifest, /sw.js, /offline/
]

admin.site.site_header = "Takhteh"
