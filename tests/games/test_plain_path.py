"""Issue 13: the play service's plain path, two statements and no row lock.

A person's card or call inside a round is read, applied and written back in
one statement that updates the match only at the version read and appends
the move in the same statement. Everything else (a deal, a round's or the
match's end, a seat swap, tea, a refusal, a row that moved on) takes the
locked path. These tests hold the plain path to the locked one: the same
states, versions, move log, rounds and deadlines over whole rounds of every
game; exactly one of two racing moves applies (C-8: one action per turn);
a refusal changes nothing and names the same error as before.
"""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import clock, deadlines, engine
from games import services as play_service
from games.engine import CHANCE
from games.errors import PlayError
from games.models import Match, Move, Round
from rooms import broadcast
from tests.games.test_races import _race as race
from tests.rooms.conftest import make_room

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = {"hokm4": 4, "hokm2": 2, "shelem4": 4, "shelem2": 2, "bridge": 4}


@pytest.fixture(autouse=True)
def _quiet(settings, push_set_kept):
    settings.DEADLINES = "inprocess"  # nothing fires by itself: the tests drive the clock
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    yield
    clock.settle()


def _dealt_state(name: str, seed: int) -> dict:
    """A match of ``name`` just dealt from a seeded deck (no fair deal: the two paths get the same cards)."""
    game = engine.get(name)
    rng = random.Random(seed)
    state = game.new_match(game.validate_rules({"middle_card": False} if name == "hokm4" else {}))
    while CHANCE in game.to_act(state):
        kind, cards = game.pending_chance(state)
        deck = list(cards)
        rng.shuffle(deck)
        state, _ = game.apply(state, CHANCE, {"type": kind, "deck": deck})
    return state


def _match(users, name: str, state: dict) -> Match:
    rules = {"middle_card": False} if name == "hokm4" else {}
    room = make_room(users[0], users[1:], game=name, rules=rules)
    players = [
        {"seat": n, "user_id": u.pk, "username": u.username, "bot": False} for n, u in enumerate(users, 1)
    ]
    game = engine.get(name)
    match = Match.objects.create(
        room=room, game=name, rules=game.validate_rules(rules), state=state, players=players, version=1
    )
    Move.objects.create(match=match, seq=1, seat=CHANCE, action={"type": "deal"}, actor="dealer", events=[])
    Round.objects.create(match=match, number=1, first_seq=1)
    return match


def _log(match: Match):
    return [(m.seq, m.seat, m.action, m.actor, m.user_id, m.events) for m in match.moves.order_by("seq")]


def _rounds(match: Match):
    return list(match.rounds.order_by("number").values_list("number", "first_seq", "last_seq", "result"))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_plain_path_and_the_locked_path_agree_over_a_whole_round(name, make_user, monkeypatch):
    """The same round played through both paths gives the same match row, move log and rounds (C-7, C-8)."""
    n = GAMES[name]
    game = engine.get(name)
    for seed in (1, 2):
        state = _dealt_state(name, seed)
        sides = {}
        for plain in (True, False):
            monkeypatch.setattr(play_service, "PLAIN_PATH", plain)
            users = [make_user(f"{name}{seed}{int(plain)}p{i}") for i in range(n)]
            match = _match(users, name, state)
            rng = random.Random(seed)
            statements = []
            while True:
                match.refresh_from_db()
                to_act = game.to_act(match.state) - {CHANCE}
                if match.status != Match.Status.ACTIVE or not to_act or game.round_over(match.state):
                    break
                seat = min(to_act)
                action = rng.choice(game.legal_actions(match.state, seat))
                with broadcast.collecting(), CaptureQueriesContext(connection) as q:
                    outcome = play_service.play(match.pk, action, user=users[seat - 1], version=match.version)
                statements.append(len(q.captured_queries))
                assert (
                    len(q.captured_queries) <= 2
                    or not plain
                    or game.round_over(Match.objects.get(pk=match.pk).state)
                ), [x["sql"][:100] for x in q.captured_queries]
                assert outcome.version == match.version + 1
            match.refresh_from_db()
            sides[plain] = {
                "state": match.state,
                "version": match.version,
                "status": match.status,
                "deadlines": sorted(match.deadlines),
                "log": [(s, seat, a, actor, e) for s, seat, a, actor, _u, e in _log(match)],
                "rounds": [r[:3] for r in _rounds(match)],
                "statements": statements,
            }
        plain, locked = sides[True], sides[False]
        assert plain["rounds"][0][2] is not None, "the round ended"
        for key in ("state", "version", "status", "deadlines", "log", "rounds"):
            assert plain[key] == locked[key], (name, seed, key)
        # every action but the round's last took two statements on the plain path, never fewer than five locked
        assert set(plain["statements"][:-1]) == {2}, plain["statements"]
        assert min(locked["statements"]) >= 4


