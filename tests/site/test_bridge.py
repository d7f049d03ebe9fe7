"""infra/bridge.py (issue 13): synchronous code awaits a layer coroutine on the
server's loop when it runs on a thread that loop lent it, else on one
background loop kept for the process (its layer's Redis connections too)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async

from infra import bridge


async def _which_loop():
    return asyncio.get_running_loop()


def test_without_a_server_loop_every_call_runs_on_one_loop_kept_for_the_process():
    seen = []

    def call():
        seen.append(bridge.run(_which_loop))

    for _ in range(2):
        thread = threading.Thread(target=call)
        thread.start()
        thread.join()
    seen.append(bridge.run(_which_loop))
    assert len({id(loop) for loop in seen}) == 1 and seen[0].is_running()


async def test_on_a_thread_the_server_loop_lent_the_call_runs_on_that_loop():
    here = asyncio.get_running_loop()
    got = await sync_to_async(bridge.run, thread_sensitive=False)(_which_loop)
    assert got is here


async def test_calling_it_on_a_running_loop_is_refused():
    with pytest.raises(RuntimeError):
        bridge.run(_which_loop)


def test_the_result_and_the_error_come_back():
    async def add(a, b):
        return a + b

    async def fail():
        raise ValueError("no")

    assert bridge.run(add, 2, 3) == 5
    with pytest.raises(ValueError):
        bridge.run(fail)
