"""Issue 12: one lock order (match, then room, then seats), raced for real.

Real threads, one PostgreSQL connection each, released together by a
barrier, 100 times each:

- a card that ends the match against a confirmed leave (L-3) of another
  player: never a deadlock, never an unexpected error, exactly one outcome
  recorded (finished with wins and losses, or abandoned with the leaver's
  penalty), and the ledger written once per player (L-1, L-3);
- a timeout (C-8) against the move of the player whose turn it is: exactly
  one of them applies.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter

import pytest
from django.db import connection

from games import clock, engine
from games import services as play_service
from games.engine import CHANCE
from games.errors import PlayError
from games.models import Match, Move
from leaderboard.models import LedgerEntry
from rooms import services as room_service
from rooms.models import Room, Seat
from tests.rooms.conftest import make_room

TRIES = 100
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _quiet(settings):
    settings.DEADLINES = "inprocess"  # no server loop here: nothing is armed
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    yield
    clock.settle()


def _one_card_from_the_end(name: str, rules: dict, seed: int):
    """(state, seat, action): the engine's state where ``action`` of ``seat`` ends the match."""
    game = engine.get(name)
    rng = random.Random(seed)
    state = game.new_match(rules)
    while True:
        to_act = game.to_act(state)
        if CHANCE in to_act:
            kind, cards = game.pending_chance(state)
            deck = list(cards)
            rng.shuffle(deck)
            state, _ = game.apply(state, CHANCE, {"type": kind, "deck": deck})
            continue
        seat = min(to_act)
        action = game.auto_action(state, seat)
        after, _ = game.apply(state, seat, action)
        if game.result(after) is not None:
            return state, seat, action
        state = after


def _race(*targets, refusals=(PlayError,)):
    """Run ``targets`` on threads of their own (one connection each), released
    together; each one's ``("ok", result)``, ``("refused", code)`` for one of
    ``refusals``, or ``("crash", repr)``."""
    barrier = threading.Barrier(len(targets))
    results: list = [None] * len(targets)

    def run(i, target):
        barrier.wait()
        try:
            results[i] = ("ok", target())
        except refusals as exc:
            results[i] = ("refused", exc.code)
        except Exception as exc:  # noqa: BLE001 - a deadlock or a 500 is what this test looks for
            results[i] = ("crash", repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, t)) for i, t in enumerate(targets)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a racer never came back (deadlock?)"
    return results


def test_a_match_ending_card_against_a_confirmed_leave_100_times(make_user, capsys):
    users = [make_user(f"racer{i}") for i in range(4)]
    state, seat, action = _one_card_from_the_end("hokm4", {"target": 3, "middle_card": False}, seed=7)
    outcomes = Counter()
    started = time.perf_counter()
    for attempt in range(TRIES):
        room = make_room(users[0], users[1:], rules={"target": 3, "middle_card": False})
        Room.objects.filter(pk=room.pk).update(status=Room.Status.PLAYING)
        players = [
            {"seat": n, "user_id": u.pk, "username": u.username, "bot": False} for n, u in enumerate(users, 1)
        ]
        match = Match.objects.create(room=room, game="hokm4", rules=room.rules, state=state, players=players)
        leaver = users[seat % 4]  # another player than the one who plays the last card
        player = users[seat - 1]
        results = _race(
            lambda m=match, p=player: play_service.play(m.pk, action, user=p, version=0),
            lambda r=room, u=leaver: room_service.leave(r, u, confirm=True),
        )
        assert not [r for r in results if r[0] == "crash"], (attempt, results)
        match.refresh_from_db()
        entries = list(LedgerEntry.objects.filter(match=match))
        assert len(entries) == 4 and len({e.user_id for e in entries}) == 4
        if match.status == Match.Status.FINISHED:
            assert results[0][0] == "ok"
            assert sorted(e.result for e in entries) == ["loss", "loss", "win", "win"]
            # the leave came after the end: free (L-4), the seat is empty
            assert results[1] == ("ok", {"left": True, "cost": None})
        else:
            assert match.status == Match.Status.ABANDONED
            assert results[0] == ("refused", "match_over")
            assert {e.user_id: e.result for e in entries}[leaver.pk] == "left"
            assert Room.objects.get(pk=room.pk).status == Room.Status.WAITING
        assert not Seat.objects.filter(room=room, user=leaver).exists()
        outcomes[match.status] += 1
    with capsys.disabled():
        print(f"\nrace card/leave: {TRIES} tries {dict(outcomes)} in {time.perf_counter() - started:.1f} s")
    assert sum(outcomes.values()) == TRIES


def test_a_timeout_against_the_players_move_100_times(make_user, capsys):
    users = [make_user(f"clocked{i}") for i in range(4)]
    room = make_room(users[0], users[1:], rules={"middle_card": False})
    match = room_service.start(room, users[0])
    game = engine.get("hokm4")
    outcomes = Counter()
    started = time.perf_counter()
    tries = 0
    while tries < TRIES:
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        to_act = game.to_act(match.state) - {CHANCE}
        if not to_act:  # the pause before a deal: let the dealer deal
            Match.objects.filter(pk=match.pk).update(deadlines={"0": clock.now() - 1})
            play_service.expire(match.pk, match.version)
            continue
        seat = min(to_act)
        action = game.legal_actions(match.state, seat)[-1]
        player = users[seat - 1]
        Match.objects.filter(pk=match.pk).update(deadlines={str(seat): clock.now() - 1})
        version = match.version
        results = _race(
            lambda v=version: play_service.expire(match.pk, v),
            lambda p=player, a=action, v=version: play_service.play(match.pk, a, user=p, version=v),
        )
        assert not [r for r in results if r[0] == "crash"], results
        applied = [i for i, r in enumerate(results) if r[0] == "ok" and r[1] is not None]
        assert len(applied) == 1, results
        move = Move.objects.get(match=match, seq=version + 1)
        assert move.seat == seat
        assert move.actor == ("clock" if applied == [0] else "player")
        if applied == [1]:
            assert results[0] == ("ok", None)  # the clock found its version gone and did nothing
        else:
            assert results[1] == ("refused", "stale_version")
        outcomes["clock" if applied == [0] else "player"] += 1
        tries += 1
    with capsys.disabled():
        print(f"\nrace timeout/move: {tries} tries {dict(outcomes)} in {time.perf_counter() - started:.1f} s")
    assert tries == TRIES
