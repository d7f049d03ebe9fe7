"""Issue 13: the plain path on the event loop (games/plain.py), over the loop's
own connections (infra/adb.py), with the match kept at its last version.

Held to the locked path as the thread's plain path is (tests/games/test_plain_path.py):
the same states, versions, move log, rounds and deadlines over whole rounds of
every game; exactly one of two racing moves applies (C-8); a match kept at a
version another process moved on from is never written over; anything that
is not a plain move is left to the locked path, untouched.
"""

from __future__ import annotations

import asyncio
import random

import orjson
import pytest
from asgiref.sync import sync_to_async

from games import engine, fairness, plain, transition
from games import services as play_service
from games.engine import CHANCE
from games.errors import PlayError
from games.models import DealRecord, Match, Round
from infra import adb
from rooms import broadcast
from tests.games.test_plain_path import GAMES, _dealt_state, _log, _match, _rounds

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _quiet(settings):
    settings.DEADLINES = "inprocess"  # nothing fires by itself: the tests drive the clock
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.TABLE = {**settings.TABLE, "MOVE_CONNECTIONS": 2}
    plain.forget()
    yield
    plain.forget()


def _row(match_id: int) -> Match:
    return Match.objects.get(pk=match_id)


async def _locked(match_id, action, user, version, seat=None):
    """The play service's locked path on a thread (what the socket does when the loop's path says None)."""

    def run():
        with broadcast.collecting():
            return play_service.play(match_id, action, user=user, seat=seat, version=version, plain=False)

    return await sync_to_async(run, thread_sensitive=False)()


@pytest.mark.parametrize("name", sorted(GAMES))
async def test_the_loops_path_and_the_locked_path_agree_over_a_whole_round(name, make_user):
    """The same round, once with the loop's path first and once locked only,
    gives the same match row, move log and rounds (C-7, C-8); every action but
    the round's last is a plain one."""
    n = GAMES[name]
    game = engine.get(name)
    sides = {}
    for loop_first in (True, False):
        users = await sync_to_async(
            lambda tag=int(loop_first): [make_user(f"{name}{tag}l{i}") for i in range(n)]
        )()
        match = await sync_to_async(_match)(users, name, _dealt_state(name, 11))
        rng = random.Random(11)
        took = []
        while True:
            match = await sync_to_async(_row)(match.pk)
            to_act = game.to_act(match.state) - {CHANCE}
            if match.status != Match.Status.ACTIVE or not to_act or game.round_over(match.state):
                break
            seat = min(to_act)
            action = rng.choice(game.legal_actions(match.state, seat))
            user = users[seat - 1]
            outcome = None
            if loop_first:
                outcome = await plain.move(
                    match.pk, action, user_id=user.pk, seat=None, version=match.version
                )
            took.append("loop" if outcome is not None else "locked")
            if outcome is None:
                outcome = await _locked(match.pk, action, user, match.version)
            assert outcome.version == match.version + 1
        match = await sync_to_async(_row)(match.pk)
        sides[loop_first] = {
            "state": match.state,
            "version": match.version,
            "deadlines": sorted(match.deadlines),
            "log": [(s, seat, a, actor, e) for s, seat, a, actor, _u, e in await sync_to_async(_log)(match)],
            "rounds": await sync_to_async(_rounds)(match),
            "records": await sync_to_async(_records)(match),
            "took": took,
        }
    on_loop, locked = sides[True], sides[False]
    assert on_loop["rounds"][0][2] is not None, "the round ended"
    assert [r[1] for r in on_loop["records"]] == [2], "F-1: the next round's record is open"
    for key in ("state", "version", "deadlines", "log", "rounds", "records"):
        assert on_loop[key] == locked[key], (name, key)
    assert set(on_loop["took"]) == {"loop"}, on_loop["took"]  # the round's last card too


def _records(match: Match) -> list:
    """The match's fair deal records, without what differs from one match to
    another (the table nonce, the secrets, the times)."""
    return [
        (r.match_id == match.pk, r.number, r.algorithm, r.seats, r.phase, r.commitments, r.values)
        + (r.bots, r.substituted, r.deck, r.draw, r.deadline is not None, len(r.server_commitment))
        for r in DealRecord.objects.filter(match=match).order_by("number")
    ]


async def test_a_plain_move_on_the_loop_is_written_whole_and_its_frames_built(make_user):
    users = await sync_to_async(lambda: [make_user(f"lwhole{i}") for i in range(4)])()
    match = await sync_to_async(_match)(users, "hokm4", _dealt_state("hokm4", 5))
    game = engine.get("hokm4")
    seat = min(game.to_act(match.state))
    action = game.legal_actions(match.state, seat)[0]
    outcome = await plain.move(match.pk, action, user_id=users[seat - 1].pk, seat=None, version=1)
    assert outcome is not None and outcome.version == 2
    row = await sync_to_async(_row)(match.pk)
    log = await sync_to_async(_log)(row)
    assert row.version == 2 and log[-1][:5] == (2, seat, action, "player", users[seat - 1].pk)
    assert list(row.deadlines) == [str(min(game.to_act(row.state)))] and row.next_deadline is not None
    with broadcast.collecting() as box:
        plain.announce(outcome)  # the signal's listeners build their messages without the database
    groups = sorted(group for group, _ in box)
    assert groups == sorted(
        [broadcast.public_group(row.room_id)] + [broadcast.player_group(row.room_id, u.pk) for u in users]
    )
    assert all(message["v"] == 2 for _, message in box)


