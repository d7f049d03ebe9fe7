"""What never leaves the process in a log line or an error report: secrets,
passwords, session ids, tokens, the fair deal's values and server secrets,
and hands (hidden cards).

Two rules: a field whose name says it is secret loses its value, and a text
loses what looks like a credential (a URL's password, ``sessionid=...``, a
bearer token, the site's ``SECRET_KEY`` itself).
"""

from __future__ import annotations

import re

REDACTED = "[redacted]"

# Field names (lower case, whole or as a part) whose value is never written.
SECRET_NAMES = (
    "password",
    "passwd",
    "secret",
    "token",
    "session",
    "cookie",
    "authorization",
    "api_key",
    "apikey",
    "dsn",
    "csrf",
    "commitment",
    "server_secret",
    "values",
    "hand",
    "hands",
    "cards",
    "deck",
    "state",
)
_NAME = re.compile("|".join(re.escape(n) for n in SECRET_NAMES), re.IGNORECASE)

_TEXT_PATTERNS = [
    # scheme://user:password@host -> scheme://user:[redacted]@host
    (re.compile(r"(\b[a-z][a-z0-9+.-]*://[^:/@\s]*:)[^@\s]+(@)", re.IGNORECASE), r"\1" + REDACTED + r"\2"),
    (
        re.compile(r"\b(sessionid|csrftoken|session_key|sessionKey)\b(['\"]?\s*[=:]\s*['\"]?)[\w.-]+", re.I),
        r"\1\2" + REDACTED,
    ),
    # 256-bit hex (a fair deal value, a server secret, a commitment): never needed in a log
    (re.compile(r"\b[0-9a-fA-F]{64}\b"), REDACTED),
    (re.compile(r"\b(Bearer|Token)\s+[\w.~+/=-]{8,}", re.IGNORECASE), r"\1 " + REDACTED),
    (
        re.compile(r"\b(password|passwd|secret|token|api_key)\b(['\"]?\s*[=:]\s*['\"]?)[^\s'\",}&]+", re.I),
        r"\1\2" + REDACTED,
    ),
]

_secret_key: str | None = None


def _site_secret() -> str:
    global _secret_key
    if _secret_key is None:
        try:
            from django.conf import settings

            _secret_key = settings.SECRET_KEY or ""
        except Exception:  # noqa: BLE001 - settings not ready: nothing to hide yet
            return ""
    return _secret_key


def secret_name(name: str) -> bool:
    return bool(_NAME.search(name))


def text(value: str) -> str:
    for pattern, replacement in _TEXT_PATTERNS:
        value = pattern.sub(replacement, value)
    key = _site_secret()
    if key and len(key) >= 8 and key in value:
        value = value.replace(key, REDACTED)
    return value


def args(values):
    """A log record's ``args`` with each secret field redacted, the same shape."""
    if isinstance(values, dict):
        return {
            k: (REDACTED if isinstance(k, str) and secret_name(k) else _arg(v)) for k, v in values.items()
        }
    if isinstance(values, tuple):
        return tuple(_arg(v) for v in values)
    return values


def _arg(obj):
    if isinstance(obj, (dict, list, tuple)):
        return value(obj)
    return obj


def value(obj, depth: int = 0):
    """``obj`` with every secret field's value and credential-like text redacted."""
    if depth > 8:
        return "…"
    if isinstance(obj, str):
        return text(obj)
    if isinstance(obj, dict):
        return {
            k: (REDACTED if isinstance(k, str) and secret_name(k) else value(v, depth + 1))
            for k, v in obj.items()
        }
    if isinstance(obj, (list, tuple)):
        return [value(v, depth + 1) for v in obj]
    if obj is None or isinstance(obj, (bool, int, float)):
        return obj
    return text(repr(obj))
