"""The deal nobody controls, on the server (F-1..F-6, docs/fairness.md).

The play service and the table's socket call these; the algorithm itself is
``games.fairdeal`` (pure). One ``DealRecord`` per round:

    open_round(match, number)        server secret made, its SHA-256 public; bots' values made
    commit(match_id, number, seat, c) a seat's fingerprint; the last one opens the reveal
    reveal(match_id, number, seat, v) a seat's value, checked against its fingerprint
    substitute_missing(...)           after the wait: every seat still silent gets its substitute
    chance_action(match, number, kind, cards)   the deck, once every value is in
    public_record(round)              everything a browser needs to re-check, after the round only

A seat's answer is written back only if the record is still what it read
(compare and swap, one statement); the clock's substitution and the deal
lock the record row (``select_for_update``). Either way a reveal and the
clock's substitution for the same seat cannot both win.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from infra import adb
from infra.rows import RowReader
from ops import metrics

from . import clock, engine, fairdeal, signals
from .engine.cards import CARD_INDEX, DECK52
from .fairdeal import ALGORITHM, FairnessError
from .frames import dumps
from .models import DealRecord, Match, Move, Round

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


def open_round(match: Match, number: int, *, now=None) -> DealRecord:
    """The record of round ``number``, made if new (idempotent)."""
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


_RECORD_READ = RowReader(
    DealRecord,
    '"games_dealrecord"."match_id" = %s AND "games_dealrecord"."number" = %s',
    joins='JOIN "games_match" ON "games_match"."id" = "games_dealrecord"."match_id"',
    extra={
        "match_players": (Match._meta.get_field("players"), '"games_match"."players"'),
        "match_status": (Match._meta.get_field("status"), '"games_match"."status"'),
        "match_room_id": (Match._meta.get_field("room"), '"games_match"."room_id"'),
    },
)


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


class Answer(tuple):
    """What ``answer_on_loop`` gives each caller: ``(record, changed, leads)``.

    ``record`` is the record as written (or as read, when nothing changed);
    ``changed``: this answer was written; ``leads``: this caller deals when
    the record is ready, for every answer written with its own (one deal for
    a batch, below)."""

    __slots__ = ()

    def __new__(cls, record, changed: bool, leads: bool):
        return super().__new__(cls, (record, changed, leads))

    record = property(lambda self: self[0])
    changed = property(lambda self: self[1])
    leads = property(lambda self: self[2])


class _Waiting:
    __slots__ = ("number", "who", "change", "announce", "future")

    def __init__(self, number, who, change, announce, future):
        self.number, self.who, self.change, self.announce, self.future = number, who, change, announce, future


_answering: dict[int, list[_Waiting]] = {}
"""Match id -> the answers of that match waiting for its writer on this loop."""

_writers: set[asyncio.Task] = set()
"""The running writers (a task is kept only weakly by the loop)."""

_BUSY = ("busy", "The deal is being changed by others; send it again.")


async def answer_on_loop(
    kind: str, match_id: int, number: int, text: str, *, user_id, room_id, announce=None
) -> Answer:
    """``commit`` (``kind`` "commit") or ``reveal`` ("reveal") of the seat user
    ``user_id`` holds, on the event loop's own connections (infra/adb.py, the
    socket's path: no thread hop). Returns an ``Answer``; the caller whose
    answer ``leads`` deals when the record is ready. ``await announce(record)``
    follows each write (the table's broadcast, given by the caller; games
    knows no socket). Raises FairnessError as they do.

    A table's four fingerprints come at once (each page answers as soon as
    the round opens), then its four values; when many tables end a round in
    the same second, hundreds of answers come together (issue 13: measured
    at 1,000 tables, a round's eight answers were complete up to 3 s after
    its end when each took its own read, write and broadcast). So the answers
    of one match on this loop are written together by one writer task: it
    reads the record once, applies every answer waiting in the order they
    came (each refused alone with the thread path's code, exactly as if they
    had come one by one), writes the result in one compare and swap and
    announces it once, in order; answers arriving meanwhile wait for its next
    batch. The writer is no socket's: a socket closing mid-write loses
    neither the others' answers nor the announcement. Another process's
    answer or the clock's substitution still meets the compare and swap:
    then the batch is read and applied again."""
    if kind == "commit":
        fairdeal.check_commitment(text)
        change = _commit_change(text)
    else:
        fairdeal.check_value(text)
        change = _reveal_change(text)
    loop = asyncio.get_running_loop()
    waiting = _Waiting(number, _Seat(None, user_id, room_id), change, announce, loop.create_future())
    queue = _answering.get(match_id)
    if queue is None:
        queue = _answering[match_id] = []
        writer = loop.create_task(_write_all(match_id, queue))
        _writers.add(writer)
        writer.add_done_callback(_writers.discard)
    queue.append(waiting)  # the writer starts on the loop's next turn: answers read meanwhile join it
    return await waiting.future


async def _write_all(match_id: int, queue: list[_Waiting]) -> None:
    batch: list[_Waiting] = []
    try:
        while queue:
            batch = queue[:]
            del queue[:]
            await _write_batch(match_id, batch)
    finally:
        _answering.pop(match_id, None)
        for left in batch + queue:  # only when the writer itself was cancelled (the loop closing)
            if not left.future.done():
                left.future.set_exception(FairnessError(*_BUSY))


async def _write_batch(match_id: int, batch: list[_Waiting]) -> None:
    """Every answer of ``batch`` settled: a result or its refusal."""
    numbers = {}
    for waiting in batch:
        numbers.setdefault(waiting.number, []).append(waiting)
    for number, answers in numbers.items():
        try:
            results = await _apply_on_loop(match_id, number, answers)
        except Exception as exc:  # noqa: BLE001 - each caller gets it (a database error: its own fallback)
            for waiting in answers:
                if not waiting.future.done():
                    waiting.future.set_exception(exc)
            continue
        written = [r for r in results if isinstance(r, Answer) and r.changed]
        announce = next((w.announce for w in answers if w.announce is not None), None)
        if written and announce is not None:
            try:
                await announce(written[-1].record)  # before the callers go on: the deal's frames follow it
            except Exception:  # noqa: BLE001 - the answers are written; the next state frame tells
                log.exception("announcing a fair deal's answers failed")
        for waiting, result in zip(answers, results, strict=True):
            if waiting.future.done():  # its caller went away (the socket closed)
                continue
            if isinstance(result, FairnessError):
                waiting.future.set_exception(result)
            else:
                waiting.future.set_result(result)


async def _apply_on_loop(match_id: int, number: int, answers: list[_Waiting]) -> list:
    for _ in range(SWAP_TRIES):
        record = await _RECORD_READ.aone([match_id, number])
        if record is None:
            raise FairnessError("no_deal_record", "This round has no deal waiting.")
        before = None
        outcomes = []
        for waiting in answers:
            try:
                prior = _prepare(record, waiting.who, waiting.change)
            except FairnessError as exc:
                outcomes.append(exc)
                continue
            outcomes.append(prior is not None)
            if prior is not None and before is None:
                before = prior
        if before is None:  # nothing to write: each answer stands alone, as before
            return [o if isinstance(o, FairnessError) else Answer(record, False, True) for o in outcomes]
        if await adb.run(_SWAP_ON_LOOP, _swap_params(record, before)) == 1:
            last = max(i for i, o in enumerate(outcomes) if o is True)
            return [
                o if isinstance(o, FairnessError) else Answer(record, o, i == last or not o)
                for i, o in enumerate(outcomes)
            ]
    raise FairnessError(*_BUSY)


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


# --- the deck ----------------------------------------------------------------------------


def chance_action(match: Match, number: int, kind: str, cards) -> dict:
    """The chance action ``{"type": kind, "deck": deck}`` of round ``number``.

    ``kind`` and ``cards`` are the engine's ``pending_chance(state)``. Raises
    NotReady while values are missing. The ace draw (``draw``) and the deal
    (``deal``) come from separate streams of the same values (F-6).
    Idempotent: the same round and kind always give the same deck. The
    record is made at the match's start or the previous round's end; if it
    is missing, it is made now (``open_round``).
    """
    with transaction.atomic():
        try:
            record = _locked(match.pk, number)
        except FairnessError:
            open_round(match, number)
            record = _locked(match.pk, number)
        if record.phase not in (DealRecord.Phase.READY, DealRecord.Phase.DEALT):
            raise NotReady(record)
        deck = fairdeal.order(
            sorted(cards, key=CARD_INDEX.__getitem__),  # the canonical order (docs/fairness.md)
            record.server_secret,
            record.values,
            purpose=kind,
            table=record.table,
            round_number=record.number,
        )
        if kind == "draw":
            record.draw = deck
        else:
            record.deck = deck
            record.phase = DealRecord.Phase.DEALT
        record.save(update_fields=["draw", "deck", "phase", "updated_at"])
    return {"type": kind, "deck": deck}


# --- what browsers may see --------------------------------------------------------------


def public_state(record: DealRecord) -> dict:
    """What every browser at the table may see while the deal is being made:
    fingerprints and who has answered, never a value nor the server's secret."""
    return {
        "algorithm": record.algorithm,
        "match": record.match_id,
        "round": record.number,
        "table": record.table,
        "phase": record.phase,
        "server_commitment": record.server_commitment,
        "commitments": list(record.commitments),
        "revealed": [v is not None and (i + 1) not in record.substituted for i, v in enumerate(record.values)]
        if record.phase != DealRecord.Phase.COMMIT
        else [False] * record.seats,
        "bots": list(record.bots),
        "substituted": list(record.substituted),
        "deadline": record.deadline.timestamp() if record.deadline else None,
    }


