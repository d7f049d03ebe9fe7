"""What a table connection is told from the database: the greeting (the
room frame and this viewer's state frame), a resync, and the room's updates."""

from __future__ import annotations

import time

from games import engine, fairness, frames
from games import services as play_service
from games.engine import CHANCE
from games.models import DealRecord, Match
from infra import presence

from .. import broadcast, heartbeats
from ..models import Room
from .reads import _LATEST_MATCH, _ROOM, _SEATS, room_now


class Greeting:
    """Methods of ``rooms.consumers.TableConsumer`` (its transport is there)."""

    def _hello(self, room_id: int | None = None, arriving: bool = False) -> dict | None:
        """The room frame and the current state frame of this viewer, from the
        database. ``arriving`` (on connect): this connection's presence is
        stored first and the room, with it, goes to the others too: the whole
        arrival is one thread hop and one room snapshot (issue 13)."""
        if room_id is None:
            room_id = Room.objects.filter(code=self.code).values_list("pk", flat=True).first()
        room = _ROOM.one([room_id]) if room_id is not None else None
        if room is None or room.code != self.code:
            return None
        match = _LATEST_MATCH.one([room.pk])
        seats = _SEATS.all([room.pk])  # this viewer's seat among them: no query of its own
        seat = next((s.number for s in seats if self.uid is not None and s.user_id == self.uid), None)
        self.seat_number = seat
        if arriving:
            presence.store().touch(self.code, self.conn_id, self.who, seat)
        snapshot = broadcast.room_snapshot(room, match, seats)
        if arriving:
            broadcast.presence_changed(room, force=True, snapshot=snapshot)
        state = None
        player = False
        fair = None
        if match is not None:
            own = frames.viewer_seat(match, self.uid)
            player = own is not None
            if arriving and player and str(own) in (match.gone or {}) and match.status == Match.Status.ACTIVE:
                # L-7: he is back; his row of clock moves ends (a version of its own if a stand-in played)
                if play_service.came_back(match.pk, self.uid) is not None:
                    match = Match.objects.get(pk=match.pk)
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
        values (a browser that connects late still answers in time, F-1).
        A record collects only while its deal is still to come: the dealer
        is to act (the round's end, the match's start), else no query."""
        if match.status != Match.Status.ACTIVE or CHANCE not in engine.get(match.game).to_act(match.state):
            return None
        waiting = (DealRecord.Phase.COMMIT, DealRecord.Phase.REVEAL)
        record = DealRecord.objects.filter(match=match, phase__in=waiting).order_by("-number").first()
        return {"type": "fair_state", **fairness.public_state(record)} if record is not None else None

    async def _send_room(self, room: dict) -> None:
        """The room frame, unless it is the very one this socket sent last: every
        arrival sends its room to the whole table (its presence), and when a
        restarted process's sockets come back their presence has not changed
        (the old connections' entries live on until they expire), so a table's
        four arrivals were sixteen room frames, most the same (issue 39). A
        resync sends it whatever it was."""
        frame = {"type": "room", "room": room, "you": self._you()}
        if frame == self.__dict__.get("_room_sent"):
            return
        self._room_sent = frame
        await self.send_json(frame)

    async def _send_hello(self, hello: dict) -> None:
        await self._send_room(hello["room"])
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
            self._room_sent = None  # asked for (a sync, Redis back, a new match): the room in full again
            await self._set_public(not hello["player"])
            await self._send_hello(hello)

    def _gone(self) -> None:
        heartbeats.keeper.dropped(self.code, self.conn_id)
        found = room_now(self.room_id)
        if found is not None:
            broadcast.presence_changed(found[0], force=True, snapshot=found[1])

    async def room_update(self, message):
        room = message["room"]
        self.seat_number = next(
            (s["number"] for s in room["seats"] if self.uid and s["user_id"] == self.uid), None
        )
        player = self.uid is not None and self.uid in room.get("match_players", [])
        was_public = self.in_public
        await self._send_room(room)
        if room.get("match") != self.match_id or was_public == player:
            # A new match, or this viewer's class changed: start from the database's state.
            await self._resync()
