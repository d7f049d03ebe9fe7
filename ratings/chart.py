"""The rating history as an inline SVG, drawn on the server (M-4).

No script and no style attribute (the site's Content-Security-Policy forbids
inline ones): SVG presentation attributes and classes only.
"""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

W, H, PAD = 400, 140, 28


def svg(points: list[int], label: str) -> SafeString:
    """A line of ``points`` (shown ratings, oldest first) with its range on the left."""
    if not points:
        return SafeString("")
    lo, hi = min(points), max(points)
    if hi - lo < 20:
        lo, hi = lo - 10, hi + 10
    n = len(points)

    def x(i: int) -> float:
        return PAD + (W - 2 * PAD) * (i / (n - 1) if n > 1 else 0.5)

    def y(v: int) -> float:
        return H - PAD + (v - lo) * -(H - 2 * PAD) / (hi - lo)

    path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(points))
    dots = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="2.5"><title>{}</title></circle>',
        ((f"{x(i):.1f}", f"{y(v):.1f}", v) for i, v in enumerate(points)),
    )
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {w} {h}" role="img" aria-label="{label}" data-testid="rating-chart"'
        ' preserveAspectRatio="xMidYMid meet">'
        '<line class="axis" x1="{p}" y1="{b}" x2="{r}" y2="{b}"/>'
        '<line class="axis" x1="{p}" y1="{p}" x2="{p}" y2="{b}"/>'
        '<text x="2" y="{ty}" direction="ltr">{hi}</text><text x="2" y="{by}" direction="ltr">{lo}</text>'
        '<polyline class="line" points="{path}"/>{dots}</svg>',
        w=W,
        h=H,
        label=label,
        p=PAD,
        b=H - PAD,
        r=W - PAD,
        ty=PAD + 4,
        by=H - PAD,
        hi=hi,
        lo=lo,
        path=path,
        dots=dots,
    )