def round_ended(round_: Round) -> bool:
    return round_.ended_at is not None or round_.match.status != Match.Status.ACTIVE


def _round_events(round_: Round):
    """The events of the round's moves, in order (only the events: the deal's
    move carries the whole deck in its action)."""
    moves = Move.objects.filter(match_id=round_.match_id, seq__gte=round_.first_seq)
    if round_.last_seq is not None:
        moves = moves.filter(seq__lte=round_.last_seq)
    return moves.order_by("seq").values_list("events", flat=True)


def value_seat(round_: Round, seat: int) -> int:
    """The seat whose value the player now at ``seat`` sent for this round.

    H4-X6: the partners' draw may move players after the values were in (the
    draw is dealt from them); the record keeps its values by the seats of
    that moment. Undo, newest first, every seat swap logged after the
    record was opened and up to the round's end."""
    record = DealRecord.objects.filter(match_id=round_.match_id, number=round_.number).first()
    if record is None:
        return seat
    moves = Move.objects.filter(match_id=round_.match_id, created_at__gte=record.created_at)
    if round_.last_seq is not None:
        moves = moves.filter(seq__lte=round_.last_seq)
    for events in moves.order_by("-seq").values_list("events", flat=True):
        for event in reversed(events or []):
            if event.get("type") == "swap_seats" and seat in (event["a"], event["b"]):
                seat = event["b"] if seat == event["a"] else event["a"]
    return seat


