"""Two workers writing the same match's ledger at once: one set of entries, no crash."""

from __future__ import annotations

import threading

import pytest
from django.db import connections, transaction

from games.models import Match
from leaderboard import ledger
from leaderboard.models import LedgerEntry

from .conftest import build_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


def run_together(target, count=2):
    barrier = threading.Barrier(count)
    results, errors = [None] * count, []

    def worker(i):
        try:
            barrier.wait(timeout=10)
            results[i] = target()
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return results, errors


def ended_without_ledger(users) -> Match:
    """A finished match whose ledger was not written yet (a crash between end and ledger, say)."""
    match = build_match("hokm4", users)
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, result={"winner": 0, "score": [7, 5]}
    )
    return match


def test_l_1_two_workers_writing_one_match_at_once_leave_one_set_of_entries(alice, bob, charlie, dave):
    for _ in range(5):
        match = ended_without_ledger([alice, bob, charlie, dave])
        results, errors = run_together(lambda m=match: ledger.write_ledger(m.pk))
        assert errors == []
        assert sorted(len(r) for r in results) == [0, 4], "exactly one worker wrote the entries"
        assert LedgerEntry.objects.filter(match=match).count() == 4


def test_l_1_two_workers_without_the_exists_check_still_write_once(alice, bob, charlie, dave, monkeypatch):
    # The constraint is the backstop when the check is missed: the loser's insert fails quietly.
    monkeypatch.setattr(ledger, "_already_written", lambda match_id: False)
    match = ended_without_ledger([alice, bob, charlie, dave])
    results, errors = run_together(lambda: ledger.write_ledger(match.pk))
    assert errors == []
    assert sorted(len(r) for r in results) == [0, 4]
    assert LedgerEntry.objects.filter(match=match).count() == 4


def test_l_1_a_writer_waits_for_the_ending_transaction_then_writes_nothing(alice, bob, charlie, dave):
    match = ended_without_ledger([alice, bob, charlie, dave])
    inside, release, done = threading.Event(), threading.Event(), {}

    def first():
        try:
            with transaction.atomic():
                done["first"] = len(ledger.write_ledger(match.pk))
                inside.set()
                release.wait(10)  # still holding the row lock, not committed
        finally:
            connections.close_all()

    def second():
        try:
            inside.wait(10)
            done["second"] = len(ledger.write_ledger(match.pk))
        finally:
            connections.close_all()

    t1, t2 = threading.Thread(target=first), threading.Thread(target=second)
    t1.start()
    t2.start()
    inside.wait(10)
    t2.join(timeout=0.5)
    assert t2.is_alive(), "the second writer waits on the match row lock"
    release.set()
    t1.join(10)
    t2.join(10)
    assert done == {"first": 4, "second": 0}
    assert LedgerEntry.objects.filter(match=match).count() == 4
