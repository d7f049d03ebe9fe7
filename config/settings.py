"""Settings, read from the environment in this one place.

Two ways to run (ARCHITECTURE.md):
- embedded default: no DATABASE_URL and no REDIS_URL -> SQLite file,
  in-memory channel layer, local-memory cache, in-process deadlines;
- production: DATABASE_URL (PostgreSQL) and REDIS_URL -> PostgreSQL, the
  Redis channel layer, Django's Redis cache and Celery on Redis.
"""

from __future__ import annotations

import ssl
import sys
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from infra.env import database_from_url, env_bool, env_int, env_list, env_str, local_secret_key
from ops.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent


DEV_SECRET_KEY = "dev-insecure-secret-key-change-me-in-production"
TEST_SECRET_KEY = "test-only-secret-key-never-used-by-a-running-site-0123456789"

DATABASE_URL = env_str("DATABASE_URL")
REDIS_URL = env_str("REDIS_URL")
EMBEDDED = not DATABASE_URL and not REDIS_URL
"""True in the embedded default (`make run`): nothing to install or start."""
PRODUCTION = bool(DATABASE_URL and REDIS_URL)
"""Production mode: PostgreSQL and Redis given (issue 14: DEBUG off, a real key, HTTPS)."""
TESTING = "pytest" in sys.modules
"""Under the test suite: a fixed test key, plain HTTP (the test client and loopback servers)."""
DATA_DIR = Path(env_str("DATA_DIR", str(BASE_DIR / "db")))
"""The embedded site's data folder (git-ignored): the SQLite file and the local secret."""


# DEBUG is off unless asked for (`DEBUG=true make run` keeps Django's debug pages).
DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not PRODUCTION:
        SECRET_KEY = local_secret_key(DATA_DIR)
    elif TESTING:
        SECRET_KEY = TEST_SECRET_KEY
    elif DEBUG:
        SECRET_KEY = DEV_SECRET_KEY
    else:
        raise ImproperlyConfigured(
            "Production mode (DATABASE_URL and REDIS_URL are set): set SECRET_KEY to a real secret."
        )
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured("DEBUG is off: set SECRET_KEY to a real secret, not the development key.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# Production serves HTTPS (directly or behind a TLS proxy): secure cookies,
# HSTS and the redirect are on by default there; SITE_HTTPS=false (a site on
# plain HTTP, such as a loopback test server) turns the defaults off, and each
# variable below still overrides its own setting.
SITE_HTTPS = env_bool("SITE_HTTPS", PRODUCTION and not DEBUG and not TESTING)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", SITE_HTTPS)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000 if SITE_HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", SITE_HTTPS)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", SITE_HTTPS)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", SITE_HTTPS)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
if env_bool("BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "allauth",
    "allauth.account",
    "accounts",
    "friends",
    "rooms",
    "games",
    "leaderboard",
    "replays",
    "school",
    "ratings",
    "playnow",
    "events",
    "ops",
    "notify",  # issue 40: manifest, service worker, notifications, Web Push
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "infra.middleware.RefuseNulMiddleware",
    "infra.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "ops.context.request_context_middleware",  # the log lines' user (issue 39)
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
            "builtins": ["accounts.templatetags.persian"],
        },
    }
]

# --- Database -------------------------------------------------------------
if DATABASE_URL:
    DATABASES = {"default": database_from_url(DATABASE_URL)}
else:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": DATA_DIR / "takhteh.sqlite3",
            # SQLite locks the whole file: a writer waits rather than failing.
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channel layer, cache, Celery ------------------------------------------
# REDIS_URL may carry a user, a password and TLS: rediss://user:password@host:6380/0.
# With rediss://, the server's certificate is checked (REDIS_SSL_CERT_REQS:
# required, optional or none; REDIS_SSL_CA_CERTS: a CA bundle of your own).
REDIS_TLS = REDIS_URL.startswith("rediss://")
REDIS_SSL = {}
if REDIS_TLS:
    REDIS_SSL = {"ssl_cert_reqs": env_str("REDIS_SSL_CERT_REQS", "required")}
    if env_str("REDIS_SSL_CA_CERTS"):
        REDIS_SSL["ssl_ca_certs"] = env_str("REDIS_SSL_CA_CERTS")
