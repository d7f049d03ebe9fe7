"""The engine stays pure: no Django, no I/O, no `random` (ARCHITECTURE.md, C-5)."""

import ast
import pathlib

import pytest

ENGINE = pathlib.Path(__file__).resolve().parents[2] / "games" / "engine"
BOTS = pathlib.Path(__file__).resolve().parents[2] / "games" / "bots"
CLOCK_ONLY = {"clock.py": {"time"}}  # the bots' one contact with the outside: a monotonic clock
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


@pytest.mark.parametrize("path", engine_files(), ids=lambda p: p.name)
def test_engine_module_imports_nothing_impure(path):
    _check_pure(path, FORBIDDEN_MODULES)


@pytest.mark.parametrize("path", bot_files(), ids=lambda p: p.name)
def test_bot_module_imports_nothing_impure(path):
    """games/bots/ is pure too (issue 21): no Django, no I/O, no `random`; only clock.py reads the time."""
    _check_pure(path, FORBIDDEN_MODULES - CLOCK_ONLY.get(path.name, set()))


def _check_pure(path, forbidden):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] if node.level == 0 else []
        else:
            names = []
        for name in names:
            assert name.split(".")[0] not in forbidden, f"{path.name} imports {name}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"{path.name} calls {node.func.id}()"


def test_the_guard_itself_catches_a_django_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from django.db import models\n")
    tree = ast.parse(bad.read_text())
    modules = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert modules[0].split(".")[0] in FORBIDDEN_MODULES
