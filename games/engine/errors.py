"""Typed errors of the engine (python-chess style: narrow, with a code)."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow now.

    ``code`` is machine readable (the socket protocol sends it to clients);
    ``message`` is a short English explanation for logs and developers.
    """

    def __init__(self, code: str, message: str = ""):
        super().__init__(message or code)
        self.code = code
        self.message = message or code

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"IllegalAction({self.code!r}, {self.message!r})"
