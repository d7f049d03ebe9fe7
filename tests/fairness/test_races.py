"""The seats' answers are written by compare and swap, not under a row lock
(issue 13): raced for real, with threads on their own PostgreSQL connections
released together, they all count once (F-1, F-2), and an answer racing the
clock's substitution (F-4) never both wins and is replaced.
"""

from __future__ import annotations

import pytest

from games import fairdeal, fairness
from games.fairdeal import FairnessError
from games.models import DealRecord
from tests.games.test_races import _race as race

from .conftest import make_match, value_for

pytestmark = pytest.mark.django_db(transaction=True)
TRIES = 25


def _together(*calls):
    return race(*calls, refusals=(FairnessError,))


def _four_people(make_user):
    users = [make_user(f"fair{i}") for i in range(4)]
    return users, make_match(users[0], humans=dict(enumerate(users, start=1)))


def test_f1_f2_four_fingerprints_then_four_values_sent_at_once_all_count(make_user, settings):
    settings.FAIR_WAIT_SECONDS = 60
    users, match = _four_people(make_user)
    for number in range(1, TRIES + 1):
        fairness.open_round(match, number)
        values = [value_for(f"{u.username}:{number}") for u in users]
        results = _together(
            *(
                lambda s=seat, v=v, n=number: fairness.commit(match.pk, n, s, fairdeal.commitment(v))
                for seat, v in enumerate(values, start=1)
            )
        )
        assert all(r[0] == "ok" for r in results), results
        record = DealRecord.objects.get(match=match, number=number)
        assert record.phase == DealRecord.Phase.REVEAL
        assert record.commitments == [fairdeal.commitment(v) for v in values]
        # The seat's identity may also come from the match (the table's socket).
        results = _together(
            *(
                lambda u=u, v=v, n=number: fairness.reveal(
                    match.pk, n, None, v, user_id=u.pk, room_id=match.room_id
                )
                for u, v in zip(users, values, strict=True)
            )
        )
        assert all(r[0] == "ok" for r in results), results
        record.refresh_from_db()
        assert record.phase == DealRecord.Phase.READY and record.values == values
        assert record.substituted == []


def test_f4_a_value_racing_the_clocks_substitution_is_taken_or_replaced_never_both(make_user, settings):
    settings.FAIR_WAIT_SECONDS = 60
    users, match = _four_people(make_user)
    outcomes = {"taken": 0, "replaced": 0}
    for number in range(1, TRIES + 1):
        fairness.open_round(match, number)
        values = [value_for(f"{u.username}:{number}") for u in users]
        for seat, v in enumerate(values, start=1):
            fairness.commit(match.pk, number, seat, fairdeal.commitment(v))
        for seat in (1, 2, 3):
            fairness.reveal(match.pk, number, seat, values[seat - 1])
        results = _together(
            lambda n=number, v=values[3]: fairness.reveal(match.pk, n, 4, v),
            lambda n=number: fairness.substitute_missing(match.pk, n, force=True),
        )
        assert results[1][0] == "ok", results
        record = DealRecord.objects.get(match=match, number=number)
        assert record.phase == DealRecord.Phase.READY
        if results[0][0] == "ok":
            assert record.values[3] == values[3] and record.substituted == []
            outcomes["taken"] += 1
        else:
            assert results[0] == ("refused", "substituted"), results
            assert record.substituted == [4]
            assert record.values[3] == fairdeal.substitute(record.server_secret, record.table, number, 4)
            outcomes["replaced"] += 1
    assert sum(outcomes.values()) == TRIES


def test_f1_a_user_without_a_seat_or_a_match_over_is_refused(make_user, alice):
    users, match = _four_people(make_user)
    fairness.open_round(match, 1)
    c = fairdeal.commitment(value_for("x"))
    with pytest.raises(FairnessError) as caught:
        fairness.commit(match.pk, 1, None, c, user_id=alice.pk, room_id=match.room_id)
    assert caught.value.code == "not_seated"
    with pytest.raises(FairnessError) as caught:
        fairness.commit(match.pk, 1, None, c, user_id=users[0].pk, room_id=match.room_id + 1)
    assert caught.value.code == "no_match"  # another room's match: never by a forged room
    type(match).objects.filter(pk=match.pk).update(status="finished")
    with pytest.raises(FairnessError) as caught:
        fairness.commit(match.pk, 1, None, c, user_id=users[0].pk, room_id=match.room_id)
    assert caught.value.code == "no_match"
    assert DealRecord.objects.get(match=match, number=1).commitments[0] is None


