"""Issue 40, in the background: VAPID keys, the subscription endpoint, and Web
Push end to end against a push service run by the test itself (no outside
service): the message arrives encrypted for the device (aes128gcm, RFC 8291)
and signed with the site's VAPID key (RFC 8292); a 410 drops the subscription."""

from __future__ import annotations

import json

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.core.management import call_command

from notify import push, tasks, vapid
from notify.models import PushSubscription
from tests.notify.conftest import Device, b64, subscribe

pytestmark = pytest.mark.django_db


def verify_vapid(headers: dict, keys: vapid.Keys, audience: str) -> dict:
    """The authorization header: ``vapid t=<JWT>, k=<public key>``, the JWT signed (ES256) by that key."""
    auth = headers["authorization"]
    assert auth.startswith("vapid ")
    parts = dict(p.strip().split("=", 1) for p in auth[len("vapid ") :].split(","))
    assert parts["k"] == keys.public
    header_b64, claims_b64, signature_b64 = parts["t"].split(".")
    header = json.loads(vapid.unb64(header_b64))
    claims = json.loads(vapid.unb64(claims_b64))
    assert header == {"typ": "JWT", "alg": "ES256"}
    raw = vapid.unb64(signature_b64)
    signature = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), vapid.unb64(keys.public))
    public.verify(
        signature, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256())
    )  # raises if forged
    assert claims["aud"] == audience and claims["sub"] == "mailto:ops@example.org"
    return claims


# --- VAPID keys -------------------------------------------------------------------------------


def test_the_command_generates_the_embedded_keys_once(tmp_path, settings, monkeypatch):
    monkeypatch.delenv("VAPID_PUBLIC_KEY", raising=False)
    monkeypatch.delenv("VAPID_PRIVATE_KEY", raising=False)
    settings.DATA_DIR = tmp_path
    assert vapid.keys() is None  # no keys: no Web Push
    call_command("vapid_keys")
    path = tmp_path / vapid.FILE_NAME
    first = path.read_text()
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    call_command("vapid_keys")
    assert path.read_text() == first  # generated once, kept
    keys = vapid.keys()
    assert vapid.matches(keys.public, keys.private)
    assert len(vapid.unb64(keys.public)) == 65 and len(vapid.unb64(keys.private)) == 32


def test_the_environment_wins_over_the_file(tmp_path, settings, monkeypatch):
    settings.DATA_DIR = tmp_path
    call_command("vapid_keys")
    public, private = vapid.generate()
    monkeypatch.setenv("VAPID_PUBLIC_KEY", public)
    monkeypatch.setenv("VAPID_PRIVATE_KEY", private)
    assert vapid.keys().public == public


# --- the subscription endpoint ---------------------------------------------------------------


def post(client, data, method="post"):
    return getattr(client, method)(
        "/notify/subscription/",
        data=json.dumps(data) if not isinstance(data, bytes) else data,
        content_type="application/json",
    )


def test_it_keeps_and_forgets_a_devices_subscription(client, alice, keys):
    client.force_login(alice)
    device = Device()
    data = {
        "endpoint": "http://127.0.0.1:9/push/x",
        "keys": {"p256dh": device.p256dh, "auth": b64(device.auth)},
    }
    response = post(client, data)
    assert response.status_code == 201
    row = PushSubscription.objects.get()
    assert row.user == alice and row.language == "fa"
    assert post(client, data).status_code == 200  # the same device again: one row
    assert PushSubscription.objects.count() == 1
    assert post(client, {"endpoint": data["endpoint"]}, "delete").json() == {"ok": True, "deleted": True}
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "data,code",
    [
        (b"not json", "bad_json"),
        ([], "bad_endpoint"),
        ({"keys": {}}, "bad_endpoint"),
        ({"endpoint": "ftp://push.example.org/x", "keys": {"p256dh": "x", "auth": "y"}}, "bad_endpoint"),
        ({"endpoint": "https://push.example.org/x"}, "bad_keys"),
        ({"endpoint": "https://push.example.org/x", "keys": {"p256dh": "AAAA", "auth": "AAAA"}}, "bad_keys"),
        ({"endpoint": "https://push.example.org/x", "keys": {"p256dh": 5, "auth": "AAAA"}}, "bad_keys"),
    ],
)
def test_it_refuses_bad_input_and_changes_nothing(client, alice, keys, data, code):
    client.force_login(alice)
    response = post(client, data)
    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["message"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "endpoint,code",
    [
        ("http://push.example.org/x", "not_https"),
        ("https://127.0.0.1/x", "private_host"),
        ("https://10.0.0.5/x", "private_host"),
        ("https://localhost/x", "private_host"),
        ("https://redis/x", "private_host"),
    ],
)
def test_it_refuses_endpoints_on_the_sites_own_network(client, alice, keys, settings, endpoint, code):
    """The worker posts to the endpoint: never to plain HTTP nor to a loopback or private host."""
    settings.NOTIFY_PUSH_ALLOW_INSECURE = False
    client.force_login(alice)
    device = Device()
    response = post(
        client, {"endpoint": endpoint, "keys": {"p256dh": device.p256dh, "auth": b64(device.auth)}}
    )
    assert response.status_code == 400 and response.json()["code"] == code
    assert not PushSubscription.objects.exists()


