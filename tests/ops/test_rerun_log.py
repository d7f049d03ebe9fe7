"""A browser test gets one rerun (tests/browser/conftest.py); the log must still say why its
first try failed, or a flaky test is never diagnosed (issue 35: the CI logs named reruns only)."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

from tests.conftest import RERUN_TRACE_LINES, pytest_runtest_logreport

ROOT = Path(__file__).resolve().parents[2]


def report(outcome: str, text: str = "", worker: str | None = None):
    node = SimpleNamespace(gateway=SimpleNamespace(id=worker)) if worker else None
    return SimpleNamespace(
        outcome=outcome,
        longrepr=text or None,
        longreprtext=text,
        nodeid="tests/x.py::test_y",
        when="call",
        node=node,
    )


def test_a_rerun_without_entries_prints_the_last_lines_of_its_failure_and_the_worker(capsys):
    trace = "\n".join(f"line {n}" for n in range(100)) + "\nE   AssertionError: the sheet never opened"
    pytest_runtest_logreport(report("rerun", trace, worker="gw2"))
    out = capsys.readouterr().out
    assert "RERUN tests/x.py::test_y (call on gw2)" in out
    assert "E   AssertionError: the sheet never opened" in out
    assert "line 99" in out and "line 0\n" not in out
    assert len([x for x in out.splitlines() if x.startswith("    ")]) == RERUN_TRACE_LINES


def test_a_pass_or_a_failure_prints_nothing_more(capsys):
    pytest_runtest_logreport(report("passed"))
    pytest_runtest_logreport(report("failed", "E   boom"))
    pytest_runtest_logreport(report("rerun", ""))
    assert capsys.readouterr().out == ""


def test_a_real_rerun_under_xdist_names_the_tests_own_line_and_the_error(tmp_path):
    """Through pytest itself, two xdist workers: a test that fails in one of the suite's
    helpers the first time and passes the second; the log names the test's own line and the
    helper's."""
    probe = ROOT / "tests" / f"test_zz_rerun_probe_{os.getpid()}.py"
    marker = tmp_path / "tried"
    probe.write_text(
        textwrap.dedent(
            f"""
            from pathlib import Path
            import pytest
            from tests.browser.conftest import wait_until

            @pytest.mark.flaky(reruns=1)
            def test_flaky_once():
                marker = Path({str(marker)!r})
                if not marker.exists():
                    marker.write_text("x")
                    wait_until(lambda: False, timeout=0.1, message="a page that never answers")
            """
        )
    )
    try:
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "2", str(probe)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        probe.unlink()
    out = run.stdout
    assert run.returncode == 0, out[-3000:]
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("RERUN ") and "its failure" in line)
    assert "test_flaky_once (call on gw" in lines[at]
    cause = lines[at + 1 : at + 6]
    assert cause[0] == f"    tests/{probe.name}:11", cause  # the test's own line ...
    assert cause[1].lstrip().startswith(">") and "wait_until(lambda: False" in cause[1], cause
    assert cause[2].startswith("    tests/browser/conftest.py:"), cause  # ... and the helper's
    assert cause[3].lstrip().startswith(">") and "raise AssertionError" in cause[3], cause
    assert (
        cause[4].lstrip().startswith("E") and "timed out waiting for a page that never answers" in cause[4]
    ), cause
