"""Issue 40, installable: the manifest, the service worker and the offline page,
served with the right headers and scope under the site's Content-Security-Policy."""

from __future__ import annotations

import json
import re

import pytest
from django.test import override_settings

from notify import views

pytestmark = pytest.mark.django_db


def worker_list(body: str) -> list[str]:
    return json.loads(re.search(r"const PRECACHE = (\[.*?\]);", body).group(1))


def test_it_serves_the_manifest_in_persian_rtl_by_default(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["lang"] == "fa" and data["dir"] == "rtl"
    assert data["short_name"] == "تخته"
    assert data["display"] == "standalone"
    assert data["start_url"].startswith("/") and data["scope"] == "/"
    assert data["theme_color"] == "#1f5a3f" and data["background_color"] == "#0f1d17"
    sizes = {(i["sizes"], i["purpose"]) for i in data["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in data["icons"]:
        assert client.get(icon["src"]).status_code == 200, icon


def test_it_serves_the_manifest_in_english_ltr(client):
    client.cookies["lang"] = "en"
    data = json.loads(client.get("/manifest.webmanifest").content)
    assert data["lang"] == "en" and data["dir"] == "ltr"
    assert data["short_name"] == "Takhteh"


def test_the_icons_have_the_sizes_they_claim(client):
    from io import BytesIO

    from PIL import Image

    data = json.loads(client.get("/manifest.webmanifest").content)
    for icon in data["icons"]:
        if icon["type"] != "image/png":
            continue
        body = b"".join(client.get(icon["src"]).streaming_content)
        width, height = Image.open(BytesIO(body)).size
        assert f"{width}x{height}" == icon["sizes"]


def test_every_page_links_the_manifest_and_the_worker_script(client):
    html = client.get("/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in html
    assert 'src="/static/notify/pwa.js"' in html
    assert "<script>" not in html  # no inline script (CSP)


def test_it_serves_the_worker_from_the_root_uncached_under_the_csp(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_the_worker_precaches_static_files_and_the_offline_page_only(client):
    """Never a page with private data: tables, friends, the fair record, any page but /offline/."""
    body = client.get("/sw.js").content.decode()
    urls = worker_list(body)
    assert "/offline/" in urls
    assert "/static/fonts/Vazirmatn-Variable.woff2" in urls and "/static/css/site.css" in urls
    assert "/static/notify/icon-192.png" in urls
    pages = [u for u in urls if not u.startswith("/static/")]
    assert pages == ["/offline/"]
    for private in ("/rooms/", "/friends/", "/fair/", "/me/", "/api/", "/jsi18n/"):
        assert not any(u.startswith(private) for u in urls)
    # Pages go to the network (navigations), only static GETs are answered from the cache.
    assert 'request.method !== "GET"' in body
    assert (
        'request.mode === "navigate"' in body and "fetch(request).catch(() => caches.match(OFFLINE))" in body
    )
    assert "if (!isStatic(url)) return;" in body


def test_the_cache_is_versioned_by_the_files_it_keeps(client, tmp_path, settings):
    """A deployment that changes a pre-cached file changes the worker's bytes and its cache's name."""
    first = client.get("/sw.js").content.decode()
    version = re.search(r'const VERSION = "([0-9a-f]{16})";', first).group(1)
    assert "takhteh-static-${VERSION}" in first
    # Old caches are deleted on activate.
    assert 'n.startsWith("takhteh-") && n !== CACHE' in first and "caches.delete" in first
    extra = tmp_path / "static"
    (extra / "css").mkdir(parents=True)
    (extra / "css" / "zz-new.css").write_text("body{}")
    (extra / "js").mkdir(parents=True)
    (extra / "js" / "zz-new.js").write_text("// one")
    with override_settings(STATICFILES_DIRS=[*settings.STATICFILES_DIRS, extra], DEBUG=True):
        from django.contrib.staticfiles import finders

        finders.get_finder.cache_clear()
        second = client.get("/sw.js").content.decode()
        (extra / "css" / "zz-new.css").write_text("body{color:red}")
        third = client.get("/sw.js").content.decode()
        (extra / "js" / "zz-new.js").write_text("// two")  # a script: kept when used, not pre-cached
        fourth = client.get("/sw.js").content.decode()
    finders.get_finder.cache_clear()
    versions = {
        re.search(r'const VERSION = "([0-9a-f]{16})";', b).group(1) for b in (first, second, third, fourth)
    }
    assert len(versions) == 4
    assert "/static/js/zz-new.js" not in worker_list(fourth)
    assert "/static/css/zz-new.css" in worker_list(second)
    assert views.worker_body()[0] == version  # the running site's version did not move


def test_the_offline_page_speaks_both_languages_and_shows_no_user(client, alice):
    client.force_login(alice)
    response = client.get("/offline/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'lang="fa" dir="rtl"' in html and 'lang="en" dir="ltr"' in html
    assert "You are offline" in html and "اتصال برقرار نیست" in html
    assert alice.username not in html and "csrfmiddlewaretoken" not in html
    assert "<script" not in html
