"""Issue 14, headers: every page carries a Content-Security-Policy with no
inline script, no inline style (the site's own pages) and no third-party
host; no template has an inline <script> body or an inline event handler."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["/", "/rules/", "/leaderboard/", "/rooms/", "/accounts/login/", "/accounts/signup/", "/api/docs/"]


def directives(header: str) -> dict[str, list[str]]:
    out = {}
    for part in header.split(";"):
        name, *values = part.split()
        out[name] = values
    return out


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGES)
def test_every_page_has_a_strict_policy(path):
    response = Client().get(path)
    assert response.status_code == 200
    policy = directives(response["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]
    # No page may be framed by another site; the rules pages only by our own (the panel over the table, R-8).
    framed_by_us = path.startswith("/rules/")
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == (["'self'"] if framed_by_us else ["'none'"])
    if not path.startswith("/api/docs/"):
        assert policy["style-src"] == ["'self'"]
    for values in policy.values():
        for value in values:
            assert value.startswith("'") or value == "data:", value  # no host names at all


def test_no_template_has_inline_script_or_handlers():
    inline_script = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
    handler = re.compile(r"\son[a-z]+\s*=", re.I)
    style_attr = re.compile(r"\sstyle\s*=", re.I)
    offenders = []
    for template in ROOT.glob("**/templates/**/*.html"):
        if ".venv" in template.parts:
            continue
        source = template.read_text()
        for pattern in (inline_script, handler, style_attr):
            offenders += [f"{template.relative_to(ROOT)}: {m.group(0)}" for m in pattern.finditer(source)]
    assert not offenders


@pytest.mark.django_db
def test_the_api_docs_load_their_script_from_the_site():
    page = Client().get("/api/docs/").content.decode()
    assert "<script>" not in page
    assert Client().get("/api/docs/?script").status_code == 200
