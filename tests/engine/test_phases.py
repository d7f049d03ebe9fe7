"""Issue 12: docs/engine.md names exactly the phases the engines use."""

import re
from pathlib import Path

import pytest

from games import engine

from . import walk

DOC = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text()


def documented() -> dict[str, set[str]]:
    out = {}
    table = DOC.split("The phases each game uses", 1)[1].split("\n\n", 2)[1]
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and re.fullmatch(r"[a-z0-9, ]+", cells[0]) and "`" in cells[1]:
            for name in cells[0].split(","):
                if name.strip() in engine.GAMES:
                    out[name.strip()] = set(re.findall(r"`([a-z_]+)`", cells[1]))
    return out


def seen_phases(name: str, matches: int = 3) -> set[str]:
    seen = set()
    for seed in range(matches):
        rules = {"jokers": True} if name.startswith("shelem") and seed == 1 else {}
        if name.startswith("hokm"):
            rules = {"target": 3}
        if name.startswith("shelem"):
            rules = {**rules, "cap": 300}
        seen |= {state["phase"] for state in walk.states(name, rules, seed)}
    return seen


def test_every_game_has_its_phases_documented():
    assert set(documented()) == set(engine.GAMES)


@pytest.mark.parametrize("name", ["hokm4", "hokm2", "shelem4", "shelem2", "bridge"])
def test_the_documented_phases_are_the_ones_the_engine_uses(name):
    assert seen_phases(name) <= documented()[name]
