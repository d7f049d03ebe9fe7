"""Shared by the notify tests: a device's keys and a push service on loopback."""

from __future__ import annotations

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from notify import push, vapid
from notify.models import PushSubscription


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Device:
    """A browser's side of a subscription: its ECDH key and auth secret."""

    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.p256dh = b64(
            self.key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    def decrypt(self, body: bytes) -> dict:
        return json.loads(
            http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        )


class PushService:
    """A push service on loopback: keeps what it receives, answers ``status``."""

    def __init__(self):
        self.received: list[dict] = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                service.received.append(
                    {
                        "path": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": self.rfile.read(length),
                    }
                )
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def service():
    s = PushService()
    yield s
    s.close()


@pytest.fixture
def keys(monkeypatch, settings):
    public, private = vapid.generate()
    monkeypatch.setenv("VAPID_PUBLIC_KEY", public)
    monkeypatch.setenv("VAPID_PRIVATE_KEY", private)
    monkeypatch.setenv("VAPID_SUBJECT", "mailto:ops@example.org")
    settings.NOTIFY_PUSH_ALLOW_INSECURE = True
    push.forget_subscribed()
    yield vapid.keys()
    push.forget_subscribed()


def subscribe(user, service, device, language="fa", path="/push/device-1"):
    return PushSubscription.objects.create(
        user=user, endpoint=service.url + path, p256dh=device.p256dh, auth=b64(device.auth), language=language
    )
