"""The table's WebSocket: one per open table, for players and spectators.

Frames are JSON objects with a "type" (docs/protocol.md); every client frame
is checked against its declared shape (rooms/protocol.py) before anything
else, then in the services (seat, turn, version, rules). A refused frame
gets an error frame and changes nothing.

Cost per message (issue 13): an accepted action is one thread hop (the
play service's transaction; the match id is already known here), and a
frame going out is none: the frames of a version were built inside its
transaction and arrive as text over the layer. Channels' own per-message
``close_old_connections`` hop is skipped (``dispatch``): every database
call of this consumer runs through ``infra.lanes.db``, which closes stale
connections itself, on a pool of threads (one connection each) so that
many tables' actions run in parallel.

Groups (rooms/broadcast.py): every connection joins its room's group and,
when signed in, its player group of the room and the user's group; it is in
the public group only while it is not a player of the current match.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import connection
from django.utils import translation

from accounts.sockets import CLOSE_SIGNED_OUT, user_group
from games import clock, plain
from games.errors import PlayError
from games.models import Match
from infra import adb, presence
from infra.lanes import db
from infra.websocket import OneQueue, scope_language
from ops import metrics

from . import broadcast, heartbeats, protocol
from .table.fair import FairDeal
from .table.hello import Greeting
from .table.play import Play
from .table.room import RoomActions
from .table.social import Social

CLOSE_NO_ROOM = 4404
_VERSION = 'SELECT "version" FROM "games_match" WHERE "id" = %s'
_ROOM_ID = 'SELECT "id" FROM "rooms_room" WHERE "code" = %s'

log = logging.getLogger(__name__)

_room_ids: dict[str, int] = {}
"""Room code -> id, for the rooms this process has had connections to (a
code never names another room while its room exists; the hello checks it)."""
ROOM_IDS_KEPT = 10_000


def _remember_room(code: str, room_id: int) -> None:
    if code not in _room_ids and len(_room_ids) >= ROOM_IDS_KEPT:
        _room_ids.pop(next(iter(_room_ids)))  # the oldest
    _room_ids[code] = room_id


class TableConsumer(OneQueue, Greeting, Play, RoomActions, FairDeal, Social, AsyncWebsocketConsumer):
    """The transport: connect, groups, parse, rate limit, send (its loop: infra/websocket.py's
    ``OneQueue``); each feature's frames are handled by a mixin of rooms/table/."""

    room_id: int | None = None
    match_id: int | None = None
    code: str = ""
    in_public: bool = False
    frame_at: float = 0.0  # when the last state frame reached this connection (monotonic)
    last_v: int | None = None
    hide_reactions: bool = False  # R-5 / H4-X5: this viewer hides reactions, throws too
    arrived: bool = False  # the hello found the room (and stored this connection's presence)

    async def dispatch(self, message):
        """Channels' dispatch without its per-message database clean-up hop
        (see the module's docstring)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        clock.bind_loop(asyncio.get_running_loop())
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.user = self.scope.get("user")
        self.uid = self.user.pk if self.authenticated else None
        self.conn_id = uuid.uuid4().hex
        self.who = self._identity()
        self.seat_number = None
        # Accept at once, before any database work: under a storm of
        # connections (a restart, hundreds of tables) the database calls
        # queue, and the handshake must not time out meanwhile (issue 13).
        await self.accept()
        # Join the groups first, then read the state: a version committed
        # while the state was read (a deal at the moment of arrival) would
        # otherwise be broadcast before this connection listened, and the
        # page would show the older state until its heartbeat noticed
        # (tests/rooms/test_arrival_race.py). The room's id comes from its
        # code, known to this process after the room's first connection.
        hello = None
        room_id = _room_ids.get(self.code)
        for _attempt in range(2):  # a remembered id whose room is gone: once more by the code
            if room_id is None:
                room_id = await self._run(self._room_id, lane="hello")
                if room_id is None:
                    break
            await self._join(room_id)
            hello = await self._run(self._hello, room_id, True, lane="hello")
            if hello is not None:
                break
            _room_ids.pop(self.code, None)
            await self._leave_groups()
            room_id = self.room_id = None
        if hello is None:
            await self.close(code=CLOSE_NO_ROOM)
            return
        _remember_room(self.code, room_id)
        self.arrived = True
        self.language = hello["language"]
        self._game = hello["room"].get("game")
        self.hide_reactions = hello.get("hide_reactions", False)
        await self._set_public(not hello["player"])
        await self._send_hello(hello)

    def _room_id(self) -> int | None:
        with connection.cursor() as cursor:  # a statement of its own: every socket of a restart asks
            cursor.execute(_ROOM_ID, [self.code])
            row = cursor.fetchone()
        return row[0] if row else None

    async def _join(self, room_id: int) -> None:
        """This connection's groups of the room, the public one too until the
        hello says whether it is a player (a player's public frames are dropped
        by ``table_public`` meanwhile)."""
        self.room_id = room_id
        layer = self.channel_layer
        await layer.group_add(broadcast.table_group(room_id), self.channel_name)
        if self.uid is not None:
            await layer.group_add(broadcast.player_group(room_id, self.uid), self.channel_name)
            await layer.group_add(user_group(self.uid), self.channel_name)
        await self._set_public(True)

    async def disconnect(self, code):
        if self.room_id is None:
            return
        await self._leave_groups()
        if self.arrived:  # its presence was stored by the hello
            heartbeats.keeper.forget(self.code, self.conn_id)
            await self._run(self._gone, lane="hello")

    async def _leave_groups(self) -> None:
        layer = self.channel_layer
        await layer.group_discard(broadcast.table_group(self.room_id), self.channel_name)
        await self._set_public(False)
        if self.uid is not None:
            await layer.group_discard(broadcast.player_group(self.room_id, self.uid), self.channel_name)
            await layer.group_discard(user_group(self.uid), self.channel_name)

    # --- who is this ---------------------------------------------------------------

    @property
    def authenticated(self) -> bool:
        return self.user is not None and self.user.is_authenticated

    def _identity(self) -> str:
        if self.authenticated:
            return f"u:{self.user.pk}"
        session = self.scope.get("session")
        key = getattr(session, "session_key", None)
        return f"s:{key}" if key else f"c:{uuid.uuid4().hex}"

    def _language(self) -> str:
        """The language error messages are worded in: the page's (infra.websocket.scope_language)."""
        return scope_language(self.scope, self.user if self.authenticated else None)

    async def _run(self, fn, *args, lane: str = "table"):
        """``fn(*args)`` off the loop in one hop (on ``lane``'s threads,
        infra.lanes); what it broadcasts is sent from here afterwards
        (rooms.broadcast.collecting), also when it raised."""

        def call():
            with broadcast.collecting() as box:
                try:
                    return fn(*args), box, None
                except Exception as exc:  # noqa: BLE001 - re-raised below, after the sends
                    return None, box, exc

        result, box, error = await db(call, lane)()
        if box:
            await broadcast.send_all(box)
        if error is not None:
            raise error
        return result

    async def _set_public(self, public: bool) -> None:
        if public and not self.in_public:
            await self.channel_layer.group_add(broadcast.public_group(self.room_id), self.channel_name)
        elif not public and self.in_public:
            await self.channel_layer.group_discard(broadcast.public_group(self.room_id), self.channel_name)
        self.in_public = public

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
            raw = json.loads(text_data)
        except (ValueError, RecursionError):
            return await self._error(PlayError("bad_frame", "not JSON"))
        try:
            frame = protocol.parse(raw)
        except protocol.FrameError as exc:
            return await self._error(PlayError(exc.code, exc.detail), exc.ref)
        try:
            await getattr(self, f"on_{frame.type}")(frame)
        except PlayError as exc:
            await self._error(exc, frame.ref)
            if exc.code == "stale_version":
                await self._resync()

    async def on_ping(self, frame):
        """A heartbeat (R-4): presence (kept by rooms.heartbeats, written with the
        others), and the match's version, so a client that missed a frame
        finds out (issue 14). Answered on the loop, no thread."""
        heartbeats.keeper.beat(self.code, self.room_id, self.conn_id, self.who, self.seat_number)
        await self.send_json({"type": "pong", "match": self.match_id, "v": await self._version_now()})

    async def _version_now(self) -> int | None:
        """The match's version for a pong: the last frame's when one came within a
        heartbeat (a table in play sends frames, whose ``prev`` already shows a
        gap), else the database's (a lost last frame looks like silence)."""
        if self.match_id is None:
            return None
        if time.monotonic() - self.frame_at < presence.heartbeat_seconds() and self.last_v is not None:
            return self.last_v
        if plain.available():
            row = await adb.fetchone(_VERSION, [self.match_id])
            return row[0] if row else None
        return await self._run(self._version_from_db, lane="beat")

    def _version_from_db(self) -> int | None:
        return Match.objects.filter(pk=self.match_id).values_list("version", flat=True).first()

    async def on_sync(self, frame):
        await self._resync()

    # --- group messages: sent on as they came, no database -------------------------

    def _saw(self, message) -> None:
        if message["match"] != self.match_id:
            self.match_id, self.last_v = message["match"], None
        self.last_v = max(self.last_v or 0, message["v"])
        self.frame_at = time.monotonic()

    def _stale(self, message) -> bool:
        """A version older than one this connection already sent (a greeting
        or a resync read after it was published): the page would drop it."""
        return message["match"] == self.match_id and self.last_v is not None and message["v"] < self.last_v

    async def layer_resumed(self, message):
        """Redis came back (infra/layers.py): frames may have been lost meanwhile."""
        if self.arrived:
            await self._resync()

    async def table_frame(self, message):
        """This player's own view of one version."""
        if self._stale(message):
            return
        self._saw(message)
        await self.send(text_data=message["text"])

    async def table_public(self, message):
        """The public view of one version: only for those who are not its players."""
        if self.uid is not None and self.uid in message["players"]:
            # A player of a match that just started: his own frames come by his group.
            await self._set_public(False)
            return
        if self._stale(message):
            return
        self._saw(message)
        await self.send(text_data=message["text"])

    async def fair_state(self, message):
        """A round's fair deal moved on (public: fingerprints, who answered)."""
        await self.send(text_data=message["text"])

    async def fair_record(self, message):
        """F-3: an ended round's record; only this match's players get the message."""
        await self.send(text_data=message["text"])

    async def user_close(self, message):
        """Signed out or deactivated elsewhere: this socket must not act for him any more."""
        await self.close(code=CLOSE_SIGNED_OUT)

    # --- helpers -----------------------------------------------------------------------

    def _need_user(self):
        if not self.authenticated:
            raise PlayError("sign_in")

    def _you(self) -> dict:
        return {"user": self.user.username if self.authenticated else None, "seat": self.seat_number}

    async def send_json(self, content):
        await self.send(text_data=json.dumps(content, ensure_ascii=False))

    async def _error(self, exc: PlayError, ref=None):
        metrics.refused(exc.code)
        with translation.override(self.language):
            frame = exc.as_frame(ref)
        await self.send_json(frame)