def test_it_refuses_the_signed_out_and_requests_without_csrf(client, alice, keys):
    from django.test import Client

    device = Device()
    data = {
        "endpoint": "https://push.example.org/x",
        "keys": {"p256dh": device.p256dh, "auth": b64(device.auth)},
    }
    assert post(client, data).status_code == 403
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert post(strict, data).status_code == 403
    assert client.get("/notify/subscription/").status_code == 405
    assert not PushSubscription.objects.exists()


# --- Web Push end to end -----------------------------------------------------------------------


def test_a_push_reaches_the_device_encrypted_and_signed(alice, service, keys):
    device = Device()
    subscribe(alice, service, device, language="en")
    assert push.deliver("turn", [alice.pk], {"room": "abc123"}) == 1
    (got,) = service.received
    assert got["path"] == "/push/device-1"
    headers = got["headers"]
    assert headers["content-encoding"] == "aes128gcm"
    assert int(headers["ttl"]) == push.TTL_SECONDS["turn"]
    verify_vapid(headers, keys, service.url)
    assert device.decrypt(got["body"]) == {
        "kind": "turn",
        "title": "Your turn",
        "body": "Your table is waiting for you.",
        "url": "/rooms/abc123/",
        "tag": "turn-abc123",
        "lang": "en",
    }
    # Only the device's key opens it.
    with pytest.raises(http_ece.ECEException):
        Device().decrypt(got["body"])
    assert PushSubscription.objects.get().last_sent_at is not None


def test_each_device_hears_in_its_own_language(alice, service, keys):
    fa, en = Device(), Device()
    subscribe(alice, service, fa, "fa", "/push/fa")
    subscribe(alice, service, en, "en", "/push/en")
    push.deliver("start", [alice.pk], {"room": "r1"})
    bodies = {r["path"]: r["body"] for r in service.received}
    assert fa.decrypt(bodies["/push/fa"])["title"] == "بازی شروع شد"
    assert en.decrypt(bodies["/push/en"])["title"] == "The match starts"


@pytest.mark.parametrize("status", [404, 410])
def test_an_expired_subscription_is_dropped(alice, service, keys, status):
    device = Device()
    subscribe(alice, service, device)
    service.status = status
    assert push.deliver("turn", [alice.pk], {"room": "abc"}) == 0
    assert len(service.received) == 1
    assert not PushSubscription.objects.exists()


def test_a_passing_failure_keeps_the_subscription(alice, service, keys):
    subscribe(alice, service, Device())
    service.status = 503
    push.deliver("turn", [alice.pk], {"room": "abc"})
    assert PushSubscription.objects.count() == 1


def test_nothing_is_sent_without_keys(alice, service, monkeypatch, settings, tmp_path):
    monkeypatch.delenv("VAPID_PUBLIC_KEY", raising=False)
    monkeypatch.delenv("VAPID_PRIVATE_KEY", raising=False)
    settings.DATA_DIR = tmp_path
    subscribe(alice, service, Device())
    assert push.deliver("turn", [alice.pk], {"room": "abc"}) == 0
    assert service.received == []


# --- who is away ----------------------------------------------------------------------------------


def test_a_friend_online_push_goes_to_friends_away_once(alice, bob, charlie, service, keys, monkeypatch):
    subscribe(bob, service, Device(), "en", "/push/bob")
    subscribe(charlie, service, Device(), "en", "/push/charlie")
    monkeypatch.setattr(tasks, "on_site", lambda uid: uid == charlie.pk)  # charlie has a page open
    assert tasks.friend_online(alice.pk, alice.username, [bob.pk, charlie.pk]) == 1
    assert [r["path"] for r in service.received] == ["/push/bob"]
    assert tasks.friend_online(alice.pk, alice.username, [bob.pk]) == 0  # coalesced


def test_a_player_keeps_his_newest_devices_only(client, alice, keys):
    from notify.views import MAX_DEVICES

    client.force_login(alice)
    device = Device()
    for n in range(MAX_DEVICES + 2):
        data = {
            "endpoint": f"http://127.0.0.1:9/push/{n}",
            "keys": {"p256dh": device.p256dh, "auth": b64(device.auth)},
        }
        assert post(client, data).status_code == 201
    kept = set(PushSubscription.objects.filter(user=alice).values_list("endpoint", flat=True))
    assert len(kept) == MAX_DEVICES
    assert "http://127.0.0.1:9/push/0" not in kept and f"http://127.0.0.1:9/push/{MAX_DEVICES + 1}" in kept


def test_signing_out_forgets_this_devices_subscription_only(client, alice, keys):
    from django.test import Client

    client.force_login(alice)
    device = Device()
    mine = {
        "endpoint": "http://127.0.0.1:9/push/here",
        "keys": {"p256dh": device.p256dh, "auth": b64(device.auth)},
    }
    assert post(client, mine).status_code == 201
    elsewhere = Client()
    elsewhere.force_login(alice)
    other = {**mine, "endpoint": "http://127.0.0.1:9/push/phone"}
    assert post(elsewhere, other).status_code == 201
    client.post("/accounts/logout/")
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [other["endpoint"]]
