"""A small deterministic generator for the bots (splitmix64), so that a decision is a
pure function of (view, seat, level, seed) and the package imports no ``random``.

It offers the three methods the engines' fast paths call on an ``rng``:
``random()``, ``shuffle(list)`` and, for convenience, ``randrange(n)``.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Rng:
    __slots__ = ("_s",)

    def __init__(self, seed: int = 0):
        self._s = (int(seed) * 0x2545F4914F6CDD1D + 0x632BE59BD9B4E019) & _MASK

    def _next(self) -> int:
        self._s = s = (self._s + _GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        """A float in [0, 1)."""
        return (self._next() >> 11) * (1.0 / (1 << 53))

    def randrange(self, n: int) -> int:
        return int(self.random() * n)

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = int(self.random() * (i + 1))
            items[i], items[j] = items[j], items[i]


def mix(*parts) -> int:
    """A seed from several ints/strings (stable across runs, unlike ``hash``)."""
    h = 0xCBF29CE484222325
    for part in parts:
        for ch in str(part):
            h = ((h ^ ord(ch)) * 0x100000001B3) & _MASK
        h = ((h ^ 0xFF) * 0x100000001B3) & _MASK
    return h