def test_a_plain_move_is_written_whole_and_sent_to_every_viewer_class(make_user):
    users = [make_user(f"whole{i}") for i in range(4)]
    match = _match(users, "hokm4", _dealt_state("hokm4", 5))
    game = engine.get("hokm4")
    seat = min(game.to_act(match.state))
    action = game.legal_actions(match.state, seat)[0]
    with broadcast.collecting() as box, CaptureQueriesContext(connection) as q:
        outcome = play_service.play(match.pk, action, user=users[seat - 1], version=1)
    sql = [x["sql"] for x in q.captured_queries]
    assert len(sql) == 2 and not any("FOR UPDATE" in s for s in sql), sql
    match.refresh_from_db()
    assert (outcome.version, match.version) == (2, 2)
    move = match.moves.get(seq=2)
    assert (move.seat, move.action, move.actor, move.user_id) == (seat, action, "player", users[seat - 1].pk)
    assert move.events == outcome.events and move.events[0]["type"] in ("trump_named", "card_played")
    nxt = min(game.to_act(match.state))
    assert list(match.deadlines) == [str(nxt)] and match.next_deadline is not None
    groups = sorted(group for group, _ in box)
    assert groups == sorted(
        [broadcast.public_group(match.room_id)] + [broadcast.player_group(match.room_id, u.pk) for u in users]
    )
    assert all(message["v"] == 2 for _, message in box)


def test_refusals_change_nothing_and_keep_their_codes(make_user):
    """Stale version, out of turn, an illegal card, a seat that is not his (C-3, C-8)."""
    users = [make_user(f"refused{i}") for i in range(4)]
    match = _match(users, "hokm4", _dealt_state("hokm4", 6))
    game = engine.get("hokm4")
    seat = min(game.to_act(match.state))
    legal = game.legal_actions(match.state, seat)
    hand = match.state["hands"][seat - 1]
    illegal = next((c for c in hand if {"type": "play", "card": c} not in legal), None)
    other = users[seat % 4]
    cases = [
        (dict(action=legal[0], user=users[seat - 1], version=0), "stale_version"),
        (dict(action=legal[0], user=users[seat - 1], version=7), "stale_version"),
        (dict(action={"type": "play", "card": hand[0]}, user=other, version=1), "not_your_turn"),
        (dict(action=legal[0], user=users[seat - 1], seat=seat % 4 + 1, version=1), "not_your_seat"),
        (dict(action={"type": "play", "card": "ZZ"}, user=users[seat - 1], version=1), None),
    ]
    if illegal is not None:  # not every hand has a card it may not play on the lead
        cases.append((dict(action={"type": "play", "card": illegal}, user=users[seat - 1], version=1), None))
    before = (match.state, match.version, match.deadlines)
    for kwargs, code in cases:
        with pytest.raises(PlayError) as exc, broadcast.collecting() as box:
            play_service.play(match.pk, **kwargs)
        if code is not None:
            assert exc.value.code == code, kwargs
        assert box == []
        match.refresh_from_db()
        assert (match.state, match.version, match.deadlines) == before
        assert match.moves.count() == 1


def _race(*targets):
    """``tests.games.test_races._race``, an accepted action given as its version."""
    return [(kind, got.version if kind == "ok" else got) for kind, got in race(*targets)]


def test_the_same_move_sent_twice_at_once_applies_once(make_user):
    """Two tabs of one player send the same card for the same version: one move, one refusal (C-8)."""
    users = [make_user(f"twice{i}") for i in range(4)]
    game = engine.get("hokm4")
    for attempt in range(30):
        match = _match(users, "hokm4", _dealt_state("hokm4", 100 + attempt))
        seat = min(game.to_act(match.state))
        action = game.legal_actions(match.state, seat)[-1]
        player = users[seat - 1]
        results = _race(
            lambda m=match, a=action, p=player: play_service.play(m.pk, a, user=p, version=1),
            lambda m=match, a=action, p=player: play_service.play(m.pk, a, user=p, version=1),
        )
        assert sorted(results) == [("ok", 2), ("refused", "stale_version")], (attempt, results)
        assert match.moves.count() == 2
        match.room.delete()