def test_f1_f2_answers_on_the_event_loop_at_once_all_count_and_refusals_keep_their_codes(make_user, settings):
    """The socket's path (fairness.answer_on_loop, issue 13): four fingerprints,
    then four values, sent at once on the loop's own connections: each counts
    once; a second fingerprint
    of a seat, a value before the fingerprints are in, a wrong value, a user
    without a seat are refused with the thread path's codes."""
    import asyncio

    from asgiref.sync import async_to_sync

    settings.FAIR_WAIT_SECONDS = 60
    settings.TABLE = {**settings.TABLE, "MOVE_CONNECTIONS": 2}
    users, match = _four_people(make_user)
    outsider = make_user("outsider")

    async def answer(kind, user, number, text):
        try:
            record, changed, leads = await fairness.answer_on_loop(
                kind, match.pk, number, text, user_id=user.pk, room_id=match.room_id, announce=announce
            )
            leaders.append(leads and changed)
            return "ok", changed
        except FairnessError as exc:
            return "refused", exc.code

    leaders = []
    told = []

    async def announce(record):
        told.append((record.phase, list(record.commitments), list(record.values)))

    async def round_(number, values):
        fingerprints = [fairdeal.commitment(v) for v in values]
        early = await answer("reveal", users[0], number, values[0])
        leaders.clear()
        got = await asyncio.gather(
            *(answer("commit", u, number, f) for u, f in zip(users, fingerprints, strict=True))
        )
        assert leaders == [False, False, False, True]  # one batch: its last answer announces
        again = await answer("commit", users[1], number, fairdeal.commitment(value_for("other")))
        resent = await answer("commit", users[2], number, fingerprints[2])
        wrong = await answer("reveal", users[3], number, value_for("not mine"))
        stranger = await answer("commit", outsider, number, fingerprints[0])
        shown = await asyncio.gather(
            *(answer("reveal", u, number, v) for u, v in zip(users, values, strict=True))
        )
        return early, got, again, resent, wrong, stranger, shown

    for number in range(1, 6):
        told.clear()
        fairness.open_round(match, number)
        values = [value_for(f"{u.username}:{number}:loop") for u in users]
        early, got, again, resent, wrong, stranger, shown = async_to_sync(round_)(number, values)
        assert early == ("refused", "reveal_too_early")
        assert got == [("ok", True)] * 4
        assert again == ("refused", "commitments_closed")
        assert resent == ("ok", False)  # a resent frame: nothing to write
        assert wrong == ("refused", "value_mismatch")
        assert stranger == ("refused", "not_seated")
        assert shown == [("ok", True)] * 4
        fingerprints = [fairdeal.commitment(v) for v in values]
        assert told == [  # once a batch, in order: the four fingerprints, then the four values
            (DealRecord.Phase.REVEAL, fingerprints, [None] * 4),
            (DealRecord.Phase.READY, fingerprints, values),
        ]
        record = DealRecord.objects.get(match=match, number=number)
        assert record.phase == DealRecord.Phase.READY and record.values == values
        assert record.commitments == [fairdeal.commitment(v) for v in values]


def test_f1_a_tables_four_fingerprints_at_once_are_written_together_on_the_loop(
    make_user, settings, monkeypatch
):
    """Issue 13: the four fingerprints of a table come at once; on one loop they
    are written together: one read, one compare and swap, one announcement
    (raced, three of four went again; taking turns, four writes)."""
    from asgiref.sync import async_to_sync

    from infra import adb

    settings.FAIR_WAIT_SECONDS = 60
    settings.TABLE = {**settings.TABLE, "MOVE_CONNECTIONS": 4}
    users, match = _four_people(make_user)
    fairness.open_round(match, 1)
    writes = []
    real = adb.run

    async def counted(statement, params):
        rows = await real(statement, params)
        writes.append(rows)
        return rows

    monkeypatch.setattr(adb, "run", counted)

    async def answer_all():
        import asyncio

        return await asyncio.gather(
            *(
                fairness.answer_on_loop(
                    "commit",
                    match.pk,
                    1,
                    fairdeal.commitment(value_for(f"{u.username}:turns")),
                    user_id=u.pk,
                    room_id=match.room_id,
                )
                for u in users
            )
        )

    got = async_to_sync(answer_all)()
    assert [changed for _, changed, _ in got] == [True] * 4
    assert [leads for _, _, leads in got] == [False, False, False, True]
    assert writes == [1]
    assert not fairness._answering  # nothing left behind
    assert DealRecord.objects.get(match=match, number=1).phase == DealRecord.Phase.REVEAL


def _loop_answer(match, kind, user, number, text):
    return fairness.answer_on_loop(kind, match.pk, number, text, user_id=user.pk, room_id=match.room_id)


