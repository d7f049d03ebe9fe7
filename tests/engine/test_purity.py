"""The engine stays pure: no Django, no I/O, no `random` (ARCHITECTURE.md, C-5)."""

import ast
import pathlib

import pytest

ENGINE = pathlib.Path(__file__).resolve().parents[2] / "games" / "engine"
BOTS = pathlib.Path(__file__).resolve().parents[2] / "games" / "bots"
CLOCK_ONLY = {"clock.py": {"time"}}
"""games/bots/clock.py alone may read the time (a decision's budget)."""
FORBIDDEN_MODULES = {
    "django",
    "channels",
    "celery",
    "redis",
    "psycopg",
    "rest_framework",
    "random",
    "secrets",
    "os",
    "io",
    "socket",
    "pathlib",
    "subprocess",
    "requests",
    "urllib",
    "http",
    "time",
    "datetime",
    "sqlite3",
    "shutil",
    "tempfile",
}
FORBIDDEN_CALLS = {"open", "print", "input", "eval", "exec", "__import__"}


def engine_files():
    files = sorted(ENGINE.rglob("*.py"))
    assert files, "the engine package is missing"
    return files


def bot_files():
    files = sorted(BOTS.rglob("*.py"))
    assert files, "the bots package is missing"
    return files


def impurities(path, forbidden=FORBIDDEN_MODULES) -> list[str]:
    """Every forbidden import and call in the file at ``path``."""
    found = []
    tree = ast.parse(pathlib.Path(path).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] if node.level == 0 else []
        else:
            names = []
        found += [f"imports {n}" for n in names if n.split(".")[0] in forbidden]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
            found.append(f"calls {node.func.id}()")
    return found


@pytest.mark.parametrize("path", engine_files(), ids=lambda p: p.name)
def test_engine_module_imports_nothing_impure(path):
    assert impurities(path) == []


@pytest.mark.parametrize("path", bot_files(), ids=lambda p: p.name)
def test_bot_module_imports_nothing_impure(path):
    """games/bots/ is pure too (issue 21): no Django, no I/O, no `random`; only clock.py reads the time."""
    assert impurities(path, FORBIDDEN_MODULES - CLOCK_ONLY.get(path.name, set())) == []


@pytest.mark.parametrize(
    "source, finding",
    [
        ("from django.db import models\n", "imports django.db"),
        ("import random\n", "imports random"),
        ("def f():\n    import os.path\n", "imports os.path"),
        ("x = open('f')\n", "calls open()"),
    ],
)
def test_the_guard_itself_catches_what_it_forbids(tmp_path, source, finding):
    bad = tmp_path / "bad.py"
    bad.write_text(source)
    assert impurities(bad) == [finding]
