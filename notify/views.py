"""The installable site's files (issue 40) and the push subscriptions' endpoint.

- ``/manifest.webmanifest``: the web app manifest in the page's language.
- ``/sw.js``: the service worker, served from the root so that its scope is
  the whole site. Its body names a cache version computed from the files it
  pre-caches, so a deployment that changes any of them changes the worker's
  bytes: the browser installs the new worker, which drops the old caches.
- ``/offline/``: the page the worker shows when a navigation finds no
  network, in both languages at once (the one page it keeps; no user data).
- ``/notify/subscription/``: POST (JSON) keeps this device's push
  subscription for the signed-in player, DELETE forgets it.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control

from . import push, vapid
from .models import PushSubscription

THEME_COLOUR = "#1f5a3f"  # DESIGN.md: the felt (--felt in site.css)
BACKGROUND_COLOUR = "#0f1d17"  # the page's background (--bg)
OFFLINE_URL = "/offline/"
MAX_DEVICES = 10
PRECACHE_DIRS = ("css", "fonts", "img", "notify")
"""The static folders the worker keeps at install for fast starts: styles, fonts, icons. Scripts
are kept when first used (the same versioned cache). Never a page."""
VERSIONED_DIRS = (*PRECACHE_DIRS, "js")
"""Every folder the worker may keep: the cache's version is a hash of all their files, so a
deployment that changes a script also replaces the cache its old copy sits in."""


@cache_control(max_age=86400, public=True)
def manifest(request):
    language = translation.get_language() or settings.LANGUAGE_CODE
    data = {
        "id": "/",
        "name": _("Takhteh: Persian card games"),
        "short_name": _("Takhteh"),
        "description": _("Hokm, Shelem and Bridge with friends, in Persian and English."),
        "lang": language,
        "dir": "rtl" if translation.get_language_bidi() else "ltr",
        "start_url": "/?source=pwa",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "categories": ["games"],
        "icons": [
            {"src": static("notify/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static("notify/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {
                "src": static("notify/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": static("img/favicon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
        ],
    }
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=1), content_type="application/manifest+json"
    )
    response["Vary"] = "Cookie, Accept-Language"
    return response


def precache_files(dirs: tuple[str, ...] = PRECACHE_DIRS) -> list[tuple[str, Path]]:
    """(URL, file) of every static file under ``dirs`` (the worker pre-caches), in a stable order."""
    seen: dict[str, Path] = {}
    for finder in finders.get_finders():
        for rel, storage in finder.list([]):
            rel = rel.replace("\\", "/")
            if rel.split("/", 1)[0] not in dirs or rel in seen:
                continue
            if rel.endswith((".txt", ".map")):
                continue
            seen[rel] = Path(storage.path(rel))
    return [(static(rel), seen[rel]) for rel in sorted(seen)]


def _offline_html() -> str:
    return render_to_string("notify/offline.html", {"both": _both_languages()})


def _both_languages() -> list[dict]:
    out = []
    for code in ("fa", "en"):
        with translation.override(code):
            out.append(
                {
                    "lang": code,
                    "dir": "rtl" if code == "fa" else "ltr",
                    "title": _("You are offline"),
                    "line": _("Takhteh needs the network to play. Check your connection and try again."),
                    "retry": _("Try again"),
                }
            )
    return out


def _worker_source() -> str:
    return (Path(__file__).resolve().parent / "templates" / "notify" / "sw.js").read_text()


def _compute_worker() -> tuple[str, str]:
    files = precache_files()
    digest = hashlib.sha256()
    for url, path in precache_files(VERSIONED_DIRS):
        digest.update(url.encode())
        digest.update(path.read_bytes())
    digest.update(_worker_source().encode())
    digest.update(_offline_html().encode())
    version = digest.hexdigest()[:16]
    body = render_to_string(
        "notify/sw.js",
        {
            "version": version,
            "precache": json.dumps([url for url, _path in files] + [OFFLINE_URL]),
            "offline": json.dumps(OFFLINE_URL),
            "static_prefix": json.dumps(settings.STATIC_URL),
        },
    )
    return version, body


_cached_worker = lru_cache(maxsize=1)(_compute_worker)


def worker_body() -> tuple[str, str]:
    """(cache version, the worker's source). Computed once per process (the
    files do not change under a running site), every time under DEBUG."""
    return _compute_worker() if settings.DEBUG else _cached_worker()


def service_worker(request):
    _version, body = worker_body()
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # The browser checks for a new worker on every navigation: never from a cache.
    response["Cache-Control"] = "no-cache, max-age=0"
    response["Service-Worker-Allowed"] = "/"
    return response


@cache_control(no_cache=True, max_age=0)
def offline(request):
    return HttpResponse(_offline_html(), content_type="text/html; charset=utf-8")


# --- push subscriptions ------------------------------------------------------------------


def _error(code: str, message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"ok": False, "code": code, "message": message}, status=status)


def subscription(request):
    """POST {"endpoint", "keys": {"p256dh", "auth"}}: keep this device's push
    subscription; DELETE {"endpoint"}: forget it. Signed-in players only,
    with the CSRF token (the header ``X-CSRFToken``)."""
    if request.method not in ("POST", "DELETE"):
        return HttpResponseNotAllowed(["POST", "DELETE"])
    if not request.user.is_authenticated:
        return _error("signed_out", _("Sign in to receive notifications."), 403)
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        return _error("bad_json", _("The subscription could not be read."))
    if not isinstance(data, dict) or not isinstance(data.get("endpoint"), str):
        return _error("bad_endpoint", _("The subscription could not be read."))
    endpoint = data["endpoint"]
    if request.method == "DELETE":
        deleted, _rows = PushSubscription.objects.filter(user=request.user, endpoint=endpoint).delete()
        push.forget_subscribed()
        return JsonResponse({"ok": True, "deleted": bool(deleted)})
    keys = data.get("keys")
    if not isinstance(keys, dict) or not all(isinstance(keys.get(k), str) for k in ("p256dh", "auth")):
        return _error("bad_keys", _("The subscription could not be read."))
    problem = push.endpoint_error(endpoint) or push.keys_error(keys["p256dh"], keys["auth"])
    if problem:
        return _error(problem, _("This browser's push service is not accepted."))
    if vapid.keys() is None:
        return _error("push_off", _("This site sends no push notifications."), 409)
    language = translation.get_language() or settings.LANGUAGE_CODE
    row, created = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={
            "user": request.user,
            "p256dh": keys["p256dh"],
            "auth": keys["auth"],
            "language": language[:2] if language[:2] in dict(settings.LANGUAGES) else "fa",
            "session_key": request.session.session_key or "",
        },
    )
    # A player's devices: the newest MAX_DEVICES are kept (each one is a post of the worker's per push).
    keep = PushSubscription.objects.filter(user=request.user).order_by("-created_at", "-pk")[:MAX_DEVICES]
    PushSubscription.objects.filter(user=request.user).exclude(
        pk__in=list(keep.values_list("pk", flat=True))
    ).delete()
    push.forget_subscribed()
    return JsonResponse({"ok": True, "created": created}, status=201 if created else 200)
