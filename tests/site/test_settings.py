"""Settings choose the embedded or the production backends from the environment."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import json, django; django.setup(); from django.conf import settings as s;"
    "print(json.dumps({'db': s.DATABASES['default']['ENGINE'], 'layer': s.CHANNEL_LAYERS['default']['BACKEND'],"
    "'cache': s.CACHES['default']['BACKEND'], 'broker': s.CELERY_BROKER_URL, 'deadlines': s.DEADLINES,"
    "'embedded': s.EMBEDDED, 'hsts': s.SECURE_HSTS_SECONDS, 'secure': s.SESSION_COOKIE_SECURE,"
    "'csrf': s.CSRF_TRUSTED_ORIGINS}))"
)


def probe(env_extra, tmp_path):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "SITE_HTTPS"}
    }
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings", "DATA_DIR": str(tmp_path)}, **env_extra)
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True)
    return done


def test_it_runs_embedded_without_service_urls(tmp_path):
    done = probe({}, tmp_path)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["embedded"] is True
    assert got["db"] == "django.db.backends.sqlite3"
    assert got["layer"] == "channels.layers.InMemoryChannelLayer"
    assert got["cache"].endswith("LocMemCache")
    assert got["deadlines"] == "inprocess"


def test_it_uses_postgres_and_redis_when_given(tmp_path):
    done = probe(
        {
            "DATABASE_URL": "postgres://u:p@127.0.0.1:5432/x",
            "REDIS_URL": "redis://127.0.0.1:6379/3",
            "SECRET_KEY": "k" * 50,
        },
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["embedded"] is False
    assert got["db"] == "infra.pgpool"  # Django's PostgreSQL backend and its pool (issue 33)
    assert got["layer"] == "infra.layers.BatchedPubSubChannelLayer"  # pipelined publishes
    assert got["cache"] == "infra.cache.SharedRedisCache"  # one pool per process (infra/cache.py)
    assert got["broker"] == "redis://127.0.0.1:6379/3"
    assert got["deadlines"] == "celery"


def test_it_refuses_debug_off_with_the_development_key(tmp_path):
    from config.settings import DEV_SECRET_KEY

    done = probe({"DEBUG": "false", "SECRET_KEY": DEV_SECRET_KEY}, tmp_path)
    assert done.returncode != 0
    assert "SECRET_KEY" in done.stderr


@pytest.mark.parametrize("flag", ["1", "true"])
def test_it_switches_security_settings_from_the_environment(tmp_path, flag):
    done = probe(
        {
            "DEBUG": "false",
            "SECRET_KEY": "x" * 50,
            "SECURE_COOKIES": flag,
            "SECURE_HSTS_SECONDS": "3600",
            "CSRF_TRUSTED_ORIGINS": "https://takhteh.example",
        },
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["secure"] is True and got["hsts"] == 3600 and got["csrf"] == ["https://takhteh.example"]


def test_it_refuses_a_non_postgres_database_url(tmp_path):
    done = probe({"DATABASE_URL": "mysql://x@127.0.0.1/db"}, tmp_path)
    assert done.returncode != 0 and "PostgreSQL" in done.stderr
