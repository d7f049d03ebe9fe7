"""Errors to Sentry when ``SENTRY_DSN`` is set (off by default; issue 39).

Every event passes ``before_send`` (and every breadcrumb ``before_breadcrumb``)
first: the stack frames' local variables, the request's cookies, headers,
query and body, the ``extra`` and ``contexts`` fields, the messages and the
exception texts go through ``ops.scrub``; the request's cookies are dropped
whole. ``send_default_pii`` stays off (no user IP, no cookies from the SDK).
"""

from __future__ import annotations

import os

from . import scrub

_SAFE_HEADERS = {
    "host",
    "user-agent",
    "accept",
    "accept-language",
    "content-type",
    "content-length",
    "origin",
}


def _frames(event: dict):
    for exc in (event.get("exception") or {}).get("values") or []:
        yield from (exc.get("stacktrace") or {}).get("frames") or []
        if isinstance(exc.get("value"), str):
            exc["value"] = scrub.text(exc["value"])
    for thread in (event.get("threads") or {}).get("values") or []:
        yield from (thread.get("stacktrace") or {}).get("frames") or []


def before_send(event: dict, hint: dict | None = None) -> dict:
    for frame in _frames(event):
        if "vars" in frame:
            frame["vars"] = scrub.value(frame["vars"])
        for key in ("pre_context", "context_line", "post_context"):
            if key in frame:
                frame[key] = scrub.value(frame[key])
    request = event.get("request")
    if isinstance(request, dict):
        request.pop("cookies", None)
        headers = request.get("headers")
        if isinstance(headers, dict):
            request["headers"] = {
                k: (scrub.text(v) if isinstance(v, str) else v)
                for k, v in headers.items()
                if k.lower() in _SAFE_HEADERS
            }
        for key in ("data", "query_string", "env", "url"):
            if key in request:
                request[key] = scrub.value(request[key])
    for key in ("extra", "contexts", "tags"):
        if isinstance(event.get(key), dict):
            event[key] = {
                k: (scrub.REDACTED if scrub.secret_name(k) else scrub.value(v)) for k, v in event[key].items()
            }
    if isinstance(event.get("message"), str):
        event["message"] = scrub.text(event["message"])
    entry = event.get("logentry")
    if isinstance(entry, dict):
        if isinstance(entry.get("message"), str):
            entry["message"] = scrub.text(entry["message"])
        if "params" in entry:
            entry["params"] = scrub.value(entry["params"])
    crumbs = event.get("breadcrumbs")
    if isinstance(crumbs, dict):
        crumbs["values"] = [before_breadcrumb(c) for c in crumbs.get("values") or []]
    user = event.get("user")
    if isinstance(user, dict):
        event["user"] = {k: v for k, v in user.items() if k == "id"}
    return event


def before_breadcrumb(crumb: dict, hint: dict | None = None) -> dict:
    if isinstance(crumb.get("message"), str):
        crumb["message"] = scrub.text(crumb["message"])
    if isinstance(crumb.get("data"), dict):
        crumb["data"] = {
            k: (scrub.REDACTED if scrub.secret_name(k) else scrub.value(v)) for k, v in crumb["data"].items()
        }
    return crumb


def init(dsn: str | None = None, **options) -> bool:
    """Start Sentry when a DSN is given (or ``SENTRY_DSN`` is set); False otherwise."""
    dsn = dsn if dsn is not None else os.environ.get("SENTRY_DSN", "")
    if not dsn:
        return False
    import sentry_sdk
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        integrations=[DjangoIntegration()],
        send_default_pii=False,
        before_send=before_send,
        before_breadcrumb=before_breadcrumb,
        traces_sample_rate=0.0,
        environment=os.environ.get("SENTRY_ENVIRONMENT", "production"),
        **options,
    )
    return True
