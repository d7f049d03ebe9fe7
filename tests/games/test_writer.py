"""Issue 35: one writer of transitions, two implementations, one table of cases.

The event loop's (``LoopWriter``, its prepared statement over infra/adb.py)
and a thread's (``ThreadWriter``, the ORM's connection) persist the same
``Transition`` the same way: the match only at the version it replaces and
only while active (the compare-and-swap: C-8, one action per turn), the move
appended, and with a round's end the round closed and the next round's fair
deal record opened once (F-1). A transition that finds the row moved on
writes nothing at all.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from games import engine, transition, writer
from games.engine import CHANCE
from games.models import DealRecord, Match
from tests.games.test_plain_path import _dealt_state, _match

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _quiet(settings):
    settings.DEADLINES = "inprocess"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.TABLE = {**settings.TABLE, "MOVE_CONNECTIONS": 2}


def _last_of_round(match: Match, users):
    """``match`` played in memory (each step a transition) up to the round's last action: (match, action, user_id)."""
    game = engine.get(match.game)
    while True:
        seat = min(game.to_act(match.state) - {CHANCE})
        action = game.legal_actions(match.state, seat)[0]
        state, _ = game.apply(match.state, seat, action)
        if game.round_over(state):
            return match, action, users[seat - 1].pk
        match = transition.decide(match, action, user_id=users[seat - 1].pk).match


def _first(match: Match, users):
    game = engine.get(match.game)
    seat = min(game.to_act(match.state) - {CHANCE})
    return match, game.legal_actions(match.state, seat)[0], users[seat - 1].pk


def _case(name: str, match: Match, users):
    """(the transition to write, what is expected: (written, round closed, record opened))."""
    if name == "plain":
        m, action, uid = _first(match, users)
        return transition.decide(m, action, user_id=uid), (True, None, False)
    if name == "moved_on":
        m, action, uid = _first(match, users)
        Match.objects.filter(pk=match.pk).update(version=2)
        return transition.decide(m, action, user_id=uid), (False, None, False)
    if name == "not_active":
        m, action, uid = _first(match, users)
        Match.objects.filter(pk=match.pk).update(status=Match.Status.ABANDONED)
        return transition.decide(m, action, user_id=uid), (False, None, False)
    m, action, uid = _last_of_round(match, users)
    Match.objects.filter(pk=match.pk).update(version=m.version, state=m.state)
    t = transition.decide(m, action, user_id=uid)
    if name == "round_end":
        return t, (True, (1, 1), True)
    assert name == "round_end_record_exists"
    DealRecord.objects.create(
        match=match, number=2, algorithm="x", table="t", seats=2, server_secret="s", server_commitment="c"
    )
    return t, (True, (1, 1), False)


CASES = ["plain", "moved_on", "not_active", "round_end", "round_end_record_exists"]


@pytest.mark.parametrize("implementation", ["thread", "loop"])
@pytest.mark.parametrize("case", CASES)
def test_one_table_of_transitions_written_alike_by_both_writers(case, implementation, make_user):
    users = [make_user(f"w{case[:6]}{implementation}{i}") for i in range(2)]
    match = _match(users, "hokm2", _dealt_state("hokm2", 4))
    t, (written, closed, opened) = _case(case, match, users)
    before = Match.objects.get(pk=match.pk)
    moves_before = match.moves.count()
    if implementation == "thread":
        got = writer.thread_writer.write(t)
    else:
        got = async_to_sync(writer.loop_writer.write)(t)
    after = Match.objects.get(pk=match.pk)
    if not written:
        assert got is None
        assert (after.version, after.state, after.status) == (before.version, before.state, before.status)
        assert match.moves.count() == moves_before
        assert not match.rounds.filter(last_seq__isnull=False).exists()
        return
    assert got is not None and got.closed == closed
    assert (after.version, after.state, after.deadlines) == (t.version, t.match.state, t.match.deadlines)
    move = match.moves.get(seq=t.version)
    assert (move.seat, move.action, move.actor, move.user_id, move.events) == (
        t.seat,
        t.action,
        "player",
        t.user_id,
        t.events,
    )
    round_ = match.rounds.get(number=1)
    if closed is None:
        assert round_.last_seq is None
        assert not DealRecord.objects.filter(match=match).exists()
        return
    assert (round_.last_seq, round_.result) == (t.version, transition.round_summary(t.events))
    record = DealRecord.objects.get(match=match, number=2)
    if opened:
        assert got.opened is not None and got.opened.pk == record.pk and got.opened.number == 2
        assert (record.server_commitment, record.seats, record.bots) == (
            t.record.server_commitment,
            2,
            [],
        )
    else:
        assert got.opened is None and record.algorithm == "x"
