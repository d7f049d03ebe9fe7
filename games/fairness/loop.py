"""A seat's answer on the table socket's event loop, batched per match (issue 13): the same compare and swap as ``records``."""

from __future__ import annotations

import asyncio
import logging

from infra import adb

from .. import fairdeal
from ..fairdeal import FairnessError
from .records import _SWAP_ON_LOOP, SWAP_TRIES, _commit_change, _prepare, _reveal_change, _Seat, _swap_params
from .view import _RECORD_READ

log = logging.getLogger(__name__)


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
