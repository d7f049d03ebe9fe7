"""The table's WebSocket: one per open table, for players and spectators.

Frames are JSON objects with a "type" (docs/protocol.md). Everything a
client may do is checked here (size, shape, who he is) and in the services
(seat, turn, version, rules); a refused frame gets an error frame and
changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.cache import cache
from django.utils import translation

from accounts.sockets import CLOSE_SIGNED_OUT, user_group
from games import clock
from games import services as play_service
from games.errors import PlayError
from games.models import Match

from . import broadcast, presence
from . import services as room_service
from .models import Room

CLOSE_NO_ROOM = 4404


class TableConsumer(AsyncWebsocketConsumer):
    room_id: int | None = None
    match_id: int | None = None
    code: str = ""

    async def connect(self):
        clock.bind_loop(asyncio.get_running_loop())
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.user = self.scope.get("user")
        room = await database_sync_to_async(Room.objects.filter(code=self.code).first)()
        if room is None:
            await self.close(code=CLOSE_NO_ROOM)
            return
        self.room_id = room.pk
        self.language = await database_sync_to_async(self._language)()
        self.conn_id = uuid.uuid4().hex
        self.who = self._identity()
        self.seat_key = "public"
        self.last_version = -1
        await self.channel_layer.group_add(broadcast.group_name(self.code), self.channel_name)
        if self.authenticated:
            await self.channel_layer.group_add(user_group(self.user.pk), self.channel_name)
        await self.accept()
        self.seat_key = await self._lookup_seat()
        await self._beat()
        await self._send_room()
        await self._send_state(full=True)
        await database_sync_to_async(broadcast.presence_changed)(self.code, force=True)

    async def disconnect(self, code):
        if self.room_id is None:
            return
        await self.channel_layer.group_discard(broadcast.group_name(self.code), self.channel_name)
        if self.authenticated:
            await self.channel_layer.group_discard(user_group(self.user.pk), self.channel_name)
        await database_sync_to_async(presence.store().drop)(self.code, self.conn_id)
        await database_sync_to_async(broadcast.presence_changed)(self.code, force=True)

    def _language(self) -> str:
        """The language error messages are worded in: the switcher's cookie,
        else the signed-in user's preference, else Persian (the default)."""
        choice = (self.scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
        if choice not in dict(settings.LANGUAGES) and self.authenticated:
            profile = getattr(self.user, "profile", None)
            choice = profile.language if profile is not None else None
        return choice if choice in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE

    def _identity(self) -> str:
        if self.user is not None and self.user.is_authenticated:
            return f"u:{self.user.pk}"
        session = self.scope.get("session")
        key = getattr(session, "session_key", None)
        return f"s:{key}" if key else f"c:{uuid.uuid4().hex}"

    @property
    def authenticated(self) -> bool:
        return self.user is not None and self.user.is_authenticated

    # --- incoming ---------------------------------------------------------------

    def _allow_frame(self) -> bool:
        """A token bucket per connection: a burst of FRAME_BURST frames, then
        FRAME_RATE per second. A flood is refused without touching the database."""
        now = time.monotonic()
        burst, rate = settings.TABLE["FRAME_BURST"], settings.TABLE["FRAME_RATE"]
        self._tokens = min(
            burst, getattr(self, "_tokens", burst) + (now - getattr(self, "_stamp", now)) * rate
        )
        self._stamp = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    async def receive(self, text_data=None, bytes_data=None):
        if not self._allow_frame():
            self._refused = getattr(self, "_refused", 0) + 1
            if self._refused % 20 == 1:  # say it once in a while, not for every dropped frame
                await self._error(PlayError("rate_limited"))
            return
        if text_data is None:
            return await self._error(PlayError("bad_frame", "binary frames are not accepted"))
        if len(text_data.encode()) > settings.TABLE["MAX_FRAME_BYTES"]:
            return await self._error(PlayError("frame_too_large"))
        try:
            frame = json.loads(text_data)
        except ValueError:
            return await self._error(PlayError("bad_frame", "not JSON"))
        if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
            return await self._error(PlayError("bad_frame", "a frame is an object with a type"))
        ref = frame.get("ref") if isinstance(frame.get("ref"), (str, int)) else None
        handler = getattr(self, f"on_{frame['type']}", None) if frame["type"].isidentifier() else None
        if handler is None:
            return await self._error(PlayError("unknown_type", frame["type"][:40]), ref)
        try:
            await handler(frame)
        except PlayError as exc:
            await self._error(exc, ref)
            if exc.code in {"stale_version"}:
                await self._send_state(full=True)

    async def on_ping(self, frame):
        await self._beat()
        await self.send_json({"type": "pong"})
        # Any live tab's heartbeat notices a dead one's expiry; one
        # check per room every half heartbeat is enough.
        if await database_sync_to_async(cache.add)(
            f"presence-check:{self.code}", 1, timeout=presence.heartbeat_seconds() / 2
        ):
            await database_sync_to_async(broadcast.presence_changed)(self.code)

    async def on_sync(self, frame):
        await self._send_room()
        await self._send_state(full=True)

    async def on_act(self, frame):
        self._need_user()
        action = frame.get("action")
        version = frame.get("v")
        if not isinstance(action, dict) or not isinstance(version, int) or isinstance(version, bool):
            raise PlayError("bad_action", "act needs an action object and the version v")
        seat = frame.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise PlayError("bad_action", "seat must be a number")
        match_id = await self._active_match_id()
        await database_sync_to_async(play_service.play)(
            match_id, action, user=self.user, seat=seat, version=version
        )

    async def on_react(self, frame):
        self._need_user()
        reaction = frame.get("reaction")
        if not isinstance(reaction, str):
            raise PlayError("bad_reaction")
        room = await self._room()
        await database_sync_to_async(room_service.react)(room, self.user, reaction)

    async def on_sit(self, frame):
        self._need_user()
        number = frame.get("seat")
        if not isinstance(number, int) or isinstance(number, bool):
            raise PlayError("bad_seat")
        await database_sync_to_async(room_service.sit)(await self._room(), self.user, number)
        await self._refresh_seat()

    async def on_stand(self, frame):
        self._need_user()
        await database_sync_to_async(room_service.stand)(await self._room(), self.user)
        await self._refresh_seat()

    async def on_ready(self, frame):
        self._need_user()
        await database_sync_to_async(room_service.set_ready)(
            await self._room(), self.user, bool(frame.get("ready", True))
        )

    async def on_bot(self, frame):
        self._need_user()
        number = frame.get("seat")
        if not isinstance(number, int) or isinstance(number, bool):
            raise PlayError("bad_seat")
        await database_sync_to_async(room_service.set_bot)(
            await self._room(), self.user, number, bool(frame.get("bot", True))
        )

    async def on_start(self, frame):
        self._need_user()
        await database_sync_to_async(room_service.start)(await self._room(), self.user)

    async def on_rematch(self, frame):
        self._need_user()
        await database_sync_to_async(room_service.rematch)(
            await self._room(), self.user, bool(frame.get("agree", True))
        )

    async def on_leave(self, frame):
        self._need_user()
        confirm = frame.get("confirm") is True
        try:
            result = await database_sync_to_async(room_service.leave)(await self._room(), self.user, confirm)
        except PlayError as exc:
            if exc.code == "confirm_required":
                room = await self._room()
                await self.send_json(
                    {
                        "type": "confirm_leave",
                        "cost": exc.detail,
                        "points": room_service.leave_points(room.game),
                    }
                )
                return
            raise
        await self.send_json({"type": "left", **result})
        await self._refresh_seat()

    # --- group messages -------------------------------------------------------------

    async def table_state(self, message):
        payload = message["payload"]
        new_match = payload["match"] != self.match_id
        if new_match or any(e.get("type") == "swap_seats" for e in message.get("events") or []):
            self.seat_key = await self._lookup_seat()
        if new_match:
            self.match_id, self.last_version = payload["match"], -1
        key = self.seat_key if self.seat_key in payload["views"] else "public"
        full = self.last_version >= 0 and payload["version"] > self.last_version + 1
        self.last_version = max(self.last_version, payload["version"])
        await self.send_json(broadcast.state_frame(payload, key, message.get("events"), full=full))

    async def room_update(self, message):
        self.seat_key = await self._lookup_seat()
        await self.send_json({"type": "room", "room": message["room"], "you": self._you()})

    async def user_close(self, message):
        """Signed out or deactivated elsewhere: this socket must not act for him any more."""
        await self.close(code=CLOSE_SIGNED_OUT)

    async def table_reaction(self, message):
        await self.send_json({"type": "reaction", "seat": message["seat"], "reaction": message["reaction"]})

    # --- helpers -----------------------------------------------------------------------

    def _need_user(self):
        if not self.authenticated:
            raise PlayError("sign_in")

    def _you(self) -> dict:
        return {
            "user": self.user.username if self.authenticated else None,
            "seat": None if self.seat_key == "public" else int(self.seat_key),
        }

    async def send_json(self, content):
        await self.send(text_data=json.dumps(content, ensure_ascii=False))

    async def _error(self, exc: PlayError, ref=None):
        with translation.override(self.language):
            frame = exc.as_frame(ref)
        await self.send_json(frame)

    async def _room(self) -> Room:
        return await database_sync_to_async(Room.objects.select_related("creator").get)(pk=self.room_id)

    async def _active_match_id(self) -> int:
        def find():
            return (
                Match.objects.filter(room_id=self.room_id, status=Match.Status.ACTIVE)
                .values_list("pk", flat=True)
                .first()
            )

        match_id = await database_sync_to_async(find)()
        if match_id is None:
            raise PlayError("no_match")
        return match_id

    @database_sync_to_async
    def _lookup_seat(self) -> str:
        """The viewer's seat: in the current match while one exists, else in the room."""
        if not self.authenticated:
            return "public"
        match = Match.objects.filter(room_id=self.room_id).order_by("-id").only("players", "status").first()
        if match is not None and match.status == Match.Status.ACTIVE:
            seat = match.seat_of_user(self.user.pk)
        else:
            from .models import Seat

            seat = (
                Seat.objects.filter(room_id=self.room_id, user=self.user)
                .values_list("number", flat=True)
                .first()
            )
            if seat is None and match is not None:
                seat = match.seat_of_user(self.user.pk)
        return "public" if seat is None else str(seat)

    async def _refresh_seat(self, send: bool = True):
        self.seat_key = await self._lookup_seat()
        await self._beat()
        if send:
            await self._send_state(full=True)

    async def _beat(self):
        seat = None if self.seat_key == "public" else int(self.seat_key)
        await database_sync_to_async(presence.store().touch)(self.code, self.conn_id, self.who, seat)

    async def _send_room(self):
        def build():
            room = Room.objects.select_related("creator").get(pk=self.room_id)
            return broadcast.room_snapshot(room)

        self.seat_key = await self._lookup_seat()
        await self.send_json(
            {"type": "room", "room": await database_sync_to_async(build)(), "you": self._you()}
        )

    async def _send_state(self, full: bool):
        def build():
            match = Match.objects.filter(room_id=self.room_id).order_by("-id").first()
            return broadcast.table_payload(match) if match else None

        payload = await database_sync_to_async(build)()
        if payload is None:
            return
        key = self.seat_key if self.seat_key in payload["views"] else "public"
        self.match_id, self.last_version = payload["match"], payload["version"]
        await self.send_json(broadcast.state_frame(payload, key, [], full=full))
