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
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import translation

from accounts.sockets import CLOSE_SIGNED_OUT, user_group
from games import clock, engine, fairness, frames, plain
from games import services as play_service
from games.errors import PlayError
from games.fairdeal import FairnessError
from games.models import DealRecord, Match
from infra import adb
from infra.lanes import db
from ops import metrics

from . import broadcast, heartbeats, hints, presence, protocol
from . import services as room_service
from .models import Room, Seat

CLOSE_NO_ROOM = 4404
_VERSION = 'SELECT "version" FROM "games_match" WHERE "id" = %s'

log = logging.getLogger(__name__)

_room_ids: dict[str, int] = {}
"""Room code -> id, for the rooms this process has had connections to (a
code never names another room while its room exists; the hello checks it)."""
ROOM_IDS_KEPT = 10_000


async def _pump(receive, inbox: asyncio.Queue) -> None:
    """The server's frames into ``inbox`` (TableConsumer.__call__)."""
    while True:
        inbox.put_nowait(await receive())


def _remember_room(code: str, room_id: int) -> None:
    if code not in _room_ids and len(_room_ids) >= ROOM_IDS_KEPT:
        _room_ids.pop(next(iter(_room_ids)))  # the oldest
    _room_ids[code] = room_id


async def _announce_fair(record) -> None:
    """A fair deal's record just written on the loop, to its table (fairness.answer_on_loop)."""
    with broadcast.collecting() as box:
        fairness.announce_now(record)
    await broadcast.send_all(box)


