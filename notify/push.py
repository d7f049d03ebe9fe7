"""Web Push (RFC 8030, 8291, 8292): a notification to a player's devices
whose tabs are closed, sent by the worker (``notify.tasks``), never on a
request's or a move's path.

What is sent: a title, a line, the page to open and a tag (a later push
with the same tag replaces the earlier one in the system tray), in the
subscription's language, encrypted for that device (aes128gcm) and signed
with the site's VAPID key. A 404 or 410 from the push service means the
subscription is gone: its row is deleted.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlparse

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from . import vapid
from .models import PushSubscription

log = logging.getLogger(__name__)

KINDS = ("turn", "invite", "start", "friend_online")
TTL_SECONDS = {"turn": 60, "invite": 600, "start": 120, "friend_online": 300}
"""How long a push service keeps an undelivered message: a turn is stale after its clock."""


def allow_insecure() -> bool:
    """Plain-HTTP and loopback endpoints: only for the tests' own push service."""
    return bool(getattr(settings, "NOTIFY_PUSH_ALLOW_INSECURE", False))


def endpoint_error(endpoint: str) -> str | None:
    """Why ``endpoint`` is no push service the worker may post to (None: it is one).

    Push services are public HTTPS hosts; a subscription may not point the
    worker at the site's own network (a loopback or private address)."""
    try:
        url = urlparse(endpoint)
    except ValueError:
        return "bad_endpoint"
    if url.scheme not in ("https", "http") or not url.hostname or len(endpoint) > 1000:
        return "bad_endpoint"
    if allow_insecure():
        return None
    if url.scheme != "https":
        return "not_https"
    host = url.hostname
    if host == "localhost" or host.endswith(".localhost") or "." not in host:
        return "private_host"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    if address.is_private or address.is_loopback or address.is_link_local or address.is_reserved:
        return "private_host"
    return None


def keys_error(p256dh: str, auth: str) -> str | None:
    """The device's keys: a P-256 point (65 bytes) and a 16-byte secret, base64url."""
    try:
        point, secret = vapid.unb64(p256dh), vapid.unb64(auth)
    except (ValueError, TypeError):
        return "bad_keys"
    if len(point) != 65 or point[0] != 4 or len(secret) != 16:
        return "bad_keys"
    return None


# --- who is subscribed: read at most every few seconds per process -------------------

_subscribed: tuple[float, frozenset] = (0.0, frozenset())
_lock = threading.Lock()
_refreshing = threading.Event()
SUBSCRIBED_SECONDS = 10.0
# Bumped by every forget: a read that began before it (a thread's, still in flight) does not
# put back the set it read, which may lack what the forget was for.
_generation = 0
_store_lock = threading.Lock()


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _read_subscribed() -> frozenset:
    global _subscribed
    began = _generation
    ids = frozenset(PushSubscription.objects.values_list("user_id", flat=True).distinct())
    with _store_lock:
        if began == _generation:
            _subscribed = (time.monotonic() + SUBSCRIBED_SECONDS, ids)
    return ids


def _refresh_in_background() -> None:
    from django.db import close_old_connections

    try:
        _read_subscribed()
    except Exception:  # noqa: BLE001 - tried again at the next look
        log.exception("could not read the push subscriptions")
    finally:
        _refreshing.clear()
        close_old_connections()


def subscribed_ids() -> frozenset:
    """The ids of the players with a push subscription, kept a few seconds in
    this process: the move path's receiver asks it on every version. On an
    event loop (the table's plain moves are announced there) it never waits
    for the database: a stale set is read again on a thread and used meanwhile."""
    now = time.monotonic()
    if _subscribed[0] > now:
        return _subscribed[1]
    if _on_event_loop():
        if not _refreshing.is_set():
            _refreshing.set()
            threading.Thread(target=_refresh_in_background, daemon=True, name="notify-subscribed").start()
        return _subscribed[1]
    with _lock:
        if _subscribed[0] > time.monotonic():
            return _subscribed[1]
        return _read_subscribed()


def forget_subscribed() -> None:
    """Read the set again at the next look (a read already in flight is not kept)."""
    global _subscribed, _generation
    with _store_lock:
        _generation += 1
        _subscribed = (0.0, frozenset())


# --- the message -------------------------------------------------------------------------


