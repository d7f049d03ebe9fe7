"""A round's fair deal record: opened, fingerprints and values answered (compare and swap), substitutes (F-1, F-2, F-4)."""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from infra import adb
from ops import metrics

from .. import clock, engine, fairdeal, signals
from ..fairdeal import ALGORITHM, FairnessError
from ..frames import dumps
from ..models import DealRecord, Match
from .view import _RECORD_READ

DEFAULT_WAIT_SECONDS = 4.0
log = logging.getLogger(__name__)


class NotReady(Exception):
    """The deal is due but some values are not in yet: wait for them (or the deadline)."""

    def __init__(self, record: DealRecord):
        super().__init__(f"round {record.number} of match #{record.match_id} is waiting ({record.phase})")
        self.record = record


def wait_seconds() -> float:
    """How long a seat has to send its fingerprint, then its value (F-4: "a few seconds")."""
    return float(getattr(settings, "FAIR_WAIT_SECONDS", DEFAULT_WAIT_SECONDS))


def table_nonce(match: Match) -> str:
    return str(match.pk)


def _new_secret() -> str:
    return secrets.token_hex(fairdeal.VALUE_BYTES)


def _deadline(now=None):
    return (now or clock.now_dt()) + timedelta(seconds=wait_seconds())


def _announce(record: DealRecord) -> None:
    """After commit: ``signals.fair_changed`` (rooms sends the public state to the table)."""

    def send():
        signals.fair_changed.send_robust(sender=DealRecord, record=record)

    transaction.on_commit(send)


# --- opening, commitments, reveals --------------------------------------------------


def open_round(match: Match, number: int, *, now=None, new: bool = False) -> DealRecord:
    """The record of round ``number``, made if new (idempotent). ``new``: the
    caller made the match in this transaction, so there is none to read
    (a table's start: one statement less, issue 39)."""
    if not new:
        existing = DealRecord.objects.filter(match=match, number=number).first()
        if existing is not None:
            return existing
    record = new_record(match, number, now=now)
    # Within the action's transaction (a round's end) no savepoint of its own: its failure is the action's.
    with transaction.atomic(savepoint=False):
        record.save()
        _announce(record)
    return record


def new_record(match: Match, number: int, *, now=None) -> DealRecord:
    """Round ``number``'s record, made in memory, not saved (``open_round``;
    the event loop's round end writes it in the move's statement,
    games/writer.py).

    F-1: the server's secret is made here and only its SHA-256 is public.
    F-4: a bot's value is made by the server now, before any seat is
    revealed, and committed like a person's.
    """
    players = engine.get(match.game).players
    secret = _new_secret()
    bots = sorted(p["seat"] for p in match.players if p.get("bot"))
    values = [None] * players
    commitments = [None] * players
    for seat in bots:
        values[seat - 1] = _new_secret()
        commitments[seat - 1] = fairdeal.commitment(values[seat - 1])
    record = DealRecord(
        match_id=match.pk,
        number=number,
        algorithm=ALGORITHM,
        table=table_nonce(match),
        seats=players,
        server_secret=secret,
        server_commitment=fairdeal.commitment(secret),
        commitments=commitments,
        values=values,
        bots=bots,
        substituted=[],
        deadline=_deadline(now),
    )
    # rooms' announcement (fair_changed) needs the room: known here, not read again (issue 39)
    record.match_room_id = getattr(match, "room_id", None)
    _advance_phase(record, now)
    return record


def _locked(match_id: int, number: int) -> DealRecord:
    # No join: the model's default ordering ("match") would join games_match,
    # and FOR UPDATE would then lock the match row too, here before the
    # record's, against the lock order of the play service (match first).
    record = (
        DealRecord.objects.select_for_update(of=("self",))
        .filter(match_id=match_id, number=number)
        .order_by()
        .first()
    )
    if record is None:
        raise FairnessError("no_deal_record", "This round has no deal waiting.")
    return record


def _check_seat(record: DealRecord, seat) -> int:
    if type(seat) is not int or not 1 <= seat <= record.seats:
        raise FairnessError("bad_seat", "No such seat at this table.")
    if seat in record.bots:
        raise FairnessError("bot_seat", "A bot's value is made by the server (F-4).")
    if seat in record.substituted:
        raise FairnessError(
            "substituted", "This seat's value was already replaced: it answered too late (F-4)."
        )
    return seat


