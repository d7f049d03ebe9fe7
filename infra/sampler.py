"""A whole-process CPU profile of a running server (issue 39), off unless
``PROFILE_SAMPLES`` names a file.

cProfile sees one thread, and a Daphne process spends its CPU on several:
the event loop and the lanes' database threads (infra/lanes.py). Here a
thread of its own looks every ``PROFILE_EVERY`` seconds (0.005) at every
thread's Python stack (``sys._current_frames``) and at the CPU each thread
used since the last look (``/proc/self/task/<tid>/stat``); the CPU is
credited to the stack the thread is in. The CPU figures come in clock ticks
(10 ms), so one look is 0 or 1 tick; thousands of looks add up to where
the CPU went, like a sampling profiler's ``--idle``-less view.

Every ``PROFILE_WRITE`` seconds (5) the file is written again (a SIGKILLed
process leaves its last one): one line per stack, ``thread;frame;frame
ticks`` (the "folded" format flame graph tools read), innermost last.
``python -m infra.sampler FILE`` prints the functions by inclusive and
exclusive share.

The sampler sees a thread's stack where it let go of the GIL (a call into
the database, Redis, a wait), so its exclusive figures lean to those
places; the inclusive ones of the callers above them hold. For the event
loop alone, ``PROFILE_LOOP`` names a file that a cProfile of the main
thread (CPU time, ``time.thread_time``) is written to every
``PROFILE_WRITE`` seconds (read it with ``pstats``).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections import Counter
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_started = False


def _cpu_ticks(tid: int) -> int:
    try:
        parts = Path(f"/proc/self/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(parts[11]) + int(parts[12])


def _stack(frame) -> str:
    names = []
    while frame is not None:
        code = frame.f_code
        module = Path(code.co_filename).stem
        names.append(f"{module}.{getattr(code, 'co_qualname', code.co_name)}")
        frame = frame.f_back
    return ";".join(reversed(names))


def _label(thread: threading.Thread) -> str:
    name = thread.name
    if thread is threading.main_thread():
        return "loop"
    return name.rsplit("_", 1)[0] if "_" in name else name


class Sampler:
    def __init__(self, path: Path, every: float, write_every: float):
        self.path, self.every, self.write_every = path, every, write_every
        self.ticks: Counter[str] = Counter()
        self.seen: dict[int, int] = {}
        self.looks = 0

    def run(self) -> None:
        me = threading.get_ident()
        written = time.monotonic()
        while True:
            time.sleep(self.every)
            frames = sys._current_frames()
            for thread in threading.enumerate():
                if thread.ident == me or thread.native_id is None:
                    continue
                now = _cpu_ticks(thread.native_id)
                used = now - self.seen.get(thread.native_id, now)
                self.seen[thread.native_id] = now
                frame = frames.get(thread.ident)
                if used > 0 and frame is not None:
                    self.ticks[f"{_label(thread)};{_stack(frame)}"] += used
            self.looks += 1
            if time.monotonic() - written > self.write_every:
                self.write()
                written = time.monotonic()

    def write(self) -> None:
        lines = [f"{stack} {n}" for stack, n in self.ticks.most_common()]
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text("\n".join(lines) + "\n")
        tmp.replace(self.path)


def _loop_profile(target: str, write_every: float) -> None:
    """A cProfile of this (the main) thread, written to ``target`` by the main
    thread itself (a signal handler) every ``write_every`` seconds."""
    import cProfile

    path = target.replace("{pid}", str(os.getpid()))
    profile = cProfile.Profile(time.thread_time)

    def write(_signum, _frame):
        profile.disable()
        try:
            profile.dump_stats(path)
        finally:
            profile.enable()

    signal.signal(signal.SIGUSR2, write)

    def tick():
        while True:
            time.sleep(write_every)
            os.kill(os.getpid(), signal.SIGUSR2)

    threading.Thread(target=tick, daemon=True, name="loop-profile").start()
    profile.enable()


def start_from_env() -> None:
    """Start the sampler when ``PROFILE_SAMPLES`` is set, the event loop's
    profile when ``PROFILE_LOOP`` is (once per process, from the main thread)."""
    global _started
    if _started:
        return
    _started = True
    write_every = float(os.environ.get("PROFILE_WRITE", "5"))
    if os.environ.get("PROFILE_LOOP"):
        _loop_profile(os.environ["PROFILE_LOOP"], write_every)
    target = os.environ.get("PROFILE_SAMPLES")
    if not target:
        return
    path = Path(target.replace("{pid}", str(os.getpid())))
    sampler = Sampler(
        path,
        float(os.environ.get("PROFILE_EVERY", "0.005")),
        write_every,
    )
    threading.Thread(target=sampler.run, daemon=True, name="sampler").start()


def report(path: str, top: int = 40, prefix: str = "") -> str:
    """The functions of a folded file by inclusive and exclusive ticks."""
    inclusive: Counter[str] = Counter()
    exclusive: Counter[str] = Counter()
    threads: Counter[str] = Counter()
    total = 0
    for line in Path(path).read_text().splitlines():
        if not line.strip():
            continue
        stack, _, n = line.rpartition(" ")
        count = int(n)
        names = stack.split(";")
        if prefix and not any(prefix in name for name in names):
            continue
        total += count
        threads[names[0]] += count
        for name in set(names[1:]):
            inclusive[name] += count
        exclusive[names[-1]] += count
    out = [f"total {total} ticks ({total / TICK:.1f} s of CPU)"]
    out += [f"  thread {name}: {n / total:.1%}" for name, n in threads.most_common()]
    out.append("inclusive:")
    out += [f"  {n / total:6.1%}  {name}" for name, n in inclusive.most_common(top)]
    out.append("exclusive:")
    out += [f"  {n / total:6.1%}  {name}" for name, n in exclusive.most_common(top)]
    return "\n".join(out)


if __name__ == "__main__":
    print(
        report(
            sys.argv[1],
            int(sys.argv[2]) if len(sys.argv) > 2 else 40,
            sys.argv[3] if len(sys.argv) > 3 else "",
        )
    )
