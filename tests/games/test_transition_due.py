"""Issue 35: the locked path's decisions, without a database.

A deadline (``decisions.at_deadline``: the tea's end or a seat's move by the dealer,
a bot or the clock, C-8), a complete fair record (``decisions.deal``, F-2),
the move that either asks for (``decisions.due_step``) and a player's word
about tea (``decisions.tea_say``, ``decisions.tea_due``, H4-X4) are each
decided from the match in memory: a refusal with its code, or the value that
``accept.write`` persists (a ``Step`` or a ``Change``). The match read never
changes. Every game, every action type a test of its own, every refusal
code; no test here may touch the database (no ``django_db`` mark).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games import clock, decisions, engine, transition
from games.engine import CHANCE
from games.models import Match
from tests.games.test_transition import GAMES, _dealt, _match, _rules

NOW = 1_800_000_000.0


@pytest.fixture(autouse=True)
def _frozen(settings):
    settings.TABLE = {**settings.TABLE, "ROUND_PAUSE": 4.0, "TEA_ASK_SECONDS": 10.0, "TEA_SCALE": 1.0}
    clock.set_now(lambda: NOW)
    yield
    clock.set_now(None)


def _seat(match: Match) -> int:
    return min(engine.get(match.game).to_act(match.state) - {CHANCE})


def _due_at(match: Match, seat: int, when: float = NOW - 1) -> Match:
    return _match(
        match.game, match.state, version=match.version, deadlines={str(seat): when}, gone=match.gone
    )


def _snapshot(match: Match):
    return (match.version, match.state, dict(match.deadlines or {}), dict(match.tea or {}), match.gone)


def _round_over(name: str) -> dict:
    game = engine.get(name)
    state = _dealt(name, 3)
    while not game.round_over(state):
        seat = min(game.to_act(state) - {CHANCE})
        state, _ = game.apply(state, seat, game.legal_actions(state, seat)[0])
    return state


def _deal_action(state: dict, name: str) -> dict:
    kind, cards = engine.get(name).pending_chance(state)
    return {"type": kind, "deck": list(cards)}


def _code(got) -> str:
    assert isinstance(got, transition.Refusal), got
    return got.code


# --- a deadline: what is due ----------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_deadline_refuses_what_is_not_due(name):
    """A stale version, a finished match, no match, a clock that fired early: nothing is due."""
    match = _match(name, _dealt(name, 1), version=5)
    seat = _seat(match)
    assert _code(decisions.at_deadline(None, 5)) == "no_match"
    assert (
        _code(decisions.at_deadline(_match(name, match.state, status=Match.Status.FINISHED), 1))
        == "match_over"
    )
    assert _code(decisions.at_deadline(_due_at(match, seat), 4)) == "stale_version"
    assert _code(decisions.at_deadline(_due_at(match, seat, when=NOW + 5), 5)) == "not_due"
    assert _code(decisions.at_deadline(match, 5)) == "not_due"  # no deadline at all


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_clocks_move_for_a_person_c8_l5(name):
    """C-8/L-5: a person's deadline passed: the clock plays his engine's automatic move."""
    game = engine.get(name)
    match = _due_at(_match(name, _dealt(name, 1), version=5), _seat(_match(name, _dealt(name, 1))))
    seat = _seat(match)
    before = _snapshot(match)
    what = decisions.at_deadline(match, 5)
    assert what == transition.Due(seat, "clock")
    action = game.auto_action(match.state, seat)
    step = decisions.due_step(match, what, action)
    assert isinstance(step, transition.Step)
    assert (step.seat, step.action, step.actor, step.stand_in) == (seat, action, "clock", False)
    assert (step.state, step.events) == game.apply(match.state, seat, action)
    assert step.gone == {}  # he is there: no row of clock moves
    assert _snapshot(match) == before


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_clocks_moves_while_he_is_gone_l7(name):
    """L-7: each clock move while he is disconnected counts one more; from two on the stand-in plays."""
    game = engine.get(name)
    base = _match(name, _dealt(name, 1), version=5)
    seat = _seat(base)
    match = _due_at(base, seat)
    action = game.auto_action(match.state, seat)
    first = decisions.due_step(match, decisions.at_deadline(match, 5), action, away=True)
    assert first.gone == {str(seat): 1} and not first.stand_in
    match.gone = {str(seat): 2}
    stood = decisions.due_step(match, decisions.at_deadline(match, 5), action, away=True, stand_in=True)
    assert stood.gone == {str(seat): 3} and stood.stand_in
    back = decisions.due_step(match, decisions.at_deadline(match, 5), action, away=False)
    assert back.gone == {}  # connected again: the row is broken
    assert match.gone == {str(seat): 2}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_bots_move(name):
    game = engine.get(name)
    base = _match(name, _dealt(name, 1), version=5)
    seat = _seat(base)
    players = [{**p, "bot": p["seat"] == seat} for p in base.players]
    match = _match(name, base.state, version=5, players=players, deadlines={str(seat): NOW})
    what = decisions.at_deadline(match, 5)
    assert what == transition.Due(seat, "bot")
    action = game.legal_actions(match.state, seat)[0]
    step = decisions.due_step(match, what, action)
    assert (step.seat, step.actor, step.gone, step.stand_in) == (seat, "bot", None, False)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_due_move_the_rules_refuse_changes_nothing(name):
    """The engine's own code (C-8), a finished match, a tea being poured (H4-X4)."""
    base = _match(name, _dealt(name, 1), version=5)
    seat = _seat(base)
    match = _due_at(base, seat)
    what = decisions.at_deadline(match, 5)
    assert _code(decisions.due_step(match, what, {"type": "nonsense"})) != ""
    action = engine.get(name).auto_action(match.state, seat)
    finished = _match(name, match.state, status=Match.Status.FINISHED)
    assert _code(decisions.due_step(finished, what, action)) == "match_over"
    assert _code(decisions.due_step(None, what, action)) == "no_match"
    pouring = _match(name, match.state, tea={"phase": "pouring"})
    assert _code(decisions.due_step(pouring, what, action)) == "tea_time"
    assert _code(decisions.due_step(match, what, "card")) == "bad_action"


