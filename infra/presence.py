"""Presence at a table: who is connected, and how many spectators watch (R-4, R-7).

Every connection refreshes its entry with each heartbeat; an entry older
than PRESENCE_TTL seconds is dead, so a tab that died without closing is
forgotten within that time (R-7: right again within 45 s). Spectators are
counted by browser (the session or the user), so several tabs count once,
and a person holding a seat is never counted as a spectator.

Two stores: Redis sorted sets in production (shared by every Daphne
process), a process-local dict in the embedded default (one process).
"""

from __future__ import annotations

import threading
import time

from django.conf import settings

CONNECTED, CONNECTING, DISCONNECTED = "connected", "connecting", "disconnected"


def ttl() -> float:
    return float(settings.TABLE["PRESENCE_TTL"])


def heartbeat_seconds() -> float:
    return float(settings.TABLE["HEARTBEAT_SECONDS"])


class MemoryPresence:
    def __init__(self):
        self._lock = threading.Lock()
        self._conns: dict[str, dict[str, tuple[float, str, int | None]]] = {}

    def touch(self, room: str, conn: str, who: str, seat: int | None, now: float | None = None) -> None:
        now = time.time() if now is None else now
        with self._lock:
            self._conns.setdefault(room, {})[conn] = (now, who, seat)

    def touch_many(self, beats: list[tuple]) -> None:
        """``touch(room, conn, who, seat, now)`` for each of ``beats``."""
        for room, conn, who, seat, now in beats:
            self.touch(room, conn, who, seat, now)

    def drop(self, room: str, conn: str) -> None:
        with self._lock:
            self._conns.get(room, {}).pop(conn, None)

    def entries(self, room: str, now: float | None = None) -> list[tuple[float, str, int | None]]:
        now = time.time() if now is None else now
        with self._lock:
            conns = self._conns.get(room, {})
            for key in [k for k, (t, _, _) in conns.items() if now - t > ttl()]:
                del conns[key]
            return list(conns.values())

    def entries_many(self, rooms: list[str], now: float | None = None) -> dict[str, list]:
        return {room: self.entries(room, now) for room in rooms}


class RedisPresence:
    """One hash of connection -> "who|seat" and one sorted set of connection -> last beat, per room."""

    def __init__(self, url: str):
        import redis

        # Bounded waits: the play service reads it under a match's row lock (L-7, games/standin.py).
        self._redis = redis.Redis.from_url(
            url, decode_responses=True, socket_timeout=2, socket_connect_timeout=2
        )

    def _keys(self, room):
        return f"takhteh:presence:{room}:beat", f"takhteh:presence:{room}:who"

    def touch(self, room, conn, who, seat, now=None):
        now = time.time() if now is None else now
        beat, info = self._keys(room)
        pipe = self._redis.pipeline()
        pipe.zadd(beat, {conn: now})
        pipe.hset(info, conn, f"{who}|{'' if seat is None else seat}")
        pipe.expire(beat, int(ttl() * 4))
        pipe.expire(info, int(ttl() * 4))
        pipe.execute()

    def touch_many(self, beats):
        """Every heartbeat of ``beats`` ([(room, conn, who, seat, now)]) in one pipeline (rooms/heartbeats.py)."""
        if not beats:
            return
        pipe = self._redis.pipeline(transaction=False)
        rooms = {}
        for room, conn, who, seat, now in beats:
            beat, info = rooms.setdefault(room, self._keys(room))
            pipe.zadd(beat, {conn: now})
            pipe.hset(info, conn, f"{who}|{'' if seat is None else seat}")
        for beat, info in rooms.values():
            pipe.expire(beat, int(ttl() * 4))
            pipe.expire(info, int(ttl() * 4))
        pipe.execute()

    def drop(self, room, conn):
        beat, info = self._keys(room)
        pipe = self._redis.pipeline()
        pipe.zrem(beat, conn)
        pipe.hdel(info, conn)
        pipe.execute()

    def entries_many(self, rooms, now=None):
        """``entries`` of each of ``rooms``, read in one round trip (the heartbeats'
        room checks, rooms/heartbeats.py); the expired ones are dropped in a second."""
        now = time.time() if now is None else now
        if not rooms:
            return {}
        pipe = self._redis.pipeline(transaction=False)
        for room in rooms:
            beat, info = self._keys(room)
            pipe.zrangebyscore(beat, now - ttl(), "+inf", withscores=True)
            pipe.zrangebyscore(beat, "-inf", now - ttl())
            pipe.hgetall(info)
        replies = pipe.execute()
        out, dead_pipe = {}, None
        for k, room in enumerate(rooms):
            live, dead, infos = replies[3 * k : 3 * k + 3]
            if dead:
                beat, info = self._keys(room)
                dead_pipe = dead_pipe or self._redis.pipeline(transaction=False)
                # by score: a connection that beat again meanwhile keeps its beat
                dead_pipe.zremrangebyscore(beat, "-inf", now - ttl())
                dead_pipe.hdel(info, *dead)
            found = []
            for conn, t in live:
                raw = infos.get(conn)
                if raw is not None:
                    who, _, seat = raw.rpartition("|")
                    found.append((t, who, int(seat) if seat else None))
            out[room] = found
        if dead_pipe is not None:
            dead_pipe.execute()
        return out

    def entries(self, room, now=None):
        """The live entries of ``room`` ([(last beat, who, seat)]); the expired go."""
        return self.entries_many([room], now)[room]


