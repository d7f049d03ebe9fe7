"""``/metrics`` of a Daphne process: Prometheus' text format, protected.

With ``METRICS_TOKEN`` set, a request must carry ``Authorization: Bearer
<token>``; without it, only a request from the loopback address that came
through no proxy (no ``X-Forwarded-For``, ``X-Real-IP`` or ``Forwarded``
header) is answered. Anything else gets 404, as if there were no such page.
"""

from __future__ import annotations

import hmac
import os

from django.http import Http404, HttpResponse
from django.views.decorators.cache import never_cache
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

_PROXY_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_X_REAL_IP", "HTTP_FORWARDED")


def allowed(request) -> bool:
    token = os.environ.get("METRICS_TOKEN", "")
    if token:
        given = request.META.get("HTTP_AUTHORIZATION", "")
        return hmac.compare_digest(given.encode(), f"Bearer {token}".encode())
    if any(request.META.get(h) for h in _PROXY_HEADERS):
        return False
    return request.META.get("REMOTE_ADDR") in ("127.0.0.1", "::1")


@never_cache
def metrics(request):
    if not allowed(request):
        raise Http404
    return HttpResponse(generate_latest(REGISTRY), content_type=CONTENT_TYPE_LATEST)
