"""The state frames' JSON text (games.frames.dumps, issue 13: orjson on the move path).

For every kind of data a frame holds it writes the very text the standard
library writes compactly with non-ASCII kept, so pages, the replay scanner
and the tests read the same frames as before.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games import engine
from games.engine import CHANCE
from games.frames import dumps
from tests.security.test_visibility_model import VARIANTS, random_match

text = st.text(
    st.characters(exclude_categories=("Cs",)), max_size=12
)  # no lone surrogates: PostgreSQL stores none
scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | text
data = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(text, inner, max_size=5),
    max_leaves=30,
)


def reference(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@settings(max_examples=400, deadline=None)
@given(data)
def test_the_same_text_as_the_standard_library(value):
    assert dumps(value) == reference(value)


def test_persian_names_and_cards_stay_as_they_are():
    frame = {"type": "state", "user": "مریم", "cards": ["AS", "10H", "RJ"], "deadlines": {"2": 1500}}
    assert dumps(frame) == reference(frame)
    assert "مریم" in dumps(frame)


def test_integer_keys_are_written_as_the_standard_library_writes_them():
    assert dumps({1: "a", 2: [3]}) == reference({1: "a", 2: [3]}) == '{"1":"a","2":[3]}'


def test_every_view_and_event_of_random_matches_is_written_alike():
    for name, rules in VARIANTS:
        game = engine.get(name)
        state = game.new_match(rules)
        for _, seat, action in random_match(name, rules, seed=1, limit=200):
            state, events = game.apply(state, CHANCE if seat == 0 else seat, action)
            assert dumps(events) == reference(events), name
            for viewer in (None, *range(1, game.players + 1)):
                view = game.view(state, viewer)
                assert dumps(view) == reference(view), (name, viewer)
        assert dumps(state) == reference(state), name


def test_the_views_made_together_are_the_views_one_by_one():
    """Game.views (issue 13: the public parts built once) equals view() seat by
    seat, at every step of random matches of every variant, for the public
    view, every seat and a seat that does not exist."""
    for name, rules in VARIANTS:
        game = engine.get(name)
        state = game.new_match(rules)
        seats = [None, *range(1, game.players + 1), game.players + 3]
        for _, seat, action in random_match(name, rules, seed=2, limit=300):
            state, _ = game.apply(state, CHANCE if seat == 0 else seat, action)
            together = game.views(state, seats)
            assert list(together) == seats
            for viewer in seats:
                assert together[viewer] == game.view(state, viewer), (name, viewer)


def test_a_versions_frames_are_each_viewers_state_frame(monkeypatch):
    """frames.build (the views made together, the fields once) writes, for each
    player and for the public, the very text state_frame gives that viewer."""
    from types import SimpleNamespace

    from games import clock, frames

    monkeypatch.setattr(clock, "now", lambda: 1_700_000_000.25)
    for name, rules in VARIANTS:
        game = engine.get(name)
        state = game.new_match(rules)
        players = [
            {"seat": s, "user_id": 100 + s if s != 2 else None, "username": f"p{s}", "bot": s == 2}
            for s in range(1, game.players + 1)
        ]
        for step, (_, seat, action) in enumerate(random_match(name, rules, seed=3, limit=120)):
            state, events = game.apply(state, CHANCE if seat == 0 else seat, action)
            match = SimpleNamespace(
                pk=7,
                room_id=3,
                version=step + 1,
                status="active",
                state=state,
                players=players,
                deadlines={"1": 1_700_000_030.5},
                rules={"turn_seconds": 45},
                result=None,
                leaver_seat=None,
                tea={},
                gone={},
            )
            built = frames.build(match, game, events, step)
            assert built.public == dumps(frames.state_frame(match, game, None, events, prev=step)), name
            for p in players:
                if p["user_id"] is not None:
                    one = frames.state_frame(match, game, p["seat"], events, prev=step)
                    assert built.users[p["user_id"]] == dumps(one), (name, p["seat"])
            assert sorted(built.users) == built.players
