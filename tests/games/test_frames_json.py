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
