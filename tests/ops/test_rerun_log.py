"""A browser test gets one rerun (tests/browser/conftest.py); the log must still say why its
first try failed, or a flaky test is never diagnosed (issue 35: the CI logs named reruns only)."""

from types import SimpleNamespace

from tests.conftest import RERUN_TRACE_LINES, pytest_runtest_logreport


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


def test_a_rerun_prints_the_last_lines_of_its_failure_and_the_worker(capsys):
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