def test_a_row_that_moved_on_after_the_read_goes_the_locked_way(make_user, monkeypatch):
    """Another seat's move lands between the plain path's read and its write:
    the write finds no row at that version and the locked path refuses (stale)."""
    users = [make_user(f"moved{i}") for i in range(2)]
    match = _match(users, "hokm2", _dealt_state("hokm2", 3))
    game = engine.get("hokm2")
    seat = min(game.to_act(match.state))
    action = game.legal_actions(match.state, seat)[0]
    real = deadlines.set_deadlines
    calls = []

    def meanwhile(m, g, previous):
        real(m, g, previous)
        if not calls:
            calls.append(1)
            # the same player's other tab gets in first, through the locked path, on its own connection
            monkeypatch.setattr(play_service, "PLAIN_PATH", False)
            results = _race(lambda: play_service.play(match.pk, action, user=users[seat - 1], version=1))
            monkeypatch.setattr(play_service, "PLAIN_PATH", True)
            assert results == [("ok", 2)]

    monkeypatch.setattr(deadlines, "set_deadlines", meanwhile)
    with pytest.raises(PlayError) as exc, broadcast.collecting() as box:
        play_service.play(match.pk, action, user=users[seat - 1], version=1)
    assert exc.value.code == "stale_version"
    assert box == []
    assert list(match.moves.values_list("seq", flat=True)) == [1, 2]
    match.refresh_from_db()
    assert match.version == 2


def test_the_plain_paths_read_gives_the_row_the_orm_gives(make_user):
    """``read_match`` (a statement built once, issue 13) returns the same object as
    ``Match.objects.get``: every field, JSON and dates included, a null result too;
    a missing match is None."""
    users = [make_user(f"read{i}") for i in range(4)]
    match = _match(users, "hokm4", _dealt_state("hokm4", 5))
    Match.objects.filter(pk=match.pk).update(
        deadlines={"2": 1.5e9}, tea={"phase": "asked", "by": 2}, result=None, leaver_seat=3
    )
    for finish in (False, True):
        if finish:
            Match.objects.filter(pk=match.pk).update(
                status=Match.Status.FINISHED,
                result={"winner": 0, "score": [7, 3]},
                finished_at=clock.now_dt(),
            )
        expected = Match.objects.get(pk=match.pk)
        got = play_service.read_match(match.pk)
        assert type(got) is Match and got.pk == expected.pk and not got._state.adding
        for f in Match._meta.concrete_fields:
            assert getattr(got, f.attname) == getattr(expected, f.attname), f.name
        assert got.room.pk == expected.room_id
    assert play_service.read_match(match.pk + 1000) is None


def test_the_fair_deals_read_gives_the_record_the_orm_gives(make_user):
    """``fairness._read`` (infra/rows.py, issue 13) returns what the ORM's annotated
    query returns: every field of the record, dates aware, and the match's seats,
    status and room beside it; a missing record is refused."""
    from django.db.models import F

    from games import fairness
    from games.fairdeal import FairnessError
    from games.models import DealRecord

    users = [make_user(f"fread{i}") for i in range(4)]
    match = _match(users, "hokm4", _dealt_state("hokm4", 6))
    record = fairness.open_round(match, 2)
    DealRecord.objects.filter(pk=record.pk).update(substituted=[3], deadline=clock.now_dt())
    expected = (
        DealRecord.objects.filter(pk=record.pk)
        .annotate(
            match_players=F("match__players"),
            match_status=F("match__status"),
            match_room_id=F("match__room_id"),
        )
        .get()
    )
    got = fairness._read(match.pk, 2)
    assert type(got) is DealRecord and got.pk == expected.pk
    for f in DealRecord._meta.concrete_fields:
        assert getattr(got, f.attname) == getattr(expected, f.attname), f.name
    assert got.deadline.tzinfo is not None
    for name in ("match_players", "match_status", "match_room_id"):
        assert getattr(got, name) == getattr(expected, name), name
    with pytest.raises(FairnessError):
        fairness._read(match.pk, 9)
