"""L-7 (a decision of the rule book): a player who is gone.

After two of his moves in a row were made by the clock while he was
disconnected, his turns get a 5 s clock and the move made for him is the
normal bot's choice, until he is connected again (his full clock at once);
his tablemates see the stand-in in every state frame. Not leaving (L-5).

The clock is driven by the tests (``clock.set_now``); connected means an
entry in the presence store of the table (infra/presence.py), as the
table's heartbeats write it.
"""

from __future__ import annotations

import pytest

from games import clock, engine, frames, services, standin
from games.models import Match, Move
from infra import presence
from rooms import services as room_service
from tests.rooms.conftest import make_room

pytestmark = pytest.mark.django_db(transaction=True)

TURN = 30.0


@pytest.fixture(autouse=True)
def _driven(settings):
    settings.DEADLINES = "inprocess"  # no loop is bound here: nothing fires by itself
    settings.TABLE = {**settings.TABLE, "TURN_SCALE": 1, "ROUND_PAUSE": 0.0}
    presence.reset_store()
    now = [clock.now()]
    clock.set_now(lambda: now[0])
    yield now
    clock.set_now(None)
    clock.settle()
    presence.reset_store()


def _start(alice, bob, charlie, dave) -> Match:
    room = make_room(alice, [bob, charlie, dave], rules={"middle_card": False, "turn_seconds": int(TURN)})
    match = room_service.start(room, alice)
    match.refresh_from_db()
    return match


def _connect(match: Match, user, conn: str = "tab") -> None:
    presence.store().touch(match.room.code, f"{conn}-{user.pk}", f"u:{user.pk}", match.seat_of_user(user.pk))


def _disconnect(match: Match, user, conn: str = "tab") -> None:
    presence.store().drop(match.room.code, f"{conn}-{user.pk}")


class Table:
    """The other three play their own cards at once; seat 1's turns wait for his clock."""

    def __init__(self, match: Match, users, now):
        self.match, self.users, self.now = match, users, now
        self.game = engine.get(match.game)
        self.log: list[dict] = []  # seat 1's turns: {clock, action, expected_auto, stand_in_choice, seq}

    def refresh(self) -> Match:
        self.match.refresh_from_db()
        return self.match

    def to_seat_one(self, limit: int = 400) -> Match:
        """Play the others' turns (and deals) until seat 1 is to act."""
        for _ in range(limit):
            match = self.refresh()
            assert match.status == Match.Status.ACTIVE
            to_act = self.game.to_act(match.state)
            if 1 in to_act:
                return match
            if 0 in to_act:  # the deal after a round's result pause
                self.now[0] = max(self.now[0], min(match.deadlines.values())) + 0.01
                services.expire(match.pk, match.version, bot=False)
                continue
            seat = min(to_act)
            action = self.game.legal_actions(match.state, seat)[0]
            services.play(match.pk, action, user=self.users[seat - 1], version=match.version)
        raise AssertionError("seat 1 never came to act")

    def clock_turn(self) -> dict:
        """Seat 1's turn, run out: what his clock was and what was played for him."""
        match = self.to_seat_one()
        started = self.now[0]
        clock_s = match.deadlines["1"] - started
        auto = self.game.auto_action(match.state, 1)
        choice = services._think(match, 1, level=standin.level())
        self.now[0] = match.deadlines["1"] + 0.01
        outcome = services.expire(match.pk, match.version)
        assert outcome is not None
        move = Move.objects.get(match=match, seq=outcome.version)
        assert (move.seat, move.actor) == (1, Move.Actor.CLOCK)  # L-5: still the clock's move, no leave
        auto_event = next(e for e in move_events(outcome) if e["type"] == "auto")
        entry = {
            "clock": round(clock_s, 2),
            "action": move.action,
            "auto": auto,
            "bot": choice,
            "stand_in": bool(auto_event.get("stand_in")),
            "version": outcome.version,
        }
        self.log.append(entry)
        return entry


def move_events(outcome) -> list[dict]:
    return outcome.events


@pytest.fixture
def four(make_user):
    return [make_user(name) for name in ("alice", "bob", "charlie", "dave")]


def _distinct_choice_turns(table: Table, n: int) -> None:
    for _ in range(n):
        table.clock_turn()


