"""Draws the app's PNG icons once from the favicon's shapes (static/img/favicon.svg).

Run ``python -m notify.icons`` after changing the favicon; the PNGs are
committed. Browsers ask a web app manifest for 192 and 512 pixel icons and a
"maskable" one whose drawing stays inside the central safe circle (80 %).
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

FELT = "#1f5a3f"
CARD = "#fffdf7"
GOLD = "#f2c14e"
INK = "#15181a"
OUT = Path(__file__).resolve().parent / "static" / "notify"
SUPER = 4  # drawn four times larger, then reduced: smooth edges


def _spade(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float) -> None:
    """A spade of height ``size`` centred on (cx, cy), in the favicon's proportions."""
    s = size / 23.0  # the favicon's spade is 23 units tall (y 22..45)
    top = cy - 11.5 * s
    # The leaf: two circles and a triangle to the tip.
    r = 5.2 * s
    lx, rx, ly = cx - 4.4 * s, cx + 4.4 * s, top + 13.5 * s
    draw.ellipse((lx - r, ly - r, lx + r, ly + r), fill=INK)
    draw.ellipse((rx - r, ly - r, rx + r, ly + r), fill=INK)
    draw.polygon([(cx, top), (cx - 9.2 * s, ly + 0.8 * s), (cx + 9.2 * s, ly + 0.8 * s)], fill=INK)
    # The stem.
    draw.polygon(
        [
            (cx - 1.0 * s, ly + 2 * s),
            (cx + 1.0 * s, ly + 2 * s),
            (cx + 3 * s, top + 23 * s),
            (cx - 3 * s, top + 23 * s),
        ],
        fill=INK,
    )


def draw(size: int, maskable: bool = False) -> Image.Image:
    big = size * SUPER
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    unit = big / 64.0
    if maskable:
        # Full bleed: the platform cuts its own shape; the card stays within the safe zone.
        d.rectangle((0, 0, big, big), fill=FELT)
        unit *= 0.8
    else:
        d.rounded_rectangle((4 * unit, 4 * unit, 60 * unit, 60 * unit), radius=12 * unit, fill=FELT)
    c = big / 2
    w, h = 30 * unit, 42 * unit
    d.rounded_rectangle(
        (c - w / 2, c - h / 2, c + w / 2, c + h / 2),
        radius=5 * unit,
        fill=CARD,
        outline=GOLD,
        width=max(1, round(2.5 * unit)),
    )
    _spade(d, c, c + 1.5 * unit, 23 * unit)
    return image.resize((size, size), Image.LANCZOS)


ICONS = {"icon-192.png": (192, False), "icon-512.png": (512, False), "icon-maskable-512.png": (512, True)}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (size, maskable) in ICONS.items():
        draw(size, maskable).save(OUT / name, optimize=True)
    draw(180, True).convert("RGB").save(OUT / "apple-touch-icon.png", optimize=True)


if __name__ == "__main__":
    main()