def message(kind: str, context: dict, language: str) -> dict:
    """The notification's words in ``language`` (the page's JS words its own the same way)."""
    with translation.override(language):
        code = context.get("room", "")
        if kind == "turn":
            title, body = _("Your turn"), _("Your table is waiting for you.")
            url, tag = f"/rooms/{code}/", f"turn-{code}"
        elif kind == "invite":
            title = _("Your invite")
            body = _("%(name)s invites you to a %(game)s table") % {
                "name": context.get("name", ""),
                "game": context.get("game", ""),
            }
            url, tag = "/friends/", f"invite-{context.get('invite', '')}"
        elif kind == "start":
            title, body = _("The match starts"), _("Your table's match has begun.")
            url, tag = f"/rooms/{code}/", f"start-{code}"
        elif kind == "friend_online":
            title = _("A friend is online")
            body = _("%(name)s is online.") % {"name": context.get("name", "")}
            url, tag = "/friends/", f"online-{context.get('name', '')}"
        else:
            raise ValueError(f"unknown notification kind {kind!r}")
    return {"kind": kind, "title": title, "body": body, "url": url, "tag": tag, "lang": language}


# --- sending -------------------------------------------------------------------------------


def send_one(subscription: PushSubscription, payload: dict, ttl: int, keys: vapid.Keys) -> bool:
    """One encrypted push to one device. False when the subscription is gone (deleted)."""
    import requests
    from pywebpush import WebPushException, webpush

    if endpoint_error(subscription.endpoint):
        subscription.delete()
        return False
    session = requests.Session()
    # The tests' own push service is on loopback: no proxy of the environment in between.
    session.trust_env = not allow_insecure()
    try:
        webpush(
            subscription.info(),
            data=json.dumps(payload, ensure_ascii=False),
            vapid_private_key=keys.private,
            vapid_claims={"sub": keys.subject},
            ttl=ttl,
            timeout=10,
            requests_session=session,
        )
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in (404, 410):
            log.info("push subscription %s expired (%s): deleted", subscription.pk, status)
            subscription.delete()
            forget_subscribed()
            return False
        log.warning("push to subscription %s failed: %s", subscription.pk, status or exc)
        return True
    except requests.RequestException as exc:
        log.warning("push to subscription %s failed: %s", subscription.pk, exc)
        return True
    finally:
        session.close()
    PushSubscription.objects.filter(pk=subscription.pk).update(last_sent_at=timezone.now())
    return True


def deliver(kind: str, user_ids: list[int], context: dict, language: str | None = None) -> int:
    """Push ``kind`` to every device of ``user_ids`` (those in ``language`` only,
    when given); returns how many were sent."""
    keys = vapid.keys()
    if keys is None:
        return 0
    sent = 0
    rows = PushSubscription.objects.filter(user_id__in=list(user_ids)).order_by("pk")
    if language is not None:
        rows = rows.filter(language=language)
    for subscription in rows:
        if send_one(subscription, message(kind, context, subscription.language), TTL_SECONDS[kind], keys):
            sent += 1
    return sent


def enqueue(task_name: str, *args, countdown: float = 0) -> None:
    """Run ``notify.tasks.<task_name>`` on the worker (production), or on a
    thread of this process in the embedded default (it has no worker)."""
    from . import tasks

    task = getattr(tasks, task_name)
    if getattr(settings, "NOTIFY_EAGER", False):
        task.run(*args)
        return
    if settings.DEADLINES == "celery":
        if _on_event_loop():  # the broker's round trip off the loop
            _sender.submit(_apply, task, args, countdown)
        else:
            _apply(task, args, countdown)
        return
    timer = threading.Timer(countdown, _run_closing, args=(task, args))
    timer.daemon = True
    timer.start()


_sender = ThreadPoolExecutor(max_workers=1, thread_name_prefix="notify-enqueue")


def _apply(task, args, countdown: float) -> None:
    try:
        task.apply_async(args=args, countdown=countdown or None)
    except Exception:  # noqa: BLE001 - a notification is never worth failing the caller
        log.exception("could not queue %s", task.name)


def _run_closing(task, args) -> None:
    from django.db import close_old_connections

    try:
        task.run(*args)
    except Exception:  # noqa: BLE001
        log.exception("notification task %s failed", task.name)
    finally:
        close_old_connections()