_store = None
_store_lock = threading.Lock()


def store():
    global _store
    with _store_lock:
        if _store is None:
            _store = RedisPresence(settings.REDIS_URL) if settings.REDIS_URL else MemoryPresence()
        return _store


def reset_store() -> None:
    """Tests: forget the store so that settings changes take effect."""
    global _store
    with _store_lock:
        _store = None
    with _shown_lock:
        _shown.clear()


MISSED_GRACE = 0.3
"""R-4: a heartbeat is missed when none came for one interval and this share of one more
(network jitter, the batched writes of rooms/heartbeats.py: at most a second)."""


def state(beat: float, now: float) -> str:
    """connected: a heartbeat within one interval (and a little grace); connecting: from the
    first missed heartbeat until the entry expires (PRESENCE_TTL), then disconnected.

    Issue 34: "connected" lasted two intervals, so a cut-off player went from connected
    straight to disconnected (the room's check, every half heartbeat at best, rarely fell in
    the four seconds of "connecting" left before the 25 s limit)."""
    return CONNECTED if now - beat <= heartbeat_seconds() * (1 + MISSED_GRACE) else CONNECTING


def fingerprint(room: str, now: float | None = None) -> tuple:
    """Who is at the table, at which seat, connected or connecting: what a room's
    presence shows, without the room itself (rooms/heartbeats.py reads the
    room only when this changed)."""
    now = time.time() if now is None else now
    return _reduced(store().entries(room, now), now)


def fingerprints(rooms: list[str], now: float | None = None) -> dict[str, tuple]:
    """``fingerprint`` of each of ``rooms``, read together (one round trip)."""
    now = time.time() if now is None else now
    return {room: _reduced(found, now) for room, found in store().entries_many(rooms, now).items()}


def _reduced(entries: list, now: float) -> tuple:
    return tuple(sorted({(who, seat if seat is not None else 0, state(t, now)) for t, who, seat in entries}))


SHOWN_KEPT = 10_000
"""Rooms whose last shown presence is remembered (the oldest forgotten first)."""

_shown: dict[str, tuple] = {}
_shown_lock = threading.Lock()


def shown(room: str, fingerprint: tuple) -> None:
    """``room``'s presence as this process last showed it (a room frame sent,
    or found the same as the one sent last): the heartbeats' checks read a
    room again only when its presence differs (rooms/heartbeats.py). An
    arrival's greeting sends its room, so the table's first check after its
    four arrivals reads nothing (issue 39)."""
    with _shown_lock:
        _shown.pop(room, None)
        _shown[room] = fingerprint
        if len(_shown) > SHOWN_KEPT:
            _shown.pop(next(iter(_shown)))


def last_shown(room: str) -> tuple | None:
    return _shown.get(room)


def snapshot(room: str, seated: dict[int, str], now: float | None = None) -> dict:
    """Presence of each seat (``seated``: seat -> who) and the spectator count,
    and the ``fingerprint`` of the entries they were read from.

    connected: a heartbeat within one interval (``state``); connecting: an
    older one that has not expired yet (a tab that is reconnecting or
    stalled); disconnected: none.
    """
    now = time.time() if now is None else now
    entries = store().entries(room, now)
    last_beat: dict[str, float] = {}
    for t, who, _seat in entries:
        last_beat[who] = max(t, last_beat.get(who, 0.0))
    seats = {}
    for number, who in seated.items():
        t = last_beat.get(who)
        seats[number] = DISCONNECTED if t is None else state(t, now)
    players = set(seated.values())
    spectators = {who for _t, who, seat in entries if seat is None and who not in players}
    return {"seats": seats, "spectators": len(spectators), "fingerprint": _reduced(entries, now)}
