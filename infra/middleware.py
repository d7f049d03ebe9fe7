"""Site-wide HTTP guards (issue 14).

- ``RefuseNulMiddleware``: PostgreSQL refuses a NUL character in text, so a
  NUL that reached a query (a username in the path, a page number in the
  query string, a form field) raised a DataError and a 500. Nothing the site
  serves has a NUL in it, so a request carrying one (in the path, the query
  string, a form field or a cookie) is refused with 400 before any view runs.
- ``ContentSecurityPolicyMiddleware``: scripts, styles, images, fonts and
  sockets from the site itself only; no inline script, no inline style, no
  third-party host, no framing.
"""

from __future__ import annotations

from django.core.exceptions import BadRequest

NUL = "\x00"

# The site's pages: everything from the site itself, nothing inline. 'self'
# in connect-src covers the table's ws:/wss: socket to the same host (CSP 3).
CSP = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "media-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
# Third-party pages we serve but do not write (Django's admin and the API's
# Swagger UI) carry inline styles: those pages alone may use them. Their
# scripts stay 'self' only.
CSP_INLINE_STYLE_PREFIXES = ("/admin/", "/api/docs/")


def policy(path: str, same_origin_frames: bool = False) -> str:
    directives = dict(CSP)
    if path.startswith(CSP_INLINE_STYLE_PREFIXES):
        directives["style-src"] = "'self' 'unsafe-inline'"
    if same_origin_frames:
        # A page our own pages show in a frame (the rules panel over the table, R-8).
        directives["frame-ancestors"] = "'self'"
    return "; ".join(f"{name} {value}" for name, value in directives.items())


def has_nul(request) -> bool:
    if NUL in request.path_info or NUL in request.path:
        return True
    for key, value in request.COOKIES.items():
        if NUL in key or NUL in value:
            return True
    sources = [request.GET, request.POST] if request.method == "POST" else [request.GET]
    for data in sources:
        for key, values in data.lists():
            if NUL in key or any(NUL in value for value in values if isinstance(value, str)):
                return True
    return False


class RefuseNulMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if has_nul(request):
            raise BadRequest("NUL character in the request")
        return self.get_response(request)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            framed = getattr(response, "xframe_options_sameorigin", False) or (
                response.get("X-Frame-Options", "").upper() == "SAMEORIGIN"
            )
            response["Content-Security-Policy"] = policy(request.path, same_origin_frames=framed)
        return response