# --- the deal (a deadline's or a fair record's last value) -------------------------------------


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_dealers_deal_f2(name):
    """F-2: the first deal as soon as its record is complete, by the dealer."""
    state = engine.get(name).new_match(_rules(name))
    match = _match(name, state, version=0)
    what = decisions.deal(match)
    assert what == transition.Due(CHANCE, "dealer")
    action = _deal_action(state, name)
    step = decisions.due_step(match, what, action)
    assert (step.seat, step.actor, step.action, step.gone) == (CHANCE, "dealer", action, None)
    assert (step.state, step.events) == engine.get(name).apply(state, CHANCE, action)
    # the deadline of the dealer's seat asks for the same move
    due = _match(name, state, version=0, deadlines={str(CHANCE): NOW})
    assert decisions.at_deadline(due, 0) == transition.Due(CHANCE, "dealer")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_deal_that_must_wait_c7_h4x4(name):
    """Every refusal of ``deal``: none pending, the tea (H4-X4), the result pause (C-7)."""
    state = engine.get(name).new_match(_rules(name))
    assert _code(decisions.deal(None)) == "no_match"
    assert _code(decisions.deal(_match(name, state, status=Match.Status.FINISHED))) == "match_over"
    assert _code(decisions.deal(_match(name, _dealt(name, 1)))) == "not_dealing"
    assert _code(decisions.deal(_match(name, state, tea={"phase": "pouring"}))) == "tea_time"
    over = _round_over(name)
    assert CHANCE in engine.get(name).to_act(over)
    match = _match(name, over)
    just = datetime.fromtimestamp(NOW - 1, tz=UTC)
    long_ago = datetime.fromtimestamp(NOW - 60, tz=UTC)
    assert _code(decisions.deal(match, last_move_at=lambda: just)) == "result_showing"
    assert decisions.deal(match, last_move_at=lambda: long_ago) == transition.Due(CHANCE, "dealer")
    asked = []
    assert decisions.deal(_match(name, state), last_move_at=lambda: asked.append(1)) is not None
    assert asked == []  # the last move's time is asked only at a round's end


# --- tea with the narrator (H4-X4) ------------------------------------------------------------


def _tea_match(name: str, *, tea=None, state=None, **fields) -> Match:
    rules = {**_rules(name), "tea": True}
    return _match(name, state or _dealt(name, 1), version=5, rules=rules, tea=tea or {}, **fields)


def _after(match: Match, change: transition.Change) -> Match:
    """``match`` as ``accept.write`` leaves it (in memory)."""
    new = transition.fork(match)
    for field, value in change.fields.items():
        setattr(new, field, value)
    transition.bump(new)
    return new


