"""The site's VAPID keys (RFC 8292): the push services know our pushes by them.

From the environment (``VAPID_PUBLIC_KEY``, ``VAPID_PRIVATE_KEY``,
``VAPID_SUBJECT``) when set; in the embedded default, from a file under
DATA_DIR written once by ``manage.py vapid_keys`` (kept like the local secret
key). Production without them has no Web Push (the pages' own notifications
still work). Keys are base64url without padding: the public one the
browser's ``applicationServerKey`` (an uncompressed P-256 point, 65 bytes),
the private one the raw 32-byte scalar.
"""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings

FILE_NAME = "vapid_keys.json"
DEFAULT_SUBJECT = "mailto:admin@localhost"


@dataclass(frozen=True)
class Keys:
    public: str
    private: str
    subject: str


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def generate() -> tuple[str, str]:
    """A new (public, private) key pair."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64(public), b64(private)


def key_file() -> Path:
    return Path(settings.DATA_DIR) / FILE_NAME


def write_local(folder: Path | None = None) -> tuple[Path, bool]:
    """The embedded site's keys, generated once: (path, created)."""
    path = (Path(folder) if folder else Path(settings.DATA_DIR)) / FILE_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path, False
    public, private = generate()
    with os.fdopen(fd, "w") as out:
        json.dump({"public": public, "private": private}, out)
    return path, True


def keys() -> Keys | None:
    """The site's keys, or None when Web Push is off (no keys given)."""
    subject = os.environ.get("VAPID_SUBJECT") or getattr(settings, "VAPID_SUBJECT", "") or DEFAULT_SUBJECT
    public = os.environ.get("VAPID_PUBLIC_KEY", "")
    private = os.environ.get("VAPID_PRIVATE_KEY", "")
    if public and private:
        return Keys(public, private, subject)
    try:
        data = json.loads(key_file().read_text())
    except (OSError, ValueError):
        return None
    if data.get("public") and data.get("private"):
        return Keys(data["public"], data["private"], subject)
    return None


def matches(public: str, private: str) -> bool:
    """Whether ``private`` is the key of ``public`` (a misconfiguration check)."""
    try:
        key = ec.derive_private_key(int.from_bytes(unb64(private), "big"), ec.SECP256R1())
    except ValueError:
        return False
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64(point) == public