async def test_what_is_not_a_plain_move_is_left_to_the_locked_path_untouched(make_user):
    """Stale or future versions, out of turn, a seat not his, an unknown card, a
    stranger: None, nothing written; the locked path then gives the refusal its code."""
    users = await sync_to_async(lambda: [make_user(f"lrefused{i}") for i in range(4)])()
    stranger = await sync_to_async(make_user)("lstranger")
    match = await sync_to_async(_match)(users, "hokm4", _dealt_state("hokm4", 6))
    game = engine.get("hokm4")
    seat = min(game.to_act(match.state))
    legal = game.legal_actions(match.state, seat)
    hand = match.state["hands"][seat - 1]
    other = users[seat % 4]
    cases = [
        (dict(action=legal[0], user=users[seat - 1], version=0), "stale_version"),
        (dict(action=legal[0], user=users[seat - 1], version=7), "stale_version"),
        (dict(action={"type": "play", "card": hand[0]}, user=other, version=1), "not_your_turn"),
        (dict(action=legal[0], user=users[seat - 1], seat=seat % 4 + 1, version=1), "not_your_seat"),
        (dict(action={"type": "play", "card": "ZZ"}, user=users[seat - 1], version=1), None),
        (dict(action=legal[0], user=stranger, version=1), "not_seated"),
    ]
    for kwargs, code in cases:
        got = await plain.move(
            match.pk,
            kwargs["action"],
            user_id=kwargs["user"].pk,
            seat=kwargs.get("seat"),
            version=kwargs["version"],
        )
        assert got is None, kwargs
        row = await sync_to_async(_row)(match.pk)
        assert (row.state, row.version) == (match.state, 1)
        with pytest.raises(PlayError) as exc:
            await _locked(match.pk, kwargs["action"], kwargs["user"], kwargs["version"], kwargs.get("seat"))
        if code is not None:
            assert exc.value.code == code, kwargs


async def test_the_same_move_sent_twice_at_once_applies_once_on_the_loop(make_user):
    """Two tabs of one player send the same card for the same version at once: one move (C-8)."""
    users = await sync_to_async(lambda: [make_user(f"ltwice{i}") for i in range(4)])()
    game = engine.get("hokm4")
    for attempt in range(10):
        match = await sync_to_async(_match)(users, "hokm4", _dealt_state("hokm4", 200 + attempt))
        seat = min(game.to_act(match.state))
        action = game.legal_actions(match.state, seat)[-1]
        if attempt % 2:
            plain.forget()  # both read the row, or (even attempts) both start from the kept match
        else:
            await plain.move(match.pk, {"type": "nothing"}, user_id=users[seat - 1].pk, seat=None, version=1)
        got = await asyncio.gather(
            *(
                plain.move(match.pk, action, user_id=users[seat - 1].pk, seat=None, version=1)
                for _ in range(2)
            )
        )
        assert sorted(o is None for o in got) == [False, True], (attempt, got)
        row = await sync_to_async(_row)(match.pk)
        assert row.version == 2 and len(await sync_to_async(_log)(row)) == 2


async def test_a_match_another_process_moved_on_is_never_written_over(make_user):
    """This process keeps the match at version 2; another process plays version 3
    (here: the locked path on its own connection). A move sent for version 2
    (the player had not seen 3 yet) finds the row gone on: nothing written, the
    kept match dropped; a move for version 3 then reads the row again."""
    users = await sync_to_async(lambda: [make_user(f"lmoved{i}") for i in range(2)])()
    match = await sync_to_async(_match)(users, "hokm2", _dealt_state("hokm2", 3))
    game = engine.get("hokm2")

    async def next_move(version):
        row = await sync_to_async(_row)(match.pk)
        seat = min(game.to_act(row.state) - {CHANCE})
        return users[seat - 1], game.legal_actions(row.state, seat)[0], row

    user, action, _ = await next_move(1)
    assert await plain.move(match.pk, action, user_id=user.pk, seat=None, version=1) is not None
    assert plain._matches.at(match.pk, 2) is not None
    user, action, before = await next_move(2)
    await _locked(match.pk, action, user, 2)  # elsewhere
    row = await sync_to_async(_row)(match.pk)
    assert row.version == 3
    # the same seat's other tab, still at version 2, sends what was legal then
    for seat_user in users:
        got = await plain.move(match.pk, action, user_id=seat_user.pk, seat=None, version=2)
        assert got is None
    assert plain._matches.at(match.pk, 2) is None
    after = await sync_to_async(_row)(match.pk)
    assert (after.version, after.state) == (3, row.state)
    user, action, _ = await next_move(3)
    outcome = await plain.move(match.pk, action, user_id=user.pk, seat=None, version=3)
    assert outcome is not None and outcome.version == 4
    assert before.version == 2


