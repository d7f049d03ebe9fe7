"""Issue 35: the locked path's writer, ``accept.write``, against one table of decided values.

Every value a decision returns (games/decisions.py, ``transition.check``) is
persisted the same way under the row lock: a ``Step`` appends its move by
its actor and moves the version on by one (C-8), a ``Change`` saves its
fields and moves the version on by one with no move (H4-X4: tea; L-3: a
leave; L-7: a player back), a quiet ``Change`` saves its fields alone (no
version, nothing announced). Nothing else of the row changes.
"""

from __future__ import annotations

import pytest
from django.db import transaction

from games import accept, clock, decisions, engine, transition
from games.engine import CHANCE
from games.models import Match
from tests.games.test_plain_path import _dealt_state, _match

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _quiet(settings):
    settings.DEADLINES = "inprocess"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _seat(match: Match) -> int:
    return min(engine.get(match.game).to_act(match.state) - {CHANCE})


def _decided(case: str, match: Match, users):
    """(the value to write, the move's actor or None for no move, whether the version moves on)."""
    game = engine.get(match.game)
    seat = _seat(match)
    if case == "person":
        step = transition.check(match, game.legal_actions(match.state, seat)[0], user_id=users[seat - 1].pk)
        return step, "player", True
    if case == "clock":
        match.deadlines = {str(seat): clock.now() - 1}
        what = decisions.at_deadline(match, match.version)
        return decisions.due_step(match, what, game.auto_action(match.state, seat), away=True), "clock", True
    if case == "tea":
        match.rules = {**match.rules, "tea": True}
        return decisions.tea_say(match, users[0].pk, "ask"), None, True
    if case == "leave":
        return decisions.leave(match, 2), None, True
    if case == "back":
        match.gone = {str(seat): 2}
        return decisions.came_back(match, users[seat - 1].pk), None, True
    assert case == "back_quietly"
    match.gone = {str(seat): 1}
    return decisions.came_back(match, users[seat - 1].pk), None, False


CASES = ["person", "clock", "tea", "leave", "back", "back_quietly"]


@pytest.mark.parametrize("case", CASES)
def test_one_table_of_decided_values_written_by_the_locked_writer(case, make_user):
    users = [make_user(f"l{case[:8]}{i}") for i in range(2)]
    stored = _match(users, "hokm2", _dealt_state("hokm2", 4))
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=stored.pk)
        decided, actor, bumps = _decided(case, match, users)
        assert not isinstance(decided, transition.Refusal), decided
        moves = match.moves.count()
        before = match.version
        outcome = accept.write(match, decided, user=users[_seat(match) - 1] if actor == "player" else None)
    after = Match.objects.get(pk=stored.pk)
    assert after.version == before + (1 if bumps else 0)
    assert (outcome is None) == (not bumps)
    if outcome is not None:
        assert (outcome.version, outcome.frames.version, outcome.frames.prev) == (
            after.version,
            after.version,
            before,
        )
    if actor is None:
        assert stored.moves.count() == moves
        for field, value in decided.fields.items():
            got = getattr(after, field)
            assert got == value or (
                field == "next_deadline" and value is not None and abs(got - value).total_seconds() < 1e-3
            )
        return
    move = stored.moves.get(seq=after.version)
    assert (move.seat, move.action, move.actor) == (decided.seat, decided.action, actor)
    assert after.state == decided.state
    if actor == "clock":
        assert after.gone == decided.gone == {str(decided.seat): 1}  # L-7: one clock move while gone