@pytest.mark.parametrize("name", sorted(GAMES))
def test_asking_for_tea_and_every_answer_h4x4(name):
    """Ask, yes, no, continue: each a change of the tea, its deadline and its events; the match read untouched."""
    match = _tea_match(name)
    before = _snapshot(match)
    asked = decisions.tea_say(match, 101, "ask")
    assert isinstance(asked, transition.Change)
    assert set(asked.fields) == {"tea", "deadlines", "next_deadline"}
    assert asked.fields["tea"]["phase"] == "asking" and asked.fields["tea"]["seat"] == 1
    assert asked.fields["tea"]["until"] == NOW + 10
    assert asked.events == [{"type": "tea_asked", "seat": 1}]
    assert _snapshot(match) == before
    asking = _after(match, asked)
    refused = decisions.tea_say(asking, 102, "no")
    assert refused.fields["tea"]["phase"] is None and refused.events[0]["type"] == "tea_refused"
    others = [100 + s for s in range(2, GAMES[name] + 1)]
    for uid in others:
        said = decisions.tea_say(asking, uid, "yes")
        asking = _after(asking, said)
    # every other human said yes: no ten seconds; between tricks it is poured at once
    assert [e["type"] for e in said.events] == ["tea_yes", "tea_agreed", "tea_poured"]
    poured = asking
    assert poured.tea["phase"] == "pouring" and poured.deadlines == {}
    for uid in [100 + s for s in range(1, GAMES[name] + 1)]:
        said = decisions.tea_say(poured, uid, "continue")
        poured = _after(poured, said)
    assert said.events[-1] == {"type": "tea_over"} and poured.tea["phase"] is None


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_refusal_of_a_word_about_tea_h4x4(name):
    match = _tea_match(name)
    assert _code(decisions.tea_say(None, 101, "ask")) == "no_match"
    finished = _tea_match(name, status=Match.Status.FINISHED)
    assert _code(decisions.tea_say(finished, 101, "ask")) == "match_over"
    assert _code(decisions.tea_say(match, 999, "ask")) == "not_seated"
    assert _code(decisions.tea_say(_match(name, match.state), 101, "ask")) == "tea_off"
    asking = _tea_match(name, tea={"phase": "asking", "seat": 1, "until": NOW + 5, "asked": [1]})
    assert _code(decisions.tea_say(asking, 102, "ask")) == "tea_busy"
    assert _code(decisions.tea_say(_tea_match(name, tea={"asked": [1]}), 101, "ask")) == "tea_used"
    assert _code(decisions.tea_say(match, 102, "yes")) == "no_tea"
    assert _code(decisions.tea_say(match, 102, "continue")) == "no_tea"
    assert _code(decisions.tea_say(asking, 101, "yes")) == "own_tea"
    assert _code(decisions.tea_say(match, 101, "dance")) == "bad_frame"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_teas_deadline_h4x4(name):
    """Ten seconds and nobody said no: tea (poured at once between tricks);
    the chapter's end: every seat to act gets a fresh full turn (C-8)."""
    asking = _tea_match(name, tea={"phase": "asking", "seat": 1, "until": NOW - 0.01, "asked": [1]})
    assert decisions.at_deadline(asking, 5) == transition.Due(None, None)
    agreed = decisions.tea_due(asking)
    assert [e["type"] for e in agreed.events][0] == "tea_agreed"
    pouring = _after(asking, agreed)
    if pouring.tea["phase"] == "pouring":
        assert pouring.deadlines == {}  # the seats' clocks stop
        assert pouring.next_deadline == datetime.fromtimestamp(pouring.tea["until"], tz=UTC)
    ended = _tea_match(name, tea={"phase": "pouring", "seat": 1, "until": NOW - 1, "asked": [1]})
    assert decisions.at_deadline(ended, 5) == transition.Due(None, None)
    over = decisions.tea_due(ended)
    assert over.events == [{"type": "tea_over"}] and over.fields["tea"]["phase"] is None
    seat = _seat(ended)
    assert over.fields["deadlines"][str(seat)] > NOW
    assert ended.tea["phase"] == "pouring"  # the match read never changes


# --- a leave and a player back ------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_confirmed_leave_l3(name):
    """L-3: the match is abandoned by the leaver's seat, a version without a move."""
    match = _match(name, _dealt(name, 1), version=5, deadlines={"1": NOW + 9})
    before = _snapshot(match)
    left = decisions.leave(match, 2)
    assert left.events == [{"type": "left", "seat": 2}] and not left.quiet
    assert left.fields == {
        "status": Match.Status.ABANDONED,
        "leaver_seat": 2,
        "finished_at": datetime.fromtimestamp(NOW, tz=UTC),
        "deadlines": {},
        "next_deadline": None,
    }
    assert _snapshot(match) == before and match.status == Match.Status.ACTIVE


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_player_back_from_a_stand_in_l7(name):
    """L-7: back while the stand-in played: a version (his full clock, the badge off);
    back after one clock move: the count only; nothing counted: nothing to do."""
    base = _match(name, _dealt(name, 1), version=5)
    seat = _seat(base)
    uid = 100 + seat
    assert _code(decisions.came_back(None, uid)) == "no_match"
    assert (
        _code(decisions.came_back(_match(name, base.state, status=Match.Status.FINISHED), uid))
        == "match_over"
    )
    assert _code(decisions.came_back(base, 999)) == "not_gone"
    assert _code(decisions.came_back(base, uid)) == "not_gone"
    once = _match(name, base.state, version=5, gone={str(seat): 1})
    quiet = decisions.came_back(once, uid)
    assert quiet.quiet and quiet.fields == {"gone": {}} and quiet.events == []
    standing = _match(name, base.state, version=5, gone={str(seat): 2}, deadlines={str(seat): NOW + 5})
    back = decisions.came_back(standing, uid)
    assert not back.quiet and back.events == [{"type": "back", "seat": seat}]
    assert back.fields["gone"] == {} and back.fields["deadlines"][str(seat)] > NOW + 5  # a full turn
    assert standing.gone == {str(seat): 2}
