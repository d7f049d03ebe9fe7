"""Issue 12 and 14: the client frames' declared shapes, docs/protocol.md, and hostile frames."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rooms import protocol

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()

VALID = {
    "ping": {"type": "ping"},
    "sync": {"type": "sync", "ref": "r1"},
    "act": {"type": "act", "action": {"type": "play", "card": "AS"}, "v": 3, "ref": 7},
    "react": {"type": "react", "reaction": "clap"},
    "sit": {"type": "sit", "seat": 2},
    "stand": {"type": "stand"},
    "ready": {"type": "ready", "ready": False},
    "bot": {"type": "bot", "seat": 3, "bot": True},
    "start": {"type": "start"},
    "rematch": {"type": "rematch", "agree": True},
    "leave": {"type": "leave", "confirm": True},
    "tea": {"type": "tea", "say": "ask"},  # H4-X4
    "throw": {"type": "throw", "item": "tomato", "target": 2},  # H4-X5
    "hide_reactions": {"type": "hide_reactions", "hide": True},
}
ACTIONS = {
    "play": {"card": "AS"},
    "early": {"card": "KD"},
    "take_back": {},
    "pick_up": {},
    "pass": {},
    "run": {"cards": ["AS", "KS", "QS"]},
    "discard": {"cards": ["2C", "3C", "4C", "5C"]},
    "trump": {"suit": "middle"},
    "draft": {"take": True},
    "bid": {"amount": 105},
    "sars": {"sars": False},
    "call": {"call": "3NT"},
}


def _section(title: str) -> str:
    start = DOC.index(title)
    end = DOC.find("\n## ", start + 1)
    return DOC[start:end]


def _rows(text: str) -> dict[str, set[str]]:
    """First column's back-quoted names -> the back-quoted field names of the second column."""
    out = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].startswith("`"):
            continue
        fields = set(re.findall(r"`([a-z_]+)`", cells[1].split("(")[0] if "(" in cells[1] else cells[1]))
        fields = {f for f in re.findall(r"`([a-z_]+)`", cells[1]) if f in _all_field_names()} | (
            fields & set()
        )
        for name in re.findall(r"`([a-z_]+)`", cells[0]):
            out[name] = fields
    return out


def _all_field_names() -> set[str]:
    names = set()
    for model in protocol.FRAMES:
        names |= set(model.model_fields)
    for model in typing.get_args(typing.get_args(protocol.Action)[0]):
        names |= set(model.model_fields)
    return names - {"type", "ref"}


def _fields(model) -> set[str]:
    return set(model.model_fields) - {"type", "ref"}


def test_the_documented_client_frames_are_exactly_the_declared_shapes():
    documented = _rows(_section("## Client → server").split("The `action` of an `act`")[0])
    declared = {name: _fields(model) for name, model in protocol.TYPES.items()}
    assert documented == declared


def test_the_documented_actions_are_exactly_the_declared_action_shapes():
    documented = _rows(_section("## Client → server").split("The `action` of an `act`")[1])
    models = typing.get_args(typing.get_args(protocol.Action)[0])
    declared = {m.model_fields["type"].annotation.__args__[0]: _fields(m) for m in models}
    assert documented == declared
    assert set(ACTIONS) == set(declared)


@pytest.mark.parametrize("name", sorted(VALID))
def test_every_documented_frame_is_accepted_in_its_shape(name):
    frame = protocol.parse(VALID[name])
    assert frame.type == name


@pytest.mark.parametrize("kind", sorted(ACTIONS))
def test_every_documented_action_is_accepted_in_its_shape(kind):
    frame = protocol.parse({"type": "act", "v": 0, "action": {"type": kind, **ACTIONS[kind]}})
    assert frame.action.type == kind


def _hostile(frame: dict):
    """Each field of ``frame`` with a wrong type, an extra field, and a null type."""
    for key, value in frame.items():
        if key == "type":
            continue
        wrong = [1] if key == "ref" else {bool: "false", int: "1", str: 5, dict: "x", list: "x"}[type(value)]
        yield f"{key} wrong type", {**frame, key: wrong}, key
    yield "extra field", {**frame, "admin": True}, "admin"


CASES = [(name, label, bad, key) for name, frame in VALID.items() for label, bad, key in _hostile(frame)]
CASES += [
    (
        "act",
        f"action {kind} field wrong",
        {"type": "act", "v": 0, "action": {"type": kind, k: [None]}},
        "action",
    )
    for kind, fields in ACTIONS.items()
    for k in fields
]
CASES += [
    (
        "act",
        "discard with lists",
        {"type": "act", "v": 0, "action": {"type": "discard", "cards": [[1], [2]]}},
        "cards",
    ),
    (
        "act",
        "discard with null",
        {"type": "act", "v": 0, "action": {"type": "discard", "cards": ["KS", None]}},
        "cards",
    ),
    ("act", "seat true", {"type": "act", "v": 0, "seat": True, "action": {"type": "pass"}}, "seat"),
    ("act", "negative version", {"type": "act", "v": -1, "action": {"type": "pass"}}, "v"),
    ("act", "unknown action", {"type": "act", "v": 0, "action": {"type": "win_now"}}, "action"),
    ("ready", "string false", {"type": "ready", "ready": "false"}, "ready"),
]


@pytest.mark.parametrize("name, label, bad, key", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_a_hostile_version_of_every_frame_is_bad_frame_naming_the_field(name, label, bad, key):
    with pytest.raises(protocol.FrameError) as caught:
        protocol.parse(bad)
    assert caught.value.code == "bad_frame"
    assert key in caught.value.detail


def test_unknown_and_typeless_frames():
    for raw, code in [({"type": "explode"}, "unknown_type"), ({"type": 5}, "bad_frame"), ([1], "bad_frame")]:
        with pytest.raises(protocol.FrameError) as caught:
            protocol.parse(raw)
        assert caught.value.code == code


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(
    kind=st.sampled_from(sorted(VALID) + ["nope"]),
    fields=st.dictionaries(
        st.sampled_from(sorted(_all_field_names()) + ["ref", "x"]), json_values, max_size=4
    ),
)
def test_fuzzed_frames_are_accepted_or_refused_never_raise_anything_else(kind, fields):
    raw = json.loads(json.dumps({"type": kind, **fields}))
    try:
        frame = protocol.parse(raw)
    except protocol.FrameError as exc:
        assert exc.code in {"bad_frame", "unknown_type"}
    else:
        assert frame.type == kind
