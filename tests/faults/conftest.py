"""Fault tests (issue 14): real services started by the test, then broken on purpose.

They run with ``make faults`` (and ``.ci/run``), not with ``make test``: set
``FAULTS=1`` to run them by hand (``FAULTS=1 pytest tests/faults``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_configure(config):
    config.addinivalue_line("markers", "faults: kills a real service during a live match (make faults)")


def pytest_collection_modifyitems(config, items):
    if os.environ.get("FAULTS") == "1":
        return
    skip = pytest.mark.skip(reason="a fault test: run with `make faults` (FAULTS=1)")
    for item in items:
        if HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(skip)


from tests.faults.harness import fault_site  # noqa: E402, F401 - the fault tests' shared setup
