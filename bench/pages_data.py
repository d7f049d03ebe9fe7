"""bench/pages.py's data: players with sessions, finished matches, their ledger and waiting rooms, and the pages to ask for."""

from __future__ import annotations

import json
import random
from pathlib import Path

# --- the data --------------------------------------------------------------------------------


def prepare(out: Path, players: int = 300, matches: int = 600, rooms: int = 40) -> None:
    """(in a subprocess with the site's settings) players with sessions, finished
    people-only matches with their ledger (the leaderboard's rows), and waiting
    public rooms (the lobby's rows); writes what the client needs to ``out``."""
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
    from games.models import Match
    from leaderboard.models import LedgerEntry
    from rooms.models import Room, Seat

    User = get_user_model()
    rng = random.Random(7)
    run = get_random_string(4, "abcdefghijkmnpqrstuvwxyz")
    password = make_password("bench-password")
    users = User.objects.bulk_create(
        [User(username=f"{run}{i}", username_key=f"{run}{i}", password=password) for i in range(players)]
    )
    Profile.objects.bulk_create([Profile(user=u) for u in users], ignore_conflicts=True)
    store = SessionStore()
    expire = timezone.now() + timedelta(days=1)
    keys, sessions = [], []
    for user in users[:100]:
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
    played = Room.objects.bulk_create(
        [Room(game="hokm4", rules=rules, creator=users[0], is_private=True) for _ in range(matches)]
    )
    now = timezone.now()
    done = [_finished(Match, room, rules, rng.sample(users, 4), now) for room in played]
    done = Match.objects.bulk_create(done)
    entries = []
    for match in done:
        win = rng.randint(0, 1)
        for p in match.players:
            won = p["seat"] % 2 == win
            entries.append(
                LedgerEntry(
                    user_id=p["user_id"],
                    match=match,
                    game="hokm4",
                    family="hokm",
                    seat=p["seat"],
                    points=7 if won else rng.randint(0, 6),
                    result=LedgerEntry.Result.WIN if won else LedgerEntry.Result.LOSS,
                )
            )
    LedgerEntry.objects.bulk_create(entries)
    waiting = Room.objects.bulk_create(
        [
            Room(
                game=rng.choice(["hokm4", "shelem4", "bridge"]), rules={}, creator=users[i], is_private=False
            )
            for i in range(rooms)
        ]
    )
    Seat.objects.bulk_create(
        [Seat(room=room, number=1, user=users[i], ready=False) for i, room in enumerate(waiting)]
        + [Seat(room=room, number=n) for room in waiting for n in range(2, 5)]
    )
    out.write_text(
        json.dumps({"sessions": keys, "player": users[1].username, "room": waiting[0].code, "lesson": 1})
    )


def _finished(Match, room, rules, four, now):
    return Match(
        room=room,
        game="hokm4",
        rules=rules,
        status=Match.Status.FINISHED,
        players=[
            {"seat": n, "user_id": u.pk, "username": u.username, "bot": False} for n, u in enumerate(four)
        ],
        finished_at=now,
    )


def pages_of(data: dict) -> list[tuple[str, str]]:
    """(name, path) of the pages every client cycles through."""
    return [
        ("home", "/"),
        ("lobby", "/rooms/"),
        ("leaderboard", "/leaderboard/"),
        ("profile", f"/leaderboard/players/{data['player']}/"),
        ("room", f"/rooms/{data['room']}/"),
        ("lesson", f"/school/{data['lesson']}/"),
    ]
