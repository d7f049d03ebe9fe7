"""Autobahn (Daphne's WebSocket layer) formats the arguments of its debug
log lines whether or not debug logging is on: every frame received and sent
calls ``hltype``/``hlval`` (a qualified name and ``click.style`` colouring)
two or three times, for a line nobody logs. Here those two names, in the
modules that call them only as log arguments, make a lazy value instead,
formatted only if a debug line is really written (issue 39: the arrivals'
and the moves' CPU).

Likewise ``pformat`` in the protocol's module: every new connection
pretty-printed its thirty options for a debug line (``_connectionMade``),
about a tenth of the event loop's CPU while a restarted process's sockets
came back. Its one other use, the ``Timings`` of a connection as text,
keeps the real one."""

from __future__ import annotations


class _Lazy:
    __slots__ = ("fn", "args")

    def __init__(self, fn, *args):
        self.fn, self.args = fn, args

    def __str__(self) -> str:
        return str(self.fn(*self.args))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    __repr__ = __str__


def _lazy(fn):
    def make(*args, **kwargs):
        if kwargs:
            return _Lazy(lambda *a: fn(*a, **kwargs), *args)
        return _Lazy(fn, *args)

    make.__wrapped__ = fn
    return make


MODULES = ("autobahn.twisted.websocket", "autobahn.websocket.protocol")


def install() -> int:
    """Once per process; returns how many names were replaced (0 without autobahn)."""
    import importlib

    done = 0
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except Exception:  # noqa: BLE001 - no autobahn (another server): nothing to do
            continue
        for attr in ("hltype", "hlval"):
            fn = getattr(module, attr, None)
            if fn is not None and not hasattr(fn, "__wrapped__"):
                setattr(module, attr, _lazy(fn))
                done += 1
        fn = getattr(module, "pformat", None)
        timings = getattr(module, "Timings", None)
        if fn is not None and not hasattr(fn, "__wrapped__") and timings is not None:
            module.pformat = _lazy(fn)
            timings.__str__ = lambda self, fn=fn: fn(self._timings)
            done += 1
    return done