class TableConsumer(AsyncWebsocketConsumer):
    room_id: int | None = None
    match_id: int | None = None
    code: str = ""
    in_public: bool = False
    frame_at: float = 0.0  # when the last state frame reached this connection (monotonic)
    last_v: int | None = None
    hide_reactions: bool = False  # R-5 / H4-X5: this viewer hides reactions, throws too
    arrived: bool = False  # the hello found the room (and stored this connection's presence)

    async def __call__(self, scope, receive, send):
        """Channels' consumer loop, with one queue for everything (issue 13).

        Channels waits on two tasks at once for every message (the socket's
        next frame and the layer's next message: ``asyncio.wait``, and a new
        task after each message). Here the layer puts this connection's
        messages, still serialised, into the same queue the server puts the
        socket's frames in (``new_channel_into``), and one ``get`` serves
        both, in the order they came. Where that queue is not an
        ``asyncio.Queue`` of ours to share (another server), a task moves the
        frames into a queue of our own; without the lean layer (the embedded
        default's in-memory one), Channels' own loop runs."""
        layer = get_channel_layer(self.channel_layer_alias)
        into = getattr(layer, "new_channel_into", None)
        if into is None:
            return await super().__call__(scope, receive, send)
        self.scope = scope
        self.channel_layer = layer
        self.base_send = send
        shared = getattr(receive, "__self__", None)
        pump = None
        if type(shared) is asyncio.Queue and getattr(receive, "__func__", None) is asyncio.Queue.get:
            inbox = shared
        else:
            inbox = asyncio.Queue()
            pump = asyncio.ensure_future(_pump(receive, inbox))
        self.channel_name = await into(inbox)
        deserialize = layer.deserialize
        try:
            while True:
                message = await inbox.get()
                if type(message) is bytes:
                    message = deserialize(message)
                await self.dispatch(message)
        except StopConsumer:
            pass
        finally:
            if pump is not None:
                pump.cancel()
            await layer.release(self.channel_name)

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
        return Room.objects.filter(code=self.code).values_list("pk", flat=True).first()

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
        """The language error messages are worded in: the switcher's cookie,
        else the signed-in user's preference, else Persian (the default)."""
        choice = (self.scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
        if choice not in dict(settings.LANGUAGES) and self.authenticated:
            profile = getattr(self.user, "profile", None)
            choice = profile.language if profile is not None else None
        return choice if choice in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE

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

    # --- what a connection is told (each built in one hop) ---------------------------

    def _hello(self, room_id: int | None = None, arriving: bool = False) -> dict | None:
        """The room frame and the current state frame of this viewer, from the
        database. ``arriving`` (on connect): this connection's presence is
        stored first and the room, with it, goes to the others too: the whole
        arrival is one thread hop and one room snapshot (issue 13)."""
        rooms = Room.objects.select_related("creator")
        room = rooms.filter(pk=room_id).first() if room_id else rooms.filter(code=self.code).first()
        if room is None or room.code != self.code:
            return None
        match = Match.objects.filter(room_id=room.pk).order_by("-id").first()
        seat = None
        if self.uid is not None:
            seat = (
                Seat.objects.filter(room_id=room.pk, user_id=self.uid)
                .values_list("number", flat=True)
                .first()
            )
        self.seat_number = seat
        if arriving:
            presence.store().touch(self.code, self.conn_id, self.who, seat)
        snapshot = broadcast.room_snapshot(room, match)
        if arriving:
            broadcast.presence_changed(room, force=True, snapshot=snapshot)
        state = None
        player = False
        fair = None
        if match is not None:
            own = frames.viewer_seat(match, self.uid)
            player = own is not None
            state = frames.state_frame(match, engine.get(match.game), own, full=True)
            fair = self._fair_waiting(match)
        profile = getattr(self.user, "profile", None) if self.authenticated else None
        return {
            "hide_reactions": bool(profile and profile.hide_reactions),
            "room_id": room.pk,
            "language": self._language(),
            "room": snapshot,
            "state": state,
            "player": player,
            "fair": fair,
        }

    @staticmethod
    def _fair_waiting(match) -> dict | None:
        """The public state of a fair deal still collecting fingerprints or
        values (a browser that connects late still answers in time, F-1)."""
        if match.status != Match.Status.ACTIVE:
            return None
        waiting = (DealRecord.Phase.COMMIT, DealRecord.Phase.REVEAL)
        record = DealRecord.objects.filter(match=match, phase__in=waiting).order_by("-number").first()
        return {"type": "fair_state", **fairness.public_state(record)} if record is not None else None

    async def _send_hello(self, hello: dict) -> None:
        await self.send_json({"type": "room", "room": hello["room"], "you": self._you()})
        state = hello["state"]
        if state is not None:
            if self._stale(state):
                # A newer version reached this socket while the greeting was read
                # (the groups are joined first): the snapshot would step it back.
                state = None
            else:
                self.match_id, self.last_v, self.frame_at = state["match"], state["v"], time.monotonic()
                await self.send_json(state)
        if hello.get("fair") is not None:
            await self.send_json(hello["fair"])

    async def _resync(self) -> None:
        hello = await self._run(self._hello, self.room_id)
        if hello is not None:
            await self._set_public(not hello["player"])
            await self._send_hello(hello)

    def _gone(self) -> None:
        heartbeats.keeper.dropped(self.code, self.conn_id)
        room = Room.objects.select_related("creator").filter(pk=self.room_id).first()
        if room is not None:
            broadcast.presence_changed(room, force=True)

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

    async def on_act(self, frame):
        began = metrics.now()
        self._need_user()
        action = frame.action.model_dump()
        outcome = await self._play_on_loop(action, frame.seat, frame.v)
        if outcome is None:
            outcome = await self._run(self._play, action, frame.seat, frame.v)
        await self.send_json(
            {"type": "ack", "ref": frame.ref, "match": outcome.match_id, "v": outcome.version}
        )
        metrics.acted(self, began)

    async def _play_on_loop(self, action: dict, seat: int | None, version: int):
        """A plain move on this loop's own connections (games/plain.py), its
        frames sent from here; None: the play service decides on a thread."""
        if self.match_id is None or not plain.available():
            return None
        outcome = await plain.play(self.match_id, action, user_id=self.uid, seat=seat, version=version)
        if outcome is not None:
            with broadcast.collecting() as box:
                plain.announce(outcome)
            await broadcast.send_all(box)
        return outcome

    def _play(self, action: dict, seat: int | None, version: int):
        """The play service on the match this connection last saw; if that
        one is over, on the room's active match (a new one may have started).
        The plain path was tried on the loop already when it is available."""
        match_id = self.match_id
        tried = plain.available()
        if match_id is not None:
            try:
                return play_service.play(
                    match_id, action, user=self.user, seat=seat, version=version, plain=not tried
                )
            except PlayError as exc:
                if exc.code not in {"match_over", "no_match"}:
                    raise
        active = (
            Match.objects.filter(room_id=self.room_id, status=Match.Status.ACTIVE)
            .values_list("pk", flat=True)
            .first()
        )
        if active is None or active == match_id:
            raise PlayError("no_match")
        self.match_id = active
        return play_service.play(active, action, user=self.user, seat=seat, version=version)

    async def on_react(self, frame):
        self._need_user()
        await self._run(self._room_action, room_service.react, frame.reaction)

    async def on_sit(self, frame):
        self._need_user()
        await self._run(self._room_action, room_service.sit, frame.seat, frame.move)
        await self._resync()

    async def on_stand(self, frame):
        self._need_user()
        await self._run(self._room_action, room_service.stand)
        await self._resync()

    async def on_ready(self, frame):
        self._need_user()
        await self._run(self._room_action, room_service.set_ready, frame.ready)

    async def on_bot(self, frame):
        self._need_user()
        await self._run(self._room_action, room_service.set_bot, frame.seat, frame.bot, frame.level)

    async def on_start(self, frame):
        self._need_user()
        await self._run(self._room_action, room_service.start)

    async def on_rematch(self, frame):
        self._need_user()
        await self._run(self._room_action, room_service.rematch, frame.agree)

    async def on_leave(self, frame):
        self._need_user()
        try:
            result = await self._run(self._room_action, room_service.leave, frame.confirm)
        except PlayError as exc:
            if exc.code == "confirm_required":
                await self.send_json(
                    {
                        "type": "confirm_leave",
                        "cost": exc.detail,
                        "points": room_service.leave_points(self._game),
                        "ref": frame.ref,
                    }
                )
                return
            raise
        await self.send_json({"type": "left", **result})
        await self._resync()

    async def on_fair_commit(self, frame):
        """F-1: this player's fingerprint for the round's deal (on the loop; else one hop)."""
        self._need_user()
        if not await self._fair_on_loop("commit", frame.round, frame.commitment):
            await self._run(self._fair, fairness.commit, frame.round, frame.commitment)

    async def on_fair_reveal(self, frame):
        """F-2: this player's value; the last one deals at once (on the loop; else one hop)."""
        self._need_user()
        if not await self._fair_on_loop("reveal", frame.round, frame.value):
            await self._run(self._fair, fairness.reveal, frame.round, frame.value)

    async def _fair_on_loop(self, kind: str, number: int, text: str) -> bool:
        """The answer for the match this connection last saw, on the loop's own
        connections (infra/adb.py); the deal it made ready goes to a thread.
        False: the thread's path decides (no match known here, the record not
        found: a new match may have begun, or the database out of the loop's reach)."""
        if self.match_id is None or not plain.available():
            return False
        try:
            record, _, leads = await fairness.answer_on_loop(
                kind,
                self.match_id,
                number,
                text,
                user_id=self.uid,
                room_id=self.room_id,
                announce=_announce_fair,
            )
        except FairnessError as exc:
            if exc.code in {"no_match", "no_deal_record"}:
                return False
            raise PlayError(exc.code, exc.message) from None
        except Exception:  # noqa: BLE001 - the thread's path decides, on the ORM's connections
            log.exception("a fair deal answer on the loop failed")
            return False
        if not leads:  # written with others' answers of this table: the batch's last one deals
            return True
        if record.phase == DealRecord.Phase.READY and not play_service.deal_waits_for_pause(record):
            await self._run(play_service.deal_if_ready, self.match_id)
        return True

    def _fair(self, step, number: int, text: str) -> None:
        """``step`` (fairness.commit or reveal) for the seat this user holds in
        the room's active match (never a seat from the frame), read with the
        round's record; when that made the deal ready, deal now through the
        play service. The match is the one this connection last saw; if that
        one is over (a new one may have started), the room's active match."""
        tried = self.match_id
        if tried is not None:
            try:
                return self._fair_on(tried, step, number, text)
            except PlayError as exc:
                if exc.code not in {"no_match", "no_deal_record"}:
                    raise
        active = (
            Match.objects.filter(room_id=self.room_id, status=Match.Status.ACTIVE)
            .values_list("pk", flat=True)
            .first()
        )
        if active is None:
            raise PlayError("no_match")
        if active == tried:
            raise PlayError("no_deal_record", "This round has no deal waiting.")
        return self._fair_on(active, step, number, text)

    def _fair_on(self, match_id: int, step, number: int, text: str) -> None:
        try:
            record = step(match_id, number, None, text, user_id=self.uid, room_id=self.room_id)
        except FairnessError as exc:
            raise PlayError(exc.code, exc.message) from None
        if record.phase == DealRecord.Phase.READY and not play_service.deal_waits_for_pause(record):
            play_service.deal_if_ready(match_id)

    def _room_action(self, action, *args):
        room = Room.objects.select_related("creator").get(pk=self.room_id)
        self._game = room.game
        return action(room, self.user, *args)

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

    async def room_update(self, message):
        room = message["room"]
        self.seat_number = next(
            (s["number"] for s in room["seats"] if self.uid and s["user_id"] == self.uid), None
        )
        player = self.uid is not None and self.uid in room.get("match_players", [])
        was_public = self.in_public
        await self.send_json({"type": "room", "room": room, "you": self._you()})
        if room.get("match") != self.match_id or was_public == player:
            # A new match, or this viewer's class changed: start from the database's state.
            await self._resync()

    async def fair_state(self, message):
        """A round's fair deal moved on (public: fingerprints, who answered)."""
        await self.send(text_data=message["text"])

    async def fair_record(self, message):
        """F-3: an ended round's record; only this match's players get the message."""
        await self.send(text_data=message["text"])

    async def table_reaction(self, message):
        await self.send_json({"type": "reaction", "seat": message["seat"], "reaction": message["reaction"]})

    # --- tea with the narrator (H4-X4) and throwing things (H4-X5) ---------------------

    async def on_tea(self, frame):
        """Ask for tea, say yes or no to another's, or press continue (games/tea.py)."""
        self._need_user()
        outcome = await self._run(self._tea, frame.say)
        await self.send_json(
            {"type": "ack", "ref": frame.ref, "match": outcome.match_id, "v": outcome.version}
        )

    def _tea(self, what: str):
        match_id = (
            Match.objects.filter(room_id=self.room_id, status=Match.Status.ACTIVE)
            .values_list("pk", flat=True)
            .first()
        )
        if match_id is None:
            raise PlayError("no_match")
        return play_service.tea_say(match_id, self.user, what)

    async def on_throw(self, frame):
        """H4-X5: no answer of its own when accepted (the thrower gets the same
        ``throw`` frame as everyone else); a refusal is an error to him alone."""
        self._need_user()
        await self._run(self._room_action, room_service.throw, frame.item, frame.target)

    async def on_hide_reactions(self, frame):
        """R-5: the viewer's eye; while hidden, throws are not sent to this connection at all."""
        self.hide_reactions = frame.hide

    async def on_hint(self, frame):
        """Issue 38: a learner's hint, practice matches only (rooms/hints.py)."""
        self._need_user()
        hint = await self._run(hints.hint_frame, self.match_id, self.user, self.language)
        await self.send_json({**hint, "ref": frame.ref})

    async def table_throw(self, message):
        if self.hide_reactions:
            return
        await self.send_json({"type": "throw", "item": message["item"], "target": message["target"]})

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
