"""Issue 34: /favicon.ico answers (an ICO of the site's icon, cached), beside the linked SVG."""

import io

import pytest
from PIL import Image

pytestmark = pytest.mark.django_db


def test_favicon_ico_answers_with_an_icon_that_is_cached(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/x-icon"
    assert "max-age=604800" in response["Cache-Control"] and "public" in response["Cache-Control"]
    icon = Image.open(io.BytesIO(response.content))
    assert icon.format == "ICO" and {(16, 16), (32, 32)} <= set(icon.info["sizes"])


def test_the_pages_link_both_icons(client):
    html = client.get("/").content.decode()
    assert 'href="/favicon.ico"' in html and "favicon.svg" in html
    assert client.get("/static/img/favicon.svg").status_code == 200