def _advance_phase(record: DealRecord, now=None) -> None:
    """COMMIT -> REVEAL once every fingerprint is in; REVEAL -> READY once every value is."""
    if record.phase == DealRecord.Phase.COMMIT and all(c is not None for c in record.commitments):
        record.phase = DealRecord.Phase.REVEAL
        record.deadline = _deadline(now)
    if record.phase == DealRecord.Phase.REVEAL and all(v is not None for v in record.values):
        record.phase = DealRecord.Phase.READY
        record.deadline = None


class _Seat:
    """Who answers: a seat given by the caller, or the seat a user holds in
    the record's match, read with the record (the table's socket: never a
    seat from the frame)."""

    def __init__(self, seat=None, user_id=None, room_id=None):
        self.seat, self.user_id, self.room_id = seat, user_id, room_id

    def of(self, record: DealRecord) -> int:
        if self.user_id is None:
            return _check_seat(record, self.seat)
        if record.match_status != Match.Status.ACTIVE or (
            self.room_id is not None and record.match_room_id != self.room_id
        ):
            raise FairnessError("no_match", "This table has no match in play.")
        seat = next((p["seat"] for p in record.match_players if p.get("user_id") == self.user_id), None)
        if seat is None:
            raise FairnessError("not_seated", "You do not hold a seat in this match.")
        return _check_seat(record, seat)


def _read(match_id: int, number: int) -> DealRecord:
    """The record and what its match says about seats, in one statement built
    once (infra/rows.py), no lock."""
    record = _RECORD_READ.one([match_id, number])
    if record is None:
        raise FairnessError("no_deal_record", "This round has no deal waiting.")
    return record


SWAP_TRIES = 8


def _prepare(record: DealRecord, who: _Seat, change) -> dict | None:
    """The answer applied to ``record`` in memory: what the row must still hold
    for it to be written (compare and swap), or None: nothing to write."""
    seat = who.of(record)
    before = {
        "phase": record.phase,
        "commitments": list(record.commitments),
        "values": list(record.values),
        "substituted": list(record.substituted),
    }
    if not change(record, seat):
        return None
    record.updated_at = timezone.now()
    return before


def _answer(match_id: int, number: int, who: _Seat, change) -> DealRecord:
    """Read the record, ``change(record, seat)`` it in memory, write it back
    only if it is still what was read: one statement each, no transaction
    (issue 13: a fingerprint or a value is eight per round of a four-seat
    table; BEGIN, a locking select and COMMIT around each cost more than
    the answer). Two answers at once: the second finds the row changed and
    runs again on the new one (F-1, F-2: every answer counts once). The
    clock's substitution locks the row: an answer waits for it, then sees it.
    ``change`` returns False when there is nothing to write (a resent frame).
    The table's socket runs the same on its event loop (``answer_on_loop``)."""
    for _ in range(SWAP_TRIES):
        record = _read(match_id, number)
        before = _prepare(record, who, change)
        if before is None:
            return record
        if _swap(record, before):
            _announce(record)
            return record
    raise FairnessError("busy", "The deal is being changed by others; send it again.")


def announce_now(record: DealRecord) -> None:
    """``signals.fair_changed`` for a change already committed (``answer_on_loop``)."""
    signals.fair_changed.send_robust(sender=DealRecord, record=record)


_SWAP = (
    'UPDATE "games_dealrecord" SET "phase" = %s, "commitments" = %s::jsonb, "values" = %s::jsonb,'
    ' "deadline" = %s, "updated_at" = %s WHERE "id" = %s AND "phase" = %s'
    ' AND "commitments" = %s::jsonb AND "values" = %s::jsonb AND "substituted" = %s::jsonb'
)


_SWAP_ON_LOOP = adb.Statement("takhteh_fair_swap", _SWAP)


def _swap_params(record: DealRecord, before: dict) -> list:
    return [
        record.phase,
        dumps(record.commitments),
        dumps(record.values),
        record.deadline,
        record.updated_at,
        record.pk,
        before["phase"],
        dumps(before["commitments"]),
        dumps(before["values"]),
        dumps(before["substituted"]),
    ]


def _swap(record: DealRecord, before: dict) -> bool:
    """Write ``record``'s answer fields back if the row still holds ``before``
    (one statement written once on PostgreSQL: the ORM's update compiled it
    again each time; the ORM's on SQLite, the embedded default)."""
    if connection.vendor != "postgresql":
        fields = ("phase", "commitments", "values", "deadline", "updated_at")
        rows = DealRecord.objects.filter(pk=record.pk, **before)
        return rows.update(**{name: getattr(record, name) for name in fields}) == 1
    with connection.cursor() as cursor:
        cursor.execute(_SWAP, _swap_params(record, before))
        return cursor.rowcount == 1


