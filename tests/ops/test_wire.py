"""ops/wire.py: Autobahn's debug-log arguments are formatted only when written (issue 39)."""

from __future__ import annotations

import autobahn.twisted.websocket as tws
import autobahn.websocket.protocol as proto
from autobahn import util

from ops import wire


def test_the_log_arguments_are_lazy_and_format_as_before():
    wire.install()
    assert wire.install() == 0  # once
    for module in (tws, proto):
        value = module.hlval(42)
        assert isinstance(value, wire._Lazy)
        assert str(value) == util.hlval(42)
        assert f"{value}" == util.hlval(42)
        name = module.hltype(test_the_log_arguments_are_lazy_and_format_as_before)
        assert str(name) == util.hltype(test_the_log_arguments_are_lazy_and_format_as_before)
    assert str(proto.hlval("x", color="red")) == util.hlval("x", color="red")


def test_nothing_is_formatted_until_written(monkeypatch):
    calls = []
    monkeypatch.setattr(tws, "hlval", wire._lazy(lambda v: calls.append(v) or str(v)))
    value = tws.hlval(7)
    assert calls == []
    assert str(value) == "7" and calls == [7]


def test_a_connections_options_are_not_pretty_printed_for_an_unwritten_line():
    """Issue 39: ``_connectionMade`` pformat-ed thirty options per connection."""
    from pprint import pformat

    wire.install()
    value = proto.pformat([("a", 1)])
    assert isinstance(value, wire._Lazy) and str(value) == pformat([("a", 1)])
    timings = proto.Timings()
    timings.track("x")
    assert isinstance(str(timings), str) and "'x'" in str(timings)