def public_record(round_: Round) -> dict | None:
    """Everything a browser needs to re-check the round (F-3), or None.

    None until the round has ended (or the match stopped): before that the
    server's secret and the values are private.
    """
    if not round_ended(round_):
        return None
    record = DealRecord.objects.filter(match_id=round_.match_id, number=round_.number).first()
    return public_record_of(record, round_.match, _round_events(round_))


_ROUND_EVENTS_READ = (
    "SELECT events FROM games_move WHERE match_id = %s AND seq >= %s AND seq <= %s ORDER BY seq"
)


async def public_record_on_loop(match: Match, number: int, first_seq: int, last_seq: int) -> dict | None:
    """``public_record`` of round ``number`` of ``match`` (moves ``first_seq``
    to ``last_seq``), which has just ended, read on the event loop's own
    connections (infra/adb.py): the loop's round end (games/plain.py)."""
    record = await _RECORD_READ.aone([match.pk, number])
    if record is None or record.phase != DealRecord.Phase.DEALT:
        return None
    rows = await adb.fetchall(_ROUND_EVENTS_READ, [match.pk, first_seq, last_seq])
    return public_record_of(record, match, (events for (events,) in rows))


def public_record_of(record: DealRecord | None, match: Match, round_events) -> dict | None:
    """The public record (F-3) of an ended round's dealt ``record``, with
    the events of the round's moves in order; None if it was not dealt."""
    if record is None or record.phase != DealRecord.Phase.DEALT:
        return None
    game = engine.get(match.game)
    layout: dict = {}
    played: list[dict] = []
    for events in round_events:
        for event in events:
            kind = event.get("type")
            if kind == "dealt":
                layout = {k: event[k] for k in ("hakem", "first_bidder", "dealer") if k in event}
            elif kind == "auction_won":
                layout["bidder"] = event["seat"]
            elif kind == "card_played":
                played.append({"seat": event["seat"], "card": event["card"]})
    return {
        "algorithm": record.algorithm,
        "game": match.game,
        "match": match.pk,
        "round": record.number,
        "table": record.table,
        "seats": record.seats,
        "server_secret": record.server_secret,
        "server_commitment": record.server_commitment,
        "values": [
            {
                "seat": seat,
                "value": record.values[seat - 1],
                "commitment": record.commitments[seat - 1],
                "bot": seat in record.bots,
                "substituted": seat in record.substituted,
            }
            for seat in range(1, game.players + 1)
        ],
        "cards": sorted(record.deck, key=CARD_INDEX.__getitem__),
        "deck": record.deck,
        "draw_cards": list(DECK52) if record.draw is not None else None,
        "draw": record.draw,
        "ace_partners": bool(match.rules.get("ace_partners")),
        "layout": layout,
        "played": played,
    }


__all__ = [
    "FairnessError",
    "NotReady",
    "chance_action",
    "commit",
    "due",
    "new_record",
    "open_round",
    "public_record",
    "public_record_of",
    "public_record_on_loop",
    "public_state",
    "reveal",
    "round_ended",
    "substitute_missing",
    "wait_seconds",
]
