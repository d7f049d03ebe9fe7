"""Issue 14 (2): a Redis restart during a live match freezes nothing.

A Redis of the test's own (on a free port) serves a real Celery worker as
its broker, channel layer and cache; the match's turns time out one after
another (C-8, L-5: nobody is connected). Redis is killed and started again
mid-match. Required: the worker survives, the clock keeps playing during
the outage (the deadlines live in the database, the ticker needs nothing
else; a broadcast that fails is logged, never a reason to stop), every
turn gets exactly one move, and play goes on after Redis is back.
"""

from __future__ import annotations

import shutil
import socket
import subprocess

import pytest

from games.models import Match, Move

from .test_deadlines import TURN, Worker, auto_moves, start_hokm4, wait_until


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    def __init__(self, tmp):
        self.port = _free_port()
        self.tmp = tmp
        self.proc = None
        self.start()

    def start(self):
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.tmp),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        assert wait_until(self.answers, 10), "redis did not start"

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self):
        self.proc.kill()
        self.proc.wait(10)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(180)
def test_a_redis_restart_mid_match_loses_no_turn_and_the_worker_survives(
    settings, tmp_path, alice, bob, charlie, dave, capsys
):
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server")
    redis = PrivateRedis(tmp_path)
    settings.DEADLINES = "celery"
    settings.TABLE = {**settings.TABLE, "TURN_SCALE": 0.1, "BOT_DELAY": 0.05, "ROUND_PAUSE": 0.2}
    real_redis = settings.REDIS_URL
    settings.REDIS_URL = redis.url  # what the worker is started with
    worker = Worker(f"fault-{redis.port}", beat=False, tmp=tmp_path)
    settings.REDIS_URL = real_redis
    try:
        room, match = start_hokm4(alice, bob, charlie, dave)
        assert wait_until(lambda: len(auto_moves(match)) >= 2, 4 * TURN + 10), worker.log.read_text()[-2000:]
        redis.kill()
        before = len(auto_moves(match))
        # Redis is down: the clock goes on (database only), the broadcasts fail and are logged
        assert wait_until(lambda: len(auto_moves(match)) >= before + 2, 4 * TURN + 10), (
            worker.log.read_text()[-3000:]
        )
        down = len(auto_moves(match))
        redis.start()
        assert wait_until(lambda: len(auto_moves(match)) >= down + 2, 6 * TURN + 20), worker.log.read_text()[
            -3000:
        ]
        assert worker.proc.poll() is None, worker.log.read_text()[-3000:]
        seqs = list(Move.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, len(seqs) + 1))
        assert Match.objects.get(pk=match.pk).version == seqs[-1]
        with capsys.disabled():
            print(
                f"\n[redis restart] clock moves: {before} before, {down - before} while down, "
                f"{len(auto_moves(match)) - down} after; worker alive"
            )
    finally:
        worker.stop()
        if redis.proc.poll() is None:
            redis.kill()
