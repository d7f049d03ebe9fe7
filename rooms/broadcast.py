"""What the table sends, and to whom (docs/protocol.md).

Channel-layer groups, one per viewer class of a room (the layer has the
site's own prefix):

- ``table_group(room)``: every connection of the room: room updates, reactions;
- ``public_group(room)``: connections that are not players of the current
  match (spectators, anonymous visitors, later sitters): the public view;
- ``player_group(room, user)``: one player's connections: his seat's view.

A state frame is built once per version, inside the transaction
(``games.frames``), and sent here after commit exactly as it was built; no
message on the layer carries more than one viewer class's view.
"""

from __future__ import annotations

import asyncio
import json
import threading
from contextlib import contextmanager

from channels.layers import get_channel_layer
from django.core.cache import cache

from games import fairness
from games.frames import Frames, dumps
from games.models import DealRecord, Match, Round
from infra import bridge, presence

from .models import Room


def table_group(room_id: int) -> str:
    return f"table.{int(room_id)}"


def public_group(room_id: int) -> str:
    return f"table.{int(room_id)}.public"


def player_group(room_id: int, user_id: int) -> str:
    return f"table.{int(room_id)}.u{int(user_id)}"


ROOM_EVENTS = {"match_won", "rubber_won", "left", "swap_seats"}
"""Events after which the room itself (seats, status) is sent again."""


_CURRENT = object()


def room_seats(room: Room) -> list:
    """The room's seats with their users, in order (what ``room_snapshot`` shows)."""
    return list(room.seats.select_related("user").order_by("number"))


class Snapshot(dict):
    """A room frame's body, with the fingerprint of the presence it shows
    (``presence.snapshot``), which is not part of the frame."""

    fingerprint: tuple | None = None


def room_snapshot(room: Room, match=_CURRENT, seats: list | None = None) -> dict:
    """The ``room`` frame's body: an allow-list of public fields. ``match``:
    the room's current match (or None), and ``seats`` (``room_seats``), when
    the caller has just read them."""
    seats = room_seats(room) if seats is None else seats
    seated = {s.number: f"u:{s.user_id}" for s in seats if s.user_id}
    live = presence.snapshot(room.code, seated)
    match = room.current_match() if match is _CURRENT else match
    body = Snapshot(
        {
            "code": room.code,
            "game": room.game,
            "arena_url": room.arena_url or None,  # E-3: the arena's page, for an arena's table
            "rules": room.rules,
            "status": room.status,
            "creator": room.creator.username,
            "creator_id": room.creator_id,
            "match": match.pk if match else None,
            "match_status": match.status if match else None,
            "match_players": sorted(p["user_id"] for p in match.players if p.get("user_id")) if match else [],
            "seats": [
                {
                    "number": s.number,
                    "user": s.user.username if s.user_id else None,
                    "user_id": s.user_id,
                    "bot": s.is_bot,
                    "level": s.bot_level if s.is_bot else None,
                    "ready": s.ready or s.user_id == room.creator_id,
                    "rematch": s.rematch or s.is_bot,
                    "presence": "connected"
                    if s.is_bot
                    else live["seats"].get(s.number, presence.DISCONNECTED),
                }
                for s in seats
            ],
            "spectators": live["spectators"],
        }
    )
    body.fingerprint = live["fingerprint"]
    return body


async def send_all(messages: list[tuple[str, dict]]) -> None:
    """Send ``messages`` ([(group, message)]) on the layer, from the event loop."""
    layer = get_channel_layer()
    if layer is None:
        return
    many = getattr(layer, "group_send_many", None)
    if many is not None:  # one pipelined round trip, in order (infra/layers.py)
        await many(messages)
        return
    # The groups' publishes go out together; within one group, in order.
    by_group: dict[str, list[dict]] = {}
    for group, message in messages:
        by_group.setdefault(group, []).append(message)

    async def send(group, batch):
        for message in batch:
            await layer.group_send(group, message)

    await asyncio.gather(*(send(group, batch) for group, batch in by_group.items()))


_outbox = threading.local()


@contextmanager
def collecting():
    """Keep what this thread would send instead of sending it: the table's
    socket runs an action on a worker thread, then sends the collected
    messages itself from the event loop (issue 13: the worker thread does not
    wait for the loop, and the loop does not wait for the thread)."""
    _outbox.messages = box = []
    try:
        yield box
    finally:
        _outbox.messages = None


def _send(messages: list[tuple[str, dict]]) -> None:
    if not messages:
        return
    box = getattr(_outbox, "messages", None)
    if box is not None:
        box.extend(messages)
        return
    bridge.run(send_all, messages)


