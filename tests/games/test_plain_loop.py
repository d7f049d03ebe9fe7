"""Issue 13: the plain path on the event loop (games/plain.py), over the loop's
own connections (games/adb.py), with the match kept at its last version.

Held to the locked path as the thread's plain path is (tests/games/test_plain_path.py):
the same states, versions, move log, rounds and deadlines over whole rounds of
every game; exactly one of two racing moves applies (C-8); a match kept at a
version another process moved on from is never written over; anything that
is not a plain move is left to the locked path, untouched.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from asgiref.sync import sync_to_async

from games import adb, engine, plain
from games import services as play_service
from games.engine import CHANCE
from games.errors import PlayError
from games.models import Match
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
                outcome = await plain.play(
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
            "rounds": [r[:3] for r in await sync_to_async(_rounds)(match)],
            "took": took,
        }
    on_loop, locked = sides[True], sides[False]
    assert on_loop["rounds"][0][2] is not None, "the round ended"
    for key in ("state", "version", "deadlines", "log", "rounds"):
        assert on_loop[key] == locked[key], (name, key)
    assert set(on_loop["took"][:-1]) == {"loop"} and on_loop["took"][-1] == "locked", on_loop["took"]


async def test_a_plain_move_on_the_loop_is_written_whole_and_its_frames_built(make_user):
    users = await sync_to_async(lambda: [make_user(f"lwhole{i}") for i in range(4)])()
    match = await sync_to_async(_match)(users, "hokm4", _dealt_state("hokm4", 5))
    game = engine.get("hokm4")
    seat = min(game.to_act(match.state))
    action = game.legal_actions(match.state, seat)[0]
    outcome = await plain.play(match.pk, action, user_id=users[seat - 1].pk, seat=None, version=1)
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
        got = await plain.play(
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
            await plain.play(match.pk, {"type": "nothing"}, user_id=users[seat - 1].pk, seat=None, version=1)
        got = await asyncio.gather(
            *(
                plain.play(match.pk, action, user_id=users[seat - 1].pk, seat=None, version=1)
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
    assert await plain.play(match.pk, action, user_id=user.pk, seat=None, version=1) is not None
    assert plain._matches.at(match.pk, 2) is not None
    user, action, before = await next_move(2)
    await _locked(match.pk, action, user, 2)  # elsewhere
    row = await sync_to_async(_row)(match.pk)
    assert row.version == 3
    # the same seat's other tab, still at version 2, sends what was legal then
    for seat_user in users:
        got = await plain.play(match.pk, action, user_id=seat_user.pk, seat=None, version=2)
        assert got is None
    assert plain._matches.at(match.pk, 2) is None
    after = await sync_to_async(_row)(match.pk)
    assert (after.version, after.state) == (3, row.state)
    user, action, _ = await next_move(3)
    outcome = await plain.play(match.pk, action, user_id=user.pk, seat=None, version=3)
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
    assert await plain.play(match.pk, action, user_id=users[seat - 1].pk, seat=None, version=1) is None
    outcome = await _locked(match.pk, action, users[seat - 1], 1)
    assert outcome.version == 2