# The site's own prefix on every channel-layer name and cache key, so that
# two sites (or a test run) sharing one Redis never read each other's messages.
CHANNEL_PREFIX = env_str("CHANNEL_PREFIX", "takhteh")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # channels-redis's pub/sub layer (measured on this kind of machine:
            # half the latency of RedisChannelLayer, which also dropped
            # broadcasts under load), with one round trip per batch of
            # publishes (infra/layers.py).
            "BACKEND": "infra.layers.BatchedPubSubChannelLayer",
            "CONFIG": {
                # redis-py 8 caps an async pool at 100 connections unless told otherwise.
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "max_connections": env_int("REDIS_MAX_CONNECTIONS", 500),
                        **REDIS_SSL,
                    }
                ],
                "prefix": CHANNEL_PREFIX,
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "infra.cache.SharedRedisCache",  # one connection pool per process
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env_str("CACHE_PREFIX", "takhteh"),
            # redis-py 8 caps its pool at 100 connections unless told otherwise.
            "OPTIONS": {"max_connections": env_int("REDIS_MAX_CONNECTIONS", 500), **REDIS_SSL},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Template fragments that depend on the code and the language only (the
# lobby's room forms): each process keeps its own, no round trip (issue 33).
CACHES["template_fragments"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "fragments",
}

ANONYMOUS_PAGE_SECONDS = env_int("ANONYMOUS_PAGE_SECONDS", 0 if TESTING else 5)
"""How long each process keeps a public page drawn for anonymous visitors (issue 33; 0: never)."""
RECENT_LIST_SECONDS = env_int("RECENT_LIST_SECONDS", 0 if TESTING else 2)
"""How long each process keeps the lobby's list of rooms for every visitor (issue 33; 0: never)."""
KEPT_PART_SECONDS = env_int("KEPT_PART_SECONDS", 0 if TESTING else 60)
"""The longest a part of a page drawn alike for everyone ({% keep %}) is kept per process (issue 33)."""

DEADLINES = env_str("DEADLINES", "celery" if REDIS_URL else "inprocess")
"""Who plays the automatic move when a turn's time runs out (C-8): `celery` or `inprocess`."""

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
# Deadlines (games/clock.py): a countdown task must survive a lost worker.
# - visibility_timeout is longer than the longest turn countdown (60 s) plus
#   the rematch/next-round pauses, so Redis does not hand an ETA task to a
#   second worker while the first still holds it; a lost worker's task comes
#   back after it, and the sweep (every 10 s) covers the gap meanwhile;
# - acks_late + reject_on_worker_lost: a task is acknowledged only after it
#   ran, so a worker killed mid-task does not lose it;
# - the tasks are idempotent by match version, so running one twice is safe.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 300}
if REDIS_TLS:
    _CERT_REQS = {"required": ssl.CERT_REQUIRED, "optional": ssl.CERT_OPTIONAL, "none": ssl.CERT_NONE}
    CELERY_BROKER_USE_SSL = {**REDIS_SSL, "ssl_cert_reqs": _CERT_REQS[REDIS_SSL["ssl_cert_reqs"]]}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Issue 14: a Redis restart must not end the worker. Retry the broker for
# ever, and do not let a lost connection cancel the tasks being run (the
# kombu failure on broker loss that ended the worker came from there).
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_TIMEZONE = "UTC"
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "takhteh")
SWEEP_SECONDS = float(env_str("SWEEP_SECONDS", "10"))
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": SWEEP_SECONDS},
    "lift-suspensions": {"task": "friends.lift_suspensions", "schedule": 60.0},
    # M-1, M-5: play-now tables whose wait is over get their bots (backing the
    # per-table timers); tables nobody is at are closed.
    "playnow-sweep": {"task": "playnow.sweep", "schedule": float(env_str("PLAY_NOW_SWEEP_SECONDS", "2"))},
    "events-tick": {"task": "events.tasks.tick", "schedule": float(env_str("EVENTS_TICK_SECONDS", "2"))},
}
ARENA_BOT_WAIT = float(env_str("ARENA_BOT_WAIT", "10"))
"""E-3 (issue 37): seconds a free arena player waits, too few people being free
for a table, before he is seated with strong bots in the empty seats."""

# --- Accounts --------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "accounts.backends.ModelBackend",  # Django's, the profile read with the user (issue 33)
    "allauth.account.auth_backends.AuthenticationBackend",
    "django.contrib.auth.backends.ModelBackend",  # sessions signed in before it
]
# A session is read from the cache, PostgreSQL only on a miss (issue 33).
SESSION_ENGINE = "infra.sessions"  # cached_db, its database read a statement built once
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "none"
ACCOUNT_USERNAME_MIN_LENGTH = 3
ACCOUNT_PRESERVE_USERNAME_CASING = True
ACCOUNT_USERNAME_VALIDATORS = "accounts.validators.username_validators"
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_RATE_LIMITS = {
    "login_failed": "10/m/ip,5/5m/key",
    "signup": "20/m/ip",
    "change_password": "5/m/user",
}
ACCOUNT_SESSION_REMEMBER = True
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_FORMS = {"signup": "accounts.forms.SignupForm"}

# --- Internationalisation ----------------------------------------------------
LANGUAGE_CODE = "fa"
LANGUAGES = [("fa", _("Persian")), ("en", _("English"))]
# The site's catalogue first (it wins on a shared msgid), then each app's own
# (an app that owns its strings keeps its catalogue beside its code).
LOCALE_PATHS = [BASE_DIR / "locale", *sorted(p for p in BASE_DIR.glob("*/locale") if p.is_dir())]
LANGUAGE_COOKIE_NAME = "lang"
USE_I18N = True
TIME_ZONE = "Asia/Tehran"
USE_TZ = True

# --- Static files --------------------------------------------------------------
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

