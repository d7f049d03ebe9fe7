"""Sentry (issue 39): off unless SENTRY_DSN is set; every event scrubbed by
``before_send`` first. No network: the SDK's transport is replaced by one
that keeps the events."""

from __future__ import annotations

import json

import pytest
import sentry_sdk
from sentry_sdk.transport import Transport

from ops import sentry

PASSWORD = "correct-horse-" + "battery"
SESSION = "mdxneb9nrgxk32web" + "zhhhclnnoe2jrje"
SECRET_VALUE = "9e7cad188d45ef433acb6a4993fca48345a0ef459cf51380f851e33b75dff702"


class Kept(Transport):
    def __init__(self, options=None):
        super().__init__(options)
        self.events: list[dict] = []

    def capture_envelope(self, envelope):
        for item in envelope.items:
            if item.type in ("event", "transaction"):
                self.events.append(item.payload.json)


def test_it_is_off_without_a_dsn(monkeypatch):
    monkeypatch.delenv("SENTRY_DSN", raising=False)
    assert sentry.init() is False


@pytest.fixture
def kept():
    transport = Kept()
    assert sentry.init("https://public@sentry.invalid/1", transport=transport, default_integrations=False)
    yield transport
    sentry_sdk.init()  # a client with no DSN: nothing is sent any more


def test_an_error_reaches_sentry_without_secrets(kept, settings):
    def fail(password, session_key, values, hand):
        cookie = f"sessionid={session_key}"  # noqa: F841 - a local the frame keeps
        raise RuntimeError(f"deal failed for {values[0]} with key {settings.SECRET_KEY}")

    try:
        fail(PASSWORD, SESSION, [SECRET_VALUE], ["AS", "KS", "QS"])
    except RuntimeError:
        sentry_sdk.capture_exception()
    sentry_sdk.flush()
    (event,) = kept.events
    text = json.dumps(event)
    for secret in (
        "correct-horse-battery",
        "mdxneb9nrgxk32webzhhhclnnoe2jrje",
        SECRET_VALUE,
        settings.SECRET_KEY,
    ):
        assert secret not in text, text[text.find(secret) - 700 : text.find(secret) + 50]
    frame = event["exception"]["values"][0]["stacktrace"]["frames"][-1]
    assert frame["vars"]["password"] == "[redacted]" and frame["vars"]["hand"] == "[redacted]"
    assert "RuntimeError" == event["exception"]["values"][0]["type"]  # the event itself is kept


def test_before_send_drops_cookies_and_secret_headers():
    event = {
        "request": {
            "url": "https://site/rooms/?token=abcdefgh12345678",
            "cookies": {"sessionid": "mdxneb9nrgxk32webzhhhclnnoe2jrje"},
            "headers": {
                "Cookie": "sessionid=mdxneb9nrgxk32webzhhhclnnoe2jrje",
                "User-Agent": "ua",
                "Authorization": "Bearer x",
            },
            "data": {"password": "correct-horse-battery", "room": "abc"},
        },
        "extra": {"session_key": "k", "room": "abc"},
        "user": {"id": 4, "email": "a@b.c", "ip_address": "203.0.113.9"},
        "logentry": {"message": "deal %s", "params": [{"server_secret": SECRET_VALUE}]},
    }
    out = sentry.before_send(event)
    text = json.dumps(out)
    assert "mdxneb9nrgxk32webzhhhclnnoe2jrje" not in text and "correct-horse-battery" not in text
    assert SECRET_VALUE not in text and "abcdefgh12345678" not in text and "Bearer x" not in text
    assert out["request"]["headers"] == {"User-Agent": "ua"}
    assert out["user"] == {"id": 4}
    assert out["extra"] == {"session_key": "[redacted]", "room": "abc"}