async def test_the_loops_read_gives_the_row_the_orm_gives(make_user):
    """``plain._read`` returns what ``Match.objects.get`` does: every field, JSON and dates."""
    users = await sync_to_async(lambda: [make_user(f"lread{i}") for i in range(4)])()
    match = await sync_to_async(_match)(users, "hokm4", _dealt_state("hokm4", 5))
    await sync_to_async(
        lambda: Match.objects.filter(pk=match.pk).update(
            deadlines={"2": 1.5e9}, tea={"phase": "asked", "by": 2}, leaver_seat=3, result={"a": [1]}
        )
    )()
    expected = await sync_to_async(_row)(match.pk)
    got = await plain._read(match.pk)
    assert type(got) is Match and got.pk == expected.pk and not got._state.adding
    for f in Match._meta.concrete_fields:
        assert getattr(got, f.attname) == getattr(expected, f.attname), f.name
    assert got.started_at.tzinfo is not None
    assert await plain._read(match.pk + 1000) is None


async def test_a_database_the_loop_cannot_reach_leaves_the_move_to_the_locked_path(make_user, monkeypatch):
    users = await sync_to_async(lambda: [make_user(f"ldown{i}") for i in range(4)])()
    match = await sync_to_async(_match)(users, "hokm4", _dealt_state("hokm4", 7))
    game = engine.get("hokm4")
    seat = min(game.to_act(match.state))
    action = game.legal_actions(match.state, seat)[0]

    async def down():
        raise OSError("connection refused")

    monkeypatch.setattr(adb, "pool", down)
    assert await plain.move(match.pk, action, user_id=users[seat - 1].pk, seat=None, version=1) is None
    outcome = await _locked(match.pk, action, users[seat - 1], 1)
    assert outcome.version == 2


async def test_f1_f3_c7_a_round_ended_on_the_loop_opens_the_next_deal_and_publishes_the_ended_one(make_user):
    """The last card of a fairly dealt round, on the loop: the round's row is
    closed, round 2's record opens (F-1: only the server's fingerprint and no
    value), the dealer waits out the result pause (C-7), and the table hears,
    in the locked path's order, round 2's fair state, the version's frames,
    then round 1's public record (F-3) for each player only, the same record
    the ORM's reader builds."""
    from tests.fairness.conftest import fair_round, make_match, value_for

    users = await sync_to_async(lambda: [make_user(f"lf3u{i}") for i in range(4)])()
    match = await sync_to_async(make_match)(users[0], "hokm4", dict(enumerate(users, 1)))
    await sync_to_async(fair_round)(match, 1, {s: value_for(f"lf3-{s}") for s in range(1, 5)}, False)
    game = engine.get("hokm4")
    took = []
    while True:
        match = await sync_to_async(_row)(match.pk)
        to_act = game.to_act(match.state) - {CHANCE}
        if not to_act or game.round_over(match.state):
            break
        seat = min(to_act)
        action = game.auto_action(match.state, seat)
        outcome = await plain.move(
            match.pk, action, user_id=users[seat - 1].pk, seat=None, version=match.version
        )
        assert outcome is not None, (match.version, action)
        took.append(outcome)
    last = took[-1]
    assert any(e["type"] == "round_won" for e in last.events)
    row = await sync_to_async(_row)(match.pk)
    assert row.version == last.version and list(row.deadlines) == [str(CHANCE)]
    assert row.deadlines[str(CHANCE)] == pytest.approx(
        play_service.clock.now() + float(play_service.settings.TABLE["ROUND_PAUSE"]), abs=2
    )
    rounds = await sync_to_async(_rounds)(row)
    assert [r[:3] for r in rounds] == [(1, rounds[0][1], row.version)]
    assert rounds[0][3] == transition.round_summary(last.events)
    record = await sync_to_async(DealRecord.objects.get)(match=row, number=2)
    assert record.phase == DealRecord.Phase.COMMIT and record.values == [None] * 4
    assert record.commitments == [None] * 4 and record.server_commitment and record.deadline is not None
    assert last.opened.pk == record.pk and last.opened.server_commitment == record.server_commitment

    with broadcast.collecting() as box:
        plain.announce(last)
    kinds = [(group, message["type"]) for group, message in box]
    table = broadcast.table_group(row.room_id)
    assert kinds[0] == (table, "fair.state")
    assert '"round":2' in box[0][1]["text"] and record.server_secret not in box[0][1]["text"]
    assert {k for k in kinds[1:6]} == {(broadcast.public_group(row.room_id), "table.public")} | {
        (broadcast.player_group(row.room_id, u.pk), "table.frame") for u in users
    }
    published = box[6:]
    assert [(g, m["type"]) for g, m in published] == [
        (broadcast.player_group(row.room_id, u.pk), "fair.record") for u in sorted(users, key=lambda u: u.pk)
    ]
    expected = await sync_to_async(
        lambda: fairness.public_record(Round.objects.select_related("match").get(match=row, number=1))
    )()
    assert expected is not None and orjson.loads(published[0][1]["text"])["record"] == expected
