"""Issue 14, item 8 and the headers: production mode (DATABASE_URL and
REDIS_URL) defaults to DEBUG off, refuses a missing or development key, and
turns secure cookies, HSTS and the HTTPS redirect on; `check --deploy` is
clean there. The embedded default (`make run`) is DEBUG off with a secret
generated once under the data folder. Redis may carry a password and TLS,
and the channel layer and cache carry the site's own prefix (item 3)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# (DJANGO_ALLOW_ASYNC_UNSAFE: a test harness may set it; a deployment never does.)
STRIP = {
    "CHANNEL_PREFIX",
    "CACHE_PREFIX",
    "DATABASE_URL",
    "REDIS_URL",
    "DEBUG",
    "SECRET_KEY",
    "SITE_HTTPS",
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
}
PRODUCTION = {
    "DATABASE_URL": "postgres://u:p@127.0.0.1:5432/x",
    "REDIS_URL": "redis://127.0.0.1:6379/3",
}
REAL_KEY = "Zq3" + "x7Lw-9pK_vR2mT8nB4cY6hJ1dF5gS0aE" * 2
PROBE = (
    "import json, django; django.setup(); from django.conf import settings as s;"
    "layer = s.CHANNEL_LAYERS['default'].get('CONFIG', {});"
    "print(json.dumps({'debug': s.DEBUG, 'key': s.SECRET_KEY, 'secure': s.SESSION_COOKIE_SECURE,"
    "'csrf_secure': s.CSRF_COOKIE_SECURE, 'hsts': s.SECURE_HSTS_SECONDS, 'redirect': s.SECURE_SSL_REDIRECT,"
    "'hosts': layer.get('hosts'), 'prefix': layer.get('prefix'), 'cache': s.CACHES['default'],"
    "'broker': s.CELERY_BROKER_URL, 'broker_ssl': str(getattr(s, 'CELERY_BROKER_USE_SSL', None))}))"
)


def run(args, env_extra, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in STRIP}
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings", "DATA_DIR": str(tmp_path)}, **env_extra)
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True)


def probe(env_extra, tmp_path):
    done = run(["-c", PROBE], env_extra, tmp_path)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_production_mode_defaults_to_debug_off_and_https(tmp_path):
    got = probe({**PRODUCTION, "SECRET_KEY": REAL_KEY}, tmp_path)
    assert got["debug"] is False
    assert got["secure"] is True and got["csrf_secure"] is True
    assert got["hsts"] >= 31536000 and got["redirect"] is True


def test_production_mode_refuses_a_missing_or_development_key(tmp_path):
    from config.settings import DEV_SECRET_KEY

    missing = run(["-c", PROBE], PRODUCTION, tmp_path)
    assert missing.returncode != 0 and "SECRET_KEY" in missing.stderr
    dev = run(["-c", PROBE], {**PRODUCTION, "SECRET_KEY": DEV_SECRET_KEY}, tmp_path)
    assert dev.returncode != 0 and "SECRET_KEY" in dev.stderr


def test_check_deploy_is_clean_with_the_production_settings(tmp_path):
    done = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        {**PRODUCTION, "SECRET_KEY": REAL_KEY, "ALLOWED_HOSTS": "takhteh.example"},
        tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_the_embedded_default_is_debug_off_with_a_local_secret_kept_in_the_data_folder(tmp_path):
    first = probe({}, tmp_path)
    assert first["debug"] is False
    kept = (tmp_path / "secret_key").read_text().strip()
    assert first["key"] == kept and len(kept) >= 50
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0  # readable by its owner only
    assert probe({}, tmp_path)["key"] == kept  # the same secret next time (sessions survive a restart)
    other = tmp_path / "other"
    assert probe({"DATA_DIR": str(other)}, tmp_path)["key"] != kept


def test_debug_true_keeps_djangos_debug_pages(tmp_path):
    assert probe({"DEBUG": "true"}, tmp_path)["debug"] is True


def test_redis_with_password_and_tls_reaches_the_layer_the_cache_and_celery(tmp_path):
    url = "rediss://takhteh:s3cret@redis.example:6380/2"
    got = probe(
        {**PRODUCTION, "REDIS_URL": url, "SECRET_KEY": REAL_KEY, "CHANNEL_PREFIX": "mysite"}, tmp_path
    )
    assert got["hosts"][0]["address"] == url and got["hosts"][0]["ssl_cert_reqs"] == "required"
    assert got["prefix"] == "mysite"
    assert got["cache"]["LOCATION"] == url and got["cache"]["OPTIONS"]["ssl_cert_reqs"] == "required"
    assert got["broker"] == url and "CERT_REQUIRED" in got["broker_ssl"]
    # redis-py reads the URL as a TLS connection with the user and password.
    from redis.asyncio import ConnectionPool

    pool = ConnectionPool.from_url(url, **{k: v for k, v in got["hosts"][0].items() if k != "address"})
    assert pool.connection_class.__name__ == "SSLConnection"
    assert pool.connection_kwargs["username"] == "takhteh" and pool.connection_kwargs["password"] == "s3cret"


def test_the_channel_layer_and_cache_have_the_sites_own_prefix_by_default(tmp_path):
    got = probe({**PRODUCTION, "SECRET_KEY": REAL_KEY}, tmp_path)
    assert got["prefix"] == "takhteh"
    assert got["cache"]["KEY_PREFIX"]
