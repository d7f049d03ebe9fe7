"""Issue 35: the decision of an action, without a database.

``transition.check`` decides every action (a refusal with its code, or the
rules' step) from the match in memory; ``transition.decide`` turns a
person's step into the ``Transition`` the writers persist without the row
lock (games/writer.py), or None where the locked path decides. Every game,
every refusal code of the play service, and the engine's codes passed
through unchanged; no test here may touch the database (no ``django_db`` mark) (C-8: one action per turn; H4-X4: nothing during the tea).
"""

from __future__ import annotations

import random

import pytest

from games import engine, transition
from games.engine import CHANCE, IllegalAction
from games.models import Match

GAMES = {"hokm4": 4, "hokm2": 2, "shelem4": 4, "shelem2": 2, "bridge": 4}


def _rules(name: str) -> dict:
    return engine.get(name).validate_rules({"middle_card": False} if name == "hokm4" else {})


def _dealt(name: str, seed: int) -> dict:
    game = engine.get(name)
    rng = random.Random(seed)
    state = game.new_match(_rules(name))
    while CHANCE in game.to_act(state):
        kind, cards = game.pending_chance(state)
        deck = list(cards)
        rng.shuffle(deck)
        state, _ = game.apply(state, CHANCE, {"type": kind, "deck": deck})
    return state


def _match(name: str, state: dict, *, version: int = 1, **fields) -> Match:
    players = [
        {"seat": n, "user_id": 100 + n, "username": f"p{n}", "bot": False} for n in range(1, GAMES[name] + 1)
    ]
    values = dict(
        pk=7,
        room_id=3,
        game=name,
        rules=_rules(name),
        state=state,
        players=players,
        version=version,
        status=Match.Status.ACTIVE,
        tea={},
        deadlines={},
        practice=False,
    )
    values.update(fields)
    return Match(**values)


def _actor(match: Match) -> int:
    return min(engine.get(match.game).to_act(match.state) - {CHANCE})


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_whole_round_is_one_transition_per_action_and_the_match_read_never_changes(name):
    """C-8: each action gives the next version; the round's last ends the round
    and opens the next round's fair deal record (F-1), the match read untouched."""
    game = engine.get(name)
    rng = random.Random(5)
    match = _match(name, _dealt(name, 5))
    ended = False
    for _ in range(400):
        seat = _actor(match)
        action = rng.choice(game.legal_actions(match.state, seat))
        before = (match.version, match.state, dict(match.deadlines))
        t = transition.decide(match, action, user_id=100 + seat)
        assert (match.version, match.state, match.deadlines) == before
        state, events = game.apply(match.state, seat, action)
        if t is None:
            assert game.result(state) is not None  # only the match's end goes the locked way here
            break
        assert (t.prev, t.version, t.seat, t.actor, t.user_id) == (
            before[0],
            before[0] + 1,
            seat,
            "player",
            100 + seat,
        )
        assert t.match.state == state and t.events == events
        assert t.frames.version == t.version and t.frames.prev == t.prev
        assert str(seat) not in t.match.deadlines or game.to_act(state) >= {seat}
        assert (t.deadline is None) == (not t.match.deadlines)
        if t.ends_round:
            assert game.round_over(state) and t.record is not None and t.record.match_id == match.pk
            assert t.summary() == transition.round_summary(events)
            ended = True
            break
        assert t.record is None
        match = t.match
    assert ended or t is None


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_refusal_code_and_nothing_changes(name):
    game = engine.get(name)
    match = _match(name, _dealt(name, 1), version=4)
    seat = _actor(match)
    action = game.legal_actions(match.state, seat)[0]
    other = next(s for s in range(1, GAMES[name] + 1) if s != seat)

    def code(m, a=action, **kw):
        got = transition.check(m, a, **kw)
        assert isinstance(got, transition.Refusal), got
        return got.code

    assert code(match, "card") == "bad_action"
    assert code(match, {"card": "AS"}) == "bad_action"
    assert code(None, user_id=100 + seat) == "no_match"
    assert code(_match(name, match.state, status=Match.Status.FINISHED), user_id=100 + seat) == "match_over"
    assert code(match, user_id=999) == "not_seated"
    assert code(match) == "not_seated"
    assert code(match, user_id=100 + seat, seat=other) == "not_your_seat"
    pouring = _match(name, match.state, tea={"phase": "pouring"})
    assert code(pouring, user_id=100 + seat) == "tea_time"  # H4-X4
    assert code(match, user_id=100 + seat, version=5) == "stale_version"
    assert code(match, user_id=100 + seat, version=-1) == "stale_version"
    assert code(match, user_id=100 + seat, version=3, moved_since=lambda v, s=None: True) == "stale_version"
    # only the tea moved the version since: the table is as he saw it (H4-X4)
    assert isinstance(
        transition.check(match, action, user_id=100 + seat, version=3, moved_since=lambda v, s=None: False),
        transition.Step,
    )
    # the engine's own codes pass through unchanged (C-8: not his turn)
    for wrong_seat, wrong in [(other, action), (seat, {"type": "nonsense"})]:
        try:
            game.apply(match.state, wrong_seat, wrong)
        except IllegalAction as exc:
            assert code(match, wrong, user_id=100 + wrong_seat) == exc.code
        else:  # several seats may act at once (the hokm2 draft)
            assert isinstance(transition.check(match, wrong, user_id=100 + wrong_seat), transition.Step)
    # a refusal is never a transition: the locked path names it
    assert transition.decide(match, action, user_id=999) is None
    assert transition.decide(pouring, action, user_id=100 + seat) is None
    assert match.version == 4


@pytest.mark.parametrize("name", sorted(GAMES))
def test_what_only_the_locked_path_decides(name):
    """A bot's or the clock's action (no user), a deal, a pick-up, a tea under
    way or a finished match: no transition here (services.play decides)."""
    game = engine.get(name)
    match = _match(name, _dealt(name, 2))
    seat = _actor(match)
    action = game.legal_actions(match.state, seat)[0]
    assert transition.decide(match, action, user_id=None, seat=seat) is None
    assert transition.decide(match, {"type": "deal"}, user_id=100 + seat) is None
    assert transition.decide(match, {"type": "pick_up"}, user_id=100 + seat) is None
    assert (
        transition.decide(_match(name, match.state, tea={"phase": "asking"}), action, user_id=100 + seat)
        is None
    )
    assert transition.decide(_match(name, match.state, status="finished"), action, user_id=100 + seat) is None
    assert transition.decide(match, action, user_id=100 + seat) is not None


def test_the_version_moves_on_in_one_place():
    match = _match("hokm2", _dealt("hokm2", 1), version=9)
    assert transition.bump(match) == 9
    assert match.version == 10