def frame_messages(frames: Frames) -> list[tuple[str, dict]]:
    """One message per viewer class of one committed version."""
    head = {"match": frames.match_id, "v": frames.version}
    out = [
        (
            public_group(frames.room_id),
            {"type": "table.public", **head, "players": frames.players, "text": frames.public},
        )
    ]
    for user_id, text in frames.users.items():
        out.append((player_group(frames.room_id, user_id), {"type": "table.frame", **head, "text": text}))
    return out


def version_committed(sender, frames: Frames, **kwargs) -> None:
    """games.signals.version_committed: send the version's frames; then the
    room again when the match ended or seats moved."""
    messages = frame_messages(frames)
    if frames.ends_match or any(e.get("type") in ROOM_EVENTS for e in frames.events):
        room = Room.objects.select_related("creator").filter(pk=frames.room_id).first()
        if room is not None:
            messages.append(_room_message(room))
    if frames.ends_match or any(e.get("type") in ROUND_END_EVENTS for e in frames.events):
        messages.extend(fair_record_messages(frames))
    _send(messages)


ROUND_END_EVENTS = {"round_won", "round_scored", "deal_scored", "passed_out"}
"""Events after which the round's fair deal record is published to the match's players (F-3)."""


def fair_record_messages(frames: Frames) -> list[tuple[str, dict]]:
    """F-3: the ended round's secrets and values, to each human player of the
    match (his own group), after that version's frames; never to spectators.
    Read here unless the action's path read it (``Frames.round_record``)."""
    if frames.round_record is not None:
        record = frames.round_record or None
    else:
        record = _round_record(frames.match_id)
    if record is None:
        return []
    text = dumps({"type": "fair_record", "record": record, "v": frames.version})
    return [
        (
            player_group(frames.room_id, user_id),
            {"type": "fair.record", "match": frames.match_id, "text": text},
        )
        for user_id in frames.players
    ]


def _round_record(match_id: int) -> dict | None:
    round_ = (
        Round.objects.select_related("match")
        .defer("match__state")  # the record needs the match's game, rules and status, not its state
        .filter(match_id=match_id)
        .order_by("-number")
        .first()
    )
    return fairness.public_record(round_) if round_ is not None else None


def fair_changed(sender, record: DealRecord, **kwargs) -> None:
    """games.signals.fair_changed: the public state of a round's fair deal
    (fingerprints, who has answered; never a value) to everyone at the table."""
    room_id = getattr(record, "match_room_id", None)  # read with it (games.fairness._read)
    if room_id is None and DealRecord.match.is_cached(record):
        room_id = record.match.room_id
    if room_id is None:
        room_id = Match.objects.filter(pk=record.match_id).values_list("room_id", flat=True).first()
    if room_id is None:
        return
    text = dumps({"type": "fair_state", **fairness.public_state(record)})
    _send([(table_group(room_id), {"type": "fair.state", "text": text})])


def _room_message(room: Room) -> tuple[str, dict]:
    return table_group(room.pk), {"type": "room.update", "room": room_snapshot(room)}


def room_changed(room_id: int, room: Room | None = None, seats: list | None = None, match=_CURRENT) -> None:
    """The room frame to its table, after a commit: read again, or built from
    the ``room``, its ``seats`` (``room_seats``) and its current ``match``
    the committed action had in hand (a table's start, issue 39)."""
    if room is None or seats is None:
        room = Room.objects.select_related("creator").filter(pk=room_id).first()
        if room is not None:
            _send([_room_message(room)])
        return
    if not Room.creator.is_cached(room):
        creator = next((s.user for s in seats if s.user_id and s.user_id == room.creator_id), None)
        if creator is not None:
            Room.creator.field.set_cached_value(room, creator)
    _send([(table_group(room.pk), {"type": "room.update", "room": room_snapshot(room, match, seats)})])


def presence_changed(room: Room, force: bool = False, snapshot: dict | None = None) -> None:
    """Broadcast the room again when anyone's presence or the spectator count
    changed (``snapshot``: the room's, when the caller has just built it)."""
    snapshot = room_snapshot(room) if snapshot is None else snapshot
    signature = json.dumps([[s["presence"] for s in snapshot["seats"]], snapshot["spectators"]])
    key = f"presence-sent:{room.pk}"
    if force or cache.get(key) != signature:
        cache.set(key, signature, timeout=3600)
        _send([(table_group(room.pk), {"type": "room.update", "room": snapshot})])
    if getattr(snapshot, "fingerprint", None) is not None:
        presence.shown(room.code, snapshot.fingerprint)


def reaction(room_id: int, seat: int, reaction: str) -> None:
    _send([(table_group(room_id), {"type": "table.reaction", "seat": seat, "reaction": reaction})])


def thrown(room_id: int, item: str, target: int) -> None:
    """H4-X5: something flew at ``target``'s face. The message names the item
    and the target only, never the thrower (nor his seat, user or connection)."""
    _send([(table_group(room_id), {"type": "table.throw", "item": item, "target": target})])
