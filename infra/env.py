"""Reading the site's settings from the environment (config/settings.py).

Plain helpers, no Django settings of their own: a variable as text, a flag,
a number or a list; a PostgreSQL URL as a ``DATABASES`` entry (the pooled
backend, infra/pgpool); the embedded site's own secret key, made once.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from urllib.parse import unquote, urlparse

from django.core.exceptions import ImproperlyConfigured


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value not in (None, "") else default


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


def database_from_url(url: str) -> dict:
    """postgres://user:password@host:port/name -> a Django DATABASES entry."""
    parsed = urlparse(url)
    if parsed.scheme not in {"postgres", "postgresql"}:
        raise ImproperlyConfigured(f"DATABASE_URL must be a PostgreSQL URL, not {parsed.scheme!r}")
    return {
        # Django's PostgreSQL backend; a thread that ends gives its pooled connection back.
        "ENGINE": "infra.pgpool",
        "NAME": unquote(parsed.path.lstrip("/")) or "postgres",
        "USER": unquote(parsed.username or ""),
        "PASSWORD": unquote(parsed.password or ""),
        "HOST": parsed.hostname or "",
        "PORT": str(parsed.port or ""),
        # Issue 33: one bounded pool of connections per process (psycopg_pool,
        # Django's own "pool" option) shared by the pages, the sockets' threads
        # and the worker's ticker. Under ASGI every page runs on a thread of its
        # own: connections kept per thread (CONN_MAX_AGE) grew with the visitors
        # until PostgreSQL refused more. A request finds a free connection or
        # waits for one (DB_POOL_TIMEOUT), never opens one past DB_POOL_SIZE.
        # A connection is checked when lent (a broken one is replaced).
        "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": {
            "pool": {
                "min_size": env_int("DB_POOL_MIN", 2),
                "max_size": env_int("DB_POOL_SIZE", 16),
                "timeout": float(env_str("DB_POOL_TIMEOUT", "20")),
                "max_idle": 300,
            }
        },
        "ATOMIC_REQUESTS": False,
        "TEST": {"NAME": env_str("TEST_DATABASE_NAME", "") or None},
    }


def local_secret_key(folder: Path) -> str:
    """The embedded site's own secret, generated once and kept in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "secret_key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as out:
        out.write(secrets.token_urlsafe(50))
    return path.read_text().strip()
