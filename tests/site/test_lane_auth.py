"""Socket users are read on the arrivals' threads (issue 13).

Channels' AuthMiddleware reads the session and the user on the one thread
every ``database_sync_to_async`` call of the process shares; with a thousand
tables opening at once the sockets waited for it one at a time.
``LaneAuthMiddleware`` reads them on the ``hello`` lane of infra/lanes.py.
"""

from __future__ import annotations

import threading

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser

from infra import websocket
from infra.websocket import LaneAuthMiddlewareStack
from tests.rooms.conftest import session_key_for

pytestmark = pytest.mark.django_db(transaction=True)


def _scope(key: str | None) -> dict:
    headers = [(b"origin", b"http://testserver")]
    if key is not None:
        headers.append((b"cookie", f"sessionid={key}".encode()))
    return {"type": "websocket", "path": "/ws/x/", "headers": headers}


async def _resolve(scope: dict):
    seen = {}

    async def inner(scope, receive, send):
        seen["user"] = scope["user"]
        # Touch the lazy object so a resolution failure would surface here.
        seen["pk"] = scope["user"].pk

    await LaneAuthMiddlewareStack(inner)(scope, None, None)
    return seen


async def test_signed_in_socket_gets_its_user_on_the_hello_lane(monkeypatch):
    user = await sync_to_async(get_user_model().objects.create_user)("lane", password="pw-lane-123")
    key = await sync_to_async(session_key_for)(user)
    threads: list[str] = []
    real = websocket._get_user

    def spy(scope):
        threads.append(threading.current_thread().name)
        return real(scope)

    monkeypatch.setattr(websocket, "_get_user", spy)
    seen = await _resolve(_scope(key))
    assert seen["pk"] == user.pk
    assert threads and all(name.startswith("hello-db") for name in threads), threads


async def test_socket_without_a_session_is_anonymous():
    seen = await _resolve(_scope(None))
    assert isinstance(seen["user"]._wrapped, AnonymousUser)


async def test_forged_session_key_is_anonymous():
    seen = await _resolve(_scope("not-a-real-session-key-000000000"))
    assert isinstance(seen["user"]._wrapped, AnonymousUser)


async def test_a_signed_in_socket_reads_its_user_and_profile_in_one_statement(django_assert_max_num_queries):
    """Issue 39: the greeting reads the profile (language, reactions): it came with the user."""
    user = await sync_to_async(get_user_model().objects.create_user)("prof", password="pw-prof-123")
    key = await sync_to_async(session_key_for)(user)
    scope = _scope(key)

    def read():
        from channels.sessions import SessionMiddleware  # noqa: F401 - the session as the stack makes it
        from django.contrib.sessions.backends.db import SessionStore

        scope["session"] = SessionStore(key)
        with django_assert_max_num_queries(2):  # the session, then the user with the profile
            found = websocket._get_user(scope)
            assert found.pk == user.pk
            assert found.profile.user_id == user.pk
        return found

    await sync_to_async(read)()


async def test_a_signed_in_socket_compiles_no_queryset_for_its_session_and_user(monkeypatch):
    """Issue 39: 4,000 sockets arriving at once each compiled Django's session
    query and the user's ``select_related`` again (the site's backend had
    replaced the one whose read was prepared): now both are statements built
    once, read from a cold cache here as after a restart."""
    from django.db.models.sql.compiler import SQLCompiler

    from infra.sessions import SessionStore as SiteStore

    users = [
        await sync_to_async(get_user_model().objects.create_user)(f"cold{i}", password="pw-cold-123")
        for i in range(2)
    ]
    keys = [await sync_to_async(session_key_for)(u) for u in users]
    compiled = []
    real = SQLCompiler.as_sql

    def counting(self, *args, **kwargs):
        compiled.append(self.query.model)
        return real(self, *args, **kwargs)

    def read(key):
        store = SiteStore(key)
        store._cache.delete(store.cache_key)  # cold: the database's row
        return websocket._get_user({"session": store})

    first = await sync_to_async(read)(keys[0])  # builds the statements once
    monkeypatch.setattr(SQLCompiler, "as_sql", counting)
    found = await sync_to_async(read)(keys[1])
    assert first.pk == users[0].pk and found.pk == users[1].pk
    assert found.profile.user_id == users[1].pk
    assert compiled == []


async def test_an_expired_session_is_anonymous():
    from datetime import timedelta

    from django.contrib.sessions.models import Session
    from django.utils import timezone

    user = await sync_to_async(get_user_model().objects.create_user)("old", password="pw-old-1234")
    key = await sync_to_async(session_key_for)(user)
    await Session.objects.filter(session_key=key).aupdate(expire_date=timezone.now() - timedelta(seconds=1))

    def cold():
        from infra.sessions import SessionStore as SiteStore

        store = SiteStore(key)
        store._cache.delete(store.cache_key)

    await sync_to_async(cold)()
    seen = await _resolve(_scope(key))
    assert isinstance(seen["user"]._wrapped, AnonymousUser)


async def test_a_session_whose_password_changed_is_anonymous_and_flushed():
    user = await sync_to_async(get_user_model().objects.create_user)("moved", password="pw-moved-123")
    key = await sync_to_async(session_key_for)(user)

    def change():
        user.set_password("pw-changed-456")
        user.save()

    await sync_to_async(change)()
    seen = await _resolve(_scope(key))
    assert isinstance(seen["user"]._wrapped, AnonymousUser)


async def test_an_inactive_user_is_anonymous():
    user = await sync_to_async(get_user_model().objects.create_user)("gone", password="pw-gone-123")
    key = await sync_to_async(session_key_for)(user)
    await sync_to_async(get_user_model().objects.filter(pk=user.pk).update)(is_active=False)
    seen = await _resolve(_scope(key))
    assert isinstance(seen["user"]._wrapped, AnonymousUser)
