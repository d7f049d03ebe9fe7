"""bench/load.py's tables in the database: made in bulk (accounts, sessions, rooms, seats), the database reset and dropped."""

from __future__ import annotations

import json
from pathlib import Path

# --- the site's tables -----------------------------------------------------------------------


def prepare(tables: int, out: Path, bot_tables: int = 0, bot_level: str = "strong") -> None:
    """(in a subprocess with the site's settings) bulk-create accounts,
    sessions and rooms, every seat taken and ready (the creators start the
    matches over their sockets), write the tables to ``out``.
    ``bot_tables`` more tables seat one account and three bots of ``bot_level``
    (bench/bot_lag.py); they come last, with one session each."""
    import django

    django.setup()
    from datetime import timedelta

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    from accounts.models import Profile
    from rooms.models import Room, Seat

    User = get_user_model()
    run = get_random_string(5, "abcdefghijkmnpqrstuvwxyz")
    password = make_password("bench-password")
    users = User.objects.bulk_create(
        [
            User(username=f"{run}{i}", username_key=f"{run}{i}", password=password)
            for i in range(tables * 4 + bot_tables)
        ]
    )
    Profile.objects.bulk_create([Profile(user=u) for u in users], ignore_conflicts=True)
    store = SessionStore()
    expire = timezone.now() + timedelta(days=1)
    keys, sessions = [], []
    for user in users:
        key = get_random_string(32)
        data = {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: settings.AUTHENTICATION_BACKENDS[0],
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
        sessions.append(Session(session_key=key, session_data=store.encode(data), expire_date=expire))
        keys.append(key)
    Session.objects.bulk_create(sessions)
    rules = {"middle_card": False, "turn_seconds": 60}
    rooms = Room.objects.bulk_create(
        [Room(game="hokm4", rules=rules, creator=users[4 * t], is_private=True) for t in range(tables)]
    )
    Seat.objects.bulk_create(
        [
            Seat(room=room, number=n, user=users[4 * t + n - 1], ready=True)
            for t, room in enumerate(rooms)
            for n in range(1, 5)
        ]
    )
    hosts = users[4 * tables :]
    bot_rooms = Room.objects.bulk_create(
        [Room(game="hokm4", rules=rules, creator=host, is_private=True) for host in hosts]
    )
    Seat.objects.bulk_create(
        [
            Seat(room=room, number=1, user=host, ready=True)
            for room, host in zip(bot_rooms, hosts, strict=True)
        ]
        + [
            Seat(room=room, number=n, is_bot=True, ready=True, bot_level=bot_level)
            for room in bot_rooms
            for n in range(2, 5)
        ]
    )
    layout = [{"code": r.code, "sessions": keys[4 * t : 4 * t + 4]} for t, r in enumerate(rooms)]
    layout += [
        {"code": r.code, "sessions": [keys[4 * tables + b]], "bots": True} for b, r in enumerate(bot_rooms)
    ]
    out.write_text(json.dumps(layout))


def reset_database(url: str) -> None:
    from urllib.parse import urlparse

    import psycopg

    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
