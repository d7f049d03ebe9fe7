"""The rating history as an inline SVG, drawn on the server (M-4).

No script and no style attribute (the site's Content-Security-Policy forbids
inline ones): SVG presentation attributes and classes only.

Numbers are written in the page's digits (Persian digits in Persian, the
site's ``num`` filter's rule). Time runs in the page's reading direction: in
Persian (RTL) the oldest match is on the right and the newest on the left,
with the rating scale on the right; in English the other way round.
"""

from __future__ import annotations

from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from accounts.templatetags.persian import localise_digits

W, H, PAD = 400, 140, 28


def svg(points: list[int], label: str, language: str | None = None) -> SafeString:
    """A line of ``points`` (shown ratings, oldest first) with its range on the scale's side."""
    if not points:
        return SafeString("")
    language = language or translation.get_language() or "fa"
    rtl = language.startswith("fa")  # the one right-to-left language of the site, as ``num`` decides
    lo, hi = min(points), max(points)
    if hi - lo < 20:
        lo, hi = lo - 10, hi + 10
    n = len(points)

    def x(i: int) -> float:
        at = PAD + (W - 2 * PAD) * (i / (n - 1) if n > 1 else 0.5)
        return W - at if rtl else at

    def y(v: int) -> float:
        return H - PAD + (v - lo) * -(H - 2 * PAD) / (hi - lo)

    def digits(v) -> str:
        return localise_digits(v, language)

    path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(points))
    dots = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="2.5"><title>{}</title></circle>',
        ((f"{x(i):.1f}", f"{y(v):.1f}", digits(v)) for i, v in enumerate(points)),
    )
    scale = W - PAD if rtl else PAD  # the vertical axis, at the side reading starts from
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {w} {h}" role="img" aria-label="{label}" data-testid="rating-chart"'
        ' data-direction="{direction}" preserveAspectRatio="xMidYMid meet">'
        '<line class="axis" x1="{p}" y1="{b}" x2="{r}" y2="{b}"/>'
        '<line class="axis" x1="{s}" y1="{p}" x2="{s}" y2="{b}"/>'
        '<text x="{tx}" y="{ty}" text-anchor="{anchor}" direction="ltr">{hi}</text>'
        '<text x="{tx}" y="{by}" text-anchor="{anchor}" direction="ltr">{lo}</text>'
        '<polyline class="line" points="{path}"/>{dots}</svg>',
        w=W,
        h=H,
        label=label,
        direction="rtl" if rtl else "ltr",
        p=PAD,
        b=H - PAD,
        r=W - PAD,
        s=scale,
        tx=W - 2 if rtl else 2,
        anchor="end" if rtl else "start",
        ty=PAD + 4,
        by=H - PAD,
        hi=digits(hi),
        lo=digits(lo),
        path=path,
        dots=dots,
    )