def _commit_change(value_commitment):
    def change(record: DealRecord, at: int) -> bool:
        current = record.commitments[at - 1]
        if current == value_commitment:
            return False
        if record.phase != DealRecord.Phase.COMMIT:
            raise FairnessError("commitments_closed", "The fingerprints of this deal are closed.")
        if current is not None:
            raise FairnessError("already_committed", "This seat has sent a different fingerprint already.")
        commitments = list(record.commitments)
        commitments[at - 1] = value_commitment
        record.commitments = commitments
        _advance_phase(record)
        return True

    return change


def _reveal_change(value):
    def change(record: DealRecord, at: int) -> bool:
        if record.phase == DealRecord.Phase.COMMIT:
            raise FairnessError("reveal_too_early", "Wait until every seat has sent its fingerprint (F-2).")
        if fairdeal.commitment(value) != record.commitments[at - 1]:
            raise FairnessError("value_mismatch", "This value does not match the seat's fingerprint.")
        if record.values[at - 1] == value:
            return False
        if record.phase != DealRecord.Phase.REVEAL:  # pragma: no cover - values are set only here
            raise FairnessError("reveals_closed", "The values of this deal are closed.")
        values = list(record.values)
        values[at - 1] = value
        record.values = values
        _advance_phase(record)
        return True

    return change


def commit(match_id: int, number: int, seat, value_commitment, *, user_id=None, room_id=None) -> DealRecord:
    """F-1: seat ``seat`` (or the seat user ``user_id`` holds in the match of
    room ``room_id``) sends the SHA-256 of its secret value.

    Refused: a malformed fingerprint, a bot's seat, a seat already replaced,
    a second different fingerprint, anything after the fingerprints closed.
    The same fingerprint twice is accepted (a resent frame).
    """
    fairdeal.check_commitment(value_commitment)
    return _answer(match_id, number, _Seat(seat, user_id, room_id), _commit_change(value_commitment))


def reveal(match_id: int, number: int, seat, value, *, user_id=None, room_id=None) -> DealRecord:
    """F-2: seat ``seat`` (or user ``user_id``'s, as in ``commit``) sends its
    value, once every fingerprint is in.

    Refused: a malformed value, a reveal before all fingerprints are in, a
    value whose SHA-256 is not the seat's fingerprint, a replaced seat.
    """
    fairdeal.check_value(value)
    return _answer(match_id, number, _Seat(seat, user_id, room_id), _reveal_change(value))


def substitute_missing(match_id: int, number: int, *, now=None, force: bool = False) -> DealRecord:
    """F-4: after the wait, every seat that has not answered gets its substitute.

    In the fingerprint step a silent seat gets its substitute value at once
    (it can no longer send one); in the value step a seat that sent a
    fingerprint but no value gets it. The substitute was fixed by the
    server's committed secret, so replacing gives nobody a choice of deck.
    Does nothing before the deadline unless ``force``.
    """
    now = now or clock.now_dt()
    with transaction.atomic():
        record = _locked(match_id, number)
        if record.phase not in (DealRecord.Phase.COMMIT, DealRecord.Phase.REVEAL):
            return record
        if not force and record.deadline is not None and now < record.deadline:
            return record
        values = list(record.values)
        commitments = list(record.commitments)
        substituted = list(record.substituted)
        closing_commitments = record.phase == DealRecord.Phase.COMMIT
        for i in range(record.seats):
            seat = i + 1
            missing = commitments[i] is None if closing_commitments else values[i] is None
            if missing:
                values[i] = fairdeal.substitute(record.server_secret, record.table, record.number, seat)
                substituted.append(seat)
                metrics.substituted()
                if closing_commitments:
                    commitments[i] = None
        record.values, record.commitments, record.substituted = values, commitments, sorted(substituted)
        if closing_commitments:
            # Every silent seat is replaced; the others now send their values.
            record.phase = DealRecord.Phase.REVEAL
            record.deadline = _deadline(now)
        _advance_phase(record, now)
        record.save()
        _announce(record)
        return record


def due(record: DealRecord, now=None) -> bool:
    """Whether the wait of this record's current step is over."""
    waiting = record.phase in (DealRecord.Phase.COMMIT, DealRecord.Phase.REVEAL)
    return waiting and record.deadline is not None and (now or clock.now_dt()) >= record.deadline