def test_f1_f2_a_batch_on_the_loop_applies_its_answers_in_order_and_refuses_each_alone(
    make_user, settings, monkeypatch
):
    """Issue 13: answers written together behave exactly as if they came one by
    one (F-1, F-2): a value sent after the table's four fingerprints counts in
    the same write; a second different fingerprint, a stranger's fingerprint
    and a value before the fingerprints closed are refused with their own
    codes and change nothing of the others'."""
    import asyncio

    from asgiref.sync import async_to_sync

    from infra import adb

    settings.FAIR_WAIT_SECONDS = 60
    settings.TABLE = {**settings.TABLE, "MOVE_CONNECTIONS": 2}
    users, match = _four_people(make_user)
    outsider = make_user("outsider")
    fairness.open_round(match, 1)
    values = [value_for(f"{u.username}:batch") for u in users]
    writes = []
    real = adb.run

    async def counted(statement, params):
        rows = await real(statement, params)
        writes.append(rows)
        return rows

    monkeypatch.setattr(adb, "run", counted)

    async def settle(call):
        try:
            _, changed, leads = await call
            return "ok", changed, leads
        except FairnessError as exc:
            return "refused", exc.code

    async def batch():
        calls = [
            _loop_answer(match, "reveal", users[1], 1, values[1]),  # before the fingerprints closed
            *(
                _loop_answer(match, "commit", u, 1, fairdeal.commitment(v))
                for u, v in zip(users, values, strict=True)
            ),
            _loop_answer(match, "commit", users[2], 1, fairdeal.commitment(value_for("second"))),
            _loop_answer(match, "commit", outsider, 1, fairdeal.commitment(values[0])),
            _loop_answer(match, "reveal", users[0], 1, values[0]),
            _loop_answer(match, "reveal", users[3], 1, value_for("not mine")),
        ]
        return await asyncio.gather(*(settle(c) for c in calls))

    got = async_to_sync(batch)()
    assert got == [
        ("refused", "reveal_too_early"),
        ("ok", True, False),
        ("ok", True, False),
        ("ok", True, False),
        ("ok", True, False),
        ("refused", "commitments_closed"),
        ("refused", "not_seated"),
        ("ok", True, True),  # the batch's last written answer announces it
        ("refused", "value_mismatch"),
    ]
    assert writes == [1]
    record = DealRecord.objects.get(match=match, number=1)
    assert record.phase == DealRecord.Phase.REVEAL
    assert record.commitments == [fairdeal.commitment(v) for v in values]
    assert record.values == [values[0], None, None, None]
    assert not fairness._answering


def test_f1_f4_a_batch_on_the_loop_that_meets_another_write_is_read_and_applied_again(
    make_user, settings, monkeypatch
):
    """Issue 13: the batch's compare and swap finds the row changed (another
    process's answer came between its read and its write): nothing of it is
    written over the other; it is read again and applied again, and every
    answer counts once (F-1)."""
    import asyncio

    from asgiref.sync import async_to_sync, sync_to_async

    from infra import adb

    settings.FAIR_WAIT_SECONDS = 60
    settings.TABLE = {**settings.TABLE, "MOVE_CONNECTIONS": 2}
    users, match = _four_people(make_user)
    fairness.open_round(match, 1)
    values = [value_for(f"{u.username}:again") for u in users]
    writes = []
    real = adb.run

    async def meddling(statement, params):
        if not writes:  # another process's answer, between the batch's read and its write
            await sync_to_async(fairness.commit)(match.pk, 1, 4, fairdeal.commitment(values[3]))
        rows = await real(statement, params)
        writes.append(rows)
        return rows

    monkeypatch.setattr(adb, "run", meddling)

    async def batch():
        return await asyncio.gather(
            *(
                _loop_answer(match, "commit", u, 1, fairdeal.commitment(v))
                for u, v in zip(users[:3], values[:3], strict=True)
            )
        )

    got = async_to_sync(batch)()
    assert writes == [0, 1]
    assert [changed for _, changed, _ in got] == [True, True, True]
    assert [leads for _, _, leads in got] == [False, False, True]
    record = DealRecord.objects.get(match=match, number=1)
    assert record.commitments == [fairdeal.commitment(v) for v in values]
    assert record.phase == DealRecord.Phase.REVEAL


def test_f1_a_socket_closing_while_its_answer_is_written_loses_nobody_elses(make_user, settings, monkeypatch):
    """Issue 13: the answers of a table are written together by a writer that is
    no socket's: the first socket to answer closes mid-write (its task
    cancelled); the others' answers and its own are written, the table is
    told once, and the match's queue is gone."""
    import asyncio

    from asgiref.sync import async_to_sync

    from infra import adb

    settings.FAIR_WAIT_SECONDS = 60
    settings.TABLE = {**settings.TABLE, "MOVE_CONNECTIONS": 2}
    users, match = _four_people(make_user)
    fairness.open_round(match, 1)
    held = asyncio.Event()
    real = adb.run
    told = []

    async def slow(statement, params):
        held.set()
        await asyncio.sleep(0.3)
        return await real(statement, params)

    async def announce(record):
        told.append((record.phase, sum(c is not None for c in record.commitments)))

    monkeypatch.setattr(adb, "run", slow)
    fingerprints = [fairdeal.commitment(value_for(u.username)) for u in users]

    async def run():
        tasks = [
            asyncio.ensure_future(
                fairness.answer_on_loop(
                    "commit", match.pk, 1, f, user_id=u.pk, room_id=match.room_id, announce=announce
                )
            )
            for u, f in zip(users, fingerprints, strict=True)
        ]
        await asyncio.wait_for(held.wait(), 10)
        tasks[0].cancel()
        done = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 10)
        return [d if isinstance(d, BaseException) else d[1:] for d in done]

    got = async_to_sync(run)()
    assert isinstance(got[0], asyncio.CancelledError)
    assert got[1:] == [(True, False), (True, False), (True, True)]
    assert told == [(DealRecord.Phase.REVEAL, 4)]
    assert not fairness._answering and not fairness._writers
    assert DealRecord.objects.get(match=match, number=1).commitments == fingerprints
