"""The process's one door to the double-dummy solver (Bo Haglund's DDS, ``libdds`` through ``endplay``).

DDS 2.9.0 (the one ``endplay`` 0.5 ships) keeps its search memory per solver
thread: ``SolveBoard(..., threadIndex)`` works in the memory of slot
``threadIndex``, ``CalcDDtable`` runs on every slot, and ``SetMaxThreads``
frees and reallocates them all. Two Python threads in one slot at once (ctypes
lets go of the GIL during the call), a table computed beside a solve, or a
reconfiguration beside either, corrupt that memory: the process dies of a
segfault in ``libdds.so`` (reproduced: four threads solving in slot 0 without
a lock, or one thread computing a replay's double-dummy table while the bots
solve under their lock, crash within seconds; ``tests/bots/test_dds.py``).

So every call into the library goes through this module, under one lock, with
one solver slot (``SetMaxThreads(1)``, made under the lock when this module is
first imported, before any solve). One lock rather than a slot per thread:
DDS's maintainers later removed statically allocated memory that made
simultaneous calls unsafe even in different slots (DDS pull request 147), a
solve costs milliseconds (so a decision waits at most one of the other's
solves), and the machines run one process per core. No other module may
import ``endplay.dds`` or ``endplay._dds`` (``Deal.legal_moves`` calls the
solver too): the test checks the source tree.
"""

from __future__ import annotations

import threading

try:
    import endplay._dds as raw  # importing it calls SetMaxThreads(0) once, before anyone can solve
    from endplay.dds import calc_dd_table as _calc_dd_table
    from endplay.dds import solve_board as _solve_board

    HAVE_DDS = True
except ImportError:  # pragma: no cover - without the optional solver
    raw = None
    HAVE_DDS = False

LOCK = threading.Lock()
"""Held during every call into ``libdds`` of this process."""

if HAVE_DDS:
    with LOCK:
        raw.SetMaxThreads(1)  # one slot: slot 0 for every call, one call at a time


def future_tricks(d, target: int, solutions: int = 2, mode: int = 1):
    """``SolveBoard`` on a raw ``deal`` (the seat to act's cards and their tricks), in slot 0."""
    fut = raw.futureTricks()
    with LOCK:
        raw.SolveBoard(d, target, solutions, mode, fut, 0)  # raises DDSError on a bad deal
    return fut


def solve(deal) -> list:
    """``endplay.dds.solve_board``: [(card, tricks)] for the player to act of an ``endplay`` ``Deal``."""
    with LOCK:
        return list(_solve_board(deal))


def dd_table(deal):
    """``endplay.dds.calc_dd_table``: the tricks of each declarer in each strain (it uses every slot)."""
    with LOCK:
        return _calc_dd_table(deal)


__all__ = ["HAVE_DDS", "LOCK", "dd_table", "future_tricks", "raw", "solve"]