def test_l_7_the_stand_in_starts_after_exactly_two_clock_moves_while_disconnected(four, _driven):
    alice, bob, charlie, dave = four
    match = _start(*four)
    for user in (bob, charlie, dave):
        _connect(match, user)
    table = Table(match, four, _driven)
    first, second = table.clock_turn(), table.clock_turn()
    for entry in (first, second):  # L-5: his full clock, the clock's plain legal move
        assert entry["clock"] == TURN and entry["action"] == entry["auto"] and not entry["stand_in"]
    match = table.refresh()
    assert match.gone == {"1": 2}
    # His tablemates see it, every viewer class: the state frame names seat 1 (public knowledge).
    game = engine.get(match.game)
    for viewer in (None, 1, 2):
        assert frames.state_frame(match, game, viewer)["stand_in"] == [1]
    later = [table.clock_turn() for _ in range(3)]
    for entry in later:  # L-7: a 5 s clock, the normal bot's choice
        assert entry["clock"] == standin.DEFAULT_SECONDS and entry["stand_in"]
        assert entry["action"] == entry["bot"]
    # (The deal is the fair deal's, new each run: the bot's choice may equal the clock's plain
    # one on a given turn; the move's ``stand_in`` flag and its 5 s clock tell them apart.)
    assert Match.objects.get(pk=match.pk).leaver_seat is None  # L-7: not leaving, no penalty


def test_l_7_a_connected_player_whose_clock_runs_out_gets_no_stand_in(four, _driven):
    match = _start(*four)
    for user in four:
        _connect(match, user)
    table = Table(match, four, _driven)
    for _ in range(4):
        entry = table.clock_turn()
        assert entry["clock"] == TURN and entry["action"] == entry["auto"] and not entry["stand_in"]
    assert table.refresh().gone == {}


def test_l_7_the_row_is_broken_by_his_own_move_and_by_a_turn_while_connected(four, _driven):
    alice = four[0]
    match = _start(*four)
    table = Table(match, four, _driven)
    table.clock_turn()
    assert table.refresh().gone == {"1": 1}
    # He plays himself (the plain path leaves a counted seat to the locked path, which ends the row).
    match = table.to_seat_one()
    services.play(match.pk, table.game.legal_actions(match.state, 1)[0], user=alice, version=match.version)
    assert table.refresh().gone == {}
    table.clock_turn()
    assert table.refresh().gone == {"1": 1}
    _connect(match, alice)  # connected when his clock runs out: slow, not gone
    table.clock_turn()
    _disconnect(match, alice)
    assert table.refresh().gone == {}
    table.clock_turn()
    entry = table.clock_turn()
    assert table.refresh().gone == {"1": 2} and not entry["stand_in"] and entry["clock"] == TURN


def test_l_7_the_stand_in_stops_the_moment_he_reconnects(four, _driven):
    alice = four[0]
    match = _start(*four)
    table = Table(match, four, _driven)
    for _ in range(3):
        table.clock_turn()
    match = table.to_seat_one()
    assert match.deadlines["1"] - _driven[0] == standin.DEFAULT_SECONDS  # the stand-in's clock runs
    version = match.version
    _connect(match, alice)
    outcome = services.came_back(match.pk, alice.pk)
    assert outcome is not None and outcome.version == version + 1  # a version of its own
    match = table.refresh()
    assert match.gone == {} and frames.state_frame(match, table.game, 2)["stand_in"] == []
    assert match.deadlines["1"] - _driven[0] == TURN  # his full clock at once
    assert {"type": "back", "seat": 1} in outcome.events
    # Idempotent: a second tab, a retried greeting.
    assert services.came_back(match.pk, alice.pk) is None
    assert table.refresh().version == version + 1
    # He plays on himself; the stale deadline of the stand-in's version does nothing.
    assert services.expire(match.pk, version) is None
    services.play(match.pk, table.game.legal_actions(match.state, 1)[0], user=alice, version=match.version)
    assert Move.objects.filter(match=match, seat=1, actor=Move.Actor.PLAYER).count() == 1


def test_l_7_a_reconnect_before_the_stand_in_is_no_version(four, _driven):
    alice = four[0]
    match = _start(*four)
    table = Table(match, four, _driven)
    table.clock_turn()
    version = table.refresh().version
    _connect(match, alice)
    assert services.came_back(match.pk, alice.pk) is None  # the count only: nothing anyone sees
    match = table.refresh()
    assert match.gone == {} and match.version == version


def test_l_7_the_stand_in_plays_each_turn_once_across_a_restarted_worker(four, _driven):
    """A worker restart in the middle: the first worker's timers are lost with
    it (``clock.cancel_all``), the next one's sweep finds the overdue stand-in
    turn and plays it once; every stale delivery of a played version does
    nothing (exactly once, by version)."""
    match = _start(*four)
    table = Table(match, four, _driven)
    for _ in range(2):
        table.clock_turn()
    match = table.to_seat_one()
    version = match.version
    _driven[0] = match.deadlines["1"] + 3.0  # the worker died before its timer fired
    clock.cancel_all()
    assert services.sweep(grace=2.0) >= 1  # the next worker's sweep
    played = Move.objects.get(match=match, seq=version + 1)
    assert (played.seat, played.actor) == (1, Move.Actor.CLOCK)
    for _ in range(3):  # the lost timer's and the ticker's deliveries, late
        assert services.expire(match.pk, version) is None
    seqs = list(Move.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))  # no move lost, none doubled
    assert Move.objects.filter(match=match, seq=version + 1).count() == 1