# --- API -------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 25,
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Takhteh API",
    "DESCRIPTION": "Leaderboards and player statistics (public, read-only), and the signed-in player's "
    "friends, friend requests, invites and reports (read and write, with the session and its CSRF "
    "token); the moderators' report queue. Messages and errors are in the request's language "
    "(the `lang` cookie, else Accept-Language; Persian by default).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Game platform -----------------------------------------------------------------
TABLE = {
    "REACTION_INTERVAL": 8.0,  # one reaction per player every eight seconds
    # a dead tab's entry expires after PRESENCE_TTL; the next heartbeat
    # of any tab at the table (every HEARTBEAT_SECONDS, checked at most every
    # half heartbeat) notices it: right again within 25 + 10 + 5 = 40 s.
    "PRESENCE_TTL": 25,
    "HEARTBEAT_SECONDS": 10,
    "BOT_DELAY": float(env_str("BOT_DELAY", "0.9")),
    "BOT_LEVEL": env_str(
        "BOT_LEVEL", "normal"
    ),  # a bot seat's level when none was chosen (issue 21)  # a bot's human-looking pause, seconds
    "ROUND_PAUSE": float(env_str("ROUND_PAUSE", "4")),  # C-7: the result shows, then the next deal
    # E-3: a finished arena table's page goes to its player's next table after this.
    "ARENA_GO_SECONDS": 5.0,
    "STAND_IN_SECONDS": 5.0,  # L-7: a gone player's turn clock once the stand-in plays (games/standin.py)
    "STAND_IN_LEVEL": "normal",  # L-7: the bot whose choice the stand-in plays
    # Multiplies every turn's time (C-8); below 1 only to speed up tests and demos.
    "TURN_SCALE": float(env_str("TURN_SCALE", "1")),
    "MAX_FRAME_BYTES": 4096,
    # Production deadlines: how often the workers' ticker looks for due turns (issue 13).
    "TICK_SECONDS": float(env_str("TICK_SECONDS", "0.1")),
    # Database calls of the table's sockets run on this many threads per
    # Daphne process (the row lock serialises each match; tables run in parallel).
    # Few: every busy thread takes the GIL from the event loop (moves, fair deal
    # answers, socket writes); 8 such threads and 4 arrival threads starved it at
    # 200 tables starting, 3 and 2 starved nothing (docs/performance.md).
    "DB_THREADS": int(env_str("DB_THREADS", "3")),
    # ... and heartbeats on threads of their own: a burst of them never queues in front of a move.
    "BEAT_THREADS": int(env_str("BEAT_THREADS", "2")),
    # ... and arrivals (the greeting: room, state, presence) too: 800 sockets
    # connecting at once queue behind each other, not in front of the moves.
    "HELLO_THREADS": int(env_str("HELLO_THREADS", "2")),
    # ... and a table's start on a thread of its own: a thousand starts queue
    # behind each other, not in front of the first deals and moves (issue 39).
    "START_THREADS": int(env_str("START_THREADS", "1")),
    # A person's plain move (a card or a call inside a round) runs on the
    # event loop itself, over this many PostgreSQL connections of the loop's
    # own (games/plain.py, infra/adb.py); 0: on the threads like the rest.
    "MOVE_CONNECTIONS": int(env_str("MOVE_CONNECTIONS", "8")),
    "FRAME_BURST": int(env_str("FRAME_BURST", "40")),  # frames a connection may send at once ...
    "FRAME_RATE": float(env_str("FRAME_RATE", "8")),  # ... and per second after that
    # H4-X4: the others' time to say no to a tea, and a multiplier of the
    # narrator's reading time (below 1 only to speed up tests and demos).
    "TEA_ASK_SECONDS": float(env_str("TEA_ASK_SECONDS", "10")),
    "TEA_SCALE": float(env_str("TEA_SCALE", "1")),
}
# F-4: how long a seat has to send its fingerprint, then its value, before its substitute is used.
FAIR_WAIT_SECONDS = float(env_str("FAIR_WAIT_SECONDS", "4"))

# --- Play now and the live lobby (M-1, M-3, M-5) ---------------------------------------
PLAY_NOW_BOT_WAIT = float(env_str("PLAY_NOW_BOT_WAIT", "20"))
"""M-1: seconds before a play-now table's empty seats get bots."""
PLAY_NOW_WINDOW = (150.0, 25.0)
"""M-3: the rating window (shown points) at first, and how much it widens per second waited."""
PLAY_NOW_TIMERS = env_str("PLAY_NOW_TIMERS", "true").lower() in ("1", "true", "yes")
"""A timer per new table in the process that opened it (the sweep backs it up)."""
LOBBY_ABANDONED_SECONDS = float(env_str("LOBBY_ABANDONED_SECONDS", "600"))
"""M-5: a table with no person connected for this long is closed."""
LOBBY_TICK_SECONDS = float(env_str("LOBBY_TICK_SECONDS", "1"))
"""M-5: at most one lobby update a second per viewer."""

# One JSON line per event in production (LOG_FORMAT=json|text), plain text otherwise (ops/logs.py).
LOGGING = logging_config(
    env_str("LOG_FORMAT", "json" if PRODUCTION else "text") == "json", env_str("LOG_LEVEL", "WARNING")
)
