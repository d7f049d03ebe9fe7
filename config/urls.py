from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog, set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import fairness_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
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
    path("leaderboard/", include("leaderboard.urls")),
    path("replays/", include("replays.urls")),
    path("api/friends/", include("friends.api_urls")),
    path("school/", include("school.urls")),
    path("api/", include("leaderboard.api_urls")),
    path("fair/<int:match_id>/<int:number>/", fairness_views.fair_round, name="fair_round"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
]

admin.site.site_header = "Takhteh"
