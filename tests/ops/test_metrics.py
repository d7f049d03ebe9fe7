"""/metrics (issue 39): protected, and what the move path's hooks count.

Each hook is checked against the behaviour it counts: an accepted act frame
over a real table socket, a refused one with its code, a bot's decision, a
deadline's lag, a fair deal substitute (F-4), database and Redis round trips.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.test import RequestFactory
from prometheus_client import REGISTRY

from games import clock
from games.models import Match
from ops import metrics
from ops import views as ops_views
from rooms import services as room_service
from tests.rooms.conftest import make_room


def sample(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


# --- protection -----------------------------------------------------------------------


def test_metrics_answer_loopback_only_without_a_token(monkeypatch):
    monkeypatch.delenv("METRICS_TOKEN", raising=False)
    rf = RequestFactory()
    assert ops_views.allowed(rf.get("/metrics", REMOTE_ADDR="127.0.0.1"))
    assert ops_views.allowed(rf.get("/metrics", REMOTE_ADDR="::1"))
    assert not ops_views.allowed(rf.get("/metrics", REMOTE_ADDR="203.0.113.9"))
    # through a proxy on the same machine: the proxy's headers give it away
    assert not ops_views.allowed(
        rf.get("/metrics", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9")
    )
    assert not ops_views.allowed(rf.get("/metrics", REMOTE_ADDR="127.0.0.1", HTTP_X_REAL_IP="203.0.113.9"))


def test_metrics_want_the_token_when_one_is_set(monkeypatch):
    monkeypatch.setenv("METRICS_TOKEN", "s3cret-token-for-the-scraper")
    rf = RequestFactory()
    assert not ops_views.allowed(rf.get("/metrics", REMOTE_ADDR="127.0.0.1"))
    assert not ops_views.allowed(rf.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong"))
    assert ops_views.allowed(
        rf.get(
            "/metrics", REMOTE_ADDR="198.51.100.7", HTTP_AUTHORIZATION="Bearer s3cret-token-for-the-scraper"
        )
    )


@pytest.mark.django_db
def test_the_endpoint_serves_the_text_format_or_404(client, monkeypatch):
    monkeypatch.delenv("METRICS_TOKEN", raising=False)
    response = client.get("/metrics", REMOTE_ADDR="127.0.0.1")
    assert response.status_code == 200
    body = response.content.decode()
    for name in (
        "takhteh_move_seconds",
        "takhteh_actions_total",
        "takhteh_sockets_open",
        "takhteh_live_tables",
        "takhteh_deadline_lag_seconds",
        "takhteh_fair_substitutes_total",
        "takhteh_bot_think_seconds",
        "takhteh_db_round_trips_total",
        "takhteh_redis_round_trips_total",
        "takhteh_event_loop_lag_seconds",
    ):
        assert f"# TYPE {name.removesuffix('_total')}" in body, name
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.9").status_code == 404


# --- what the hooks count ---------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_an_accepted_and_a_refused_act_frame_are_counted(connect, make_user):
    users = [await sync_to_async(make_user)(f"m{i}") for i in range(4)]
    room = await sync_to_async(make_room)(users[0], users[1:])
    conns = [await connect(room, u) for u in users]
    opened = sample("takhteh_sockets_open", kind="table")
    assert opened >= 4
    await sync_to_async(room_service.start)(room, users[0])
    accepted = sample("takhteh_actions_total", result="accepted")
    moves = sample("takhteh_move_seconds_count", game="hokm4")
    stale = sample("takhteh_actions_total", result="stale_version")
    db_loop = sample("takhteh_db_round_trips_total", path="loop") + sample(
        "takhteh_db_round_trips_total", path="orm"
    )

    # The first legal action of the seat to act, then the same frame again (now stale).
    actor = None
    for _ in range(200):
        for c in conns:
            await c.pump(0.02)
        actor = next(
            (
                c
                for c in conns
                if c.state and c.state["view"].get("viewer") in c.state["view"].get("to_act", [])
            ),
            None,
        )
        if actor is not None and actor.state["view"].get("legal"):
            break
    assert actor is not None
    st = actor.state
    frame = {"type": "act", "action": st["view"]["legal"][0], "v": st["v"], "ref": "one"}
    await actor.send(frame)
    await actor.wait_for(lambda f: f["type"] == "ack" and f["ref"] == "one")
    assert sample("takhteh_actions_total", result="accepted") == accepted + 1
    assert sample("takhteh_move_seconds_count", game="hokm4") == moves + 1
    assert (
        sample("takhteh_db_round_trips_total", path="loop")
        + sample("takhteh_db_round_trips_total", path="orm")
        > db_loop
    )
    await actor.send({**frame, "ref": "two"})
    await actor.wait_for(lambda f: f["type"] == "error" and f.get("ref") == "two")
    assert sample("takhteh_actions_total", result="stale_version") == stale + 1
    for c in conns:
        await c.close()
    assert sample("takhteh_sockets_open", kind="table") == opened - 4


def test_redis_round_trips_are_counted(settings):
    if not settings.REDIS_URL:
        pytest.skip("needs Redis")
    before = sample("takhteh_redis_round_trips_total")
    cache.set("ops-metrics-probe", 1, 5)
    cache.get("ops-metrics-probe")
    assert sample("takhteh_redis_round_trips_total") >= before + 2


@pytest.mark.django_db
def test_a_bots_thought_is_timed_by_level(make_user):
    from games import engine, services
    from tests.replays.conftest import play_out, start_match

    match = start_match("hokm4", make_user("b1"), [make_user(f"b{i}") for i in range(2, 5)])
    match = play_out(match, stop_after=match.version + 2)
    seat = min(s for s in engine.get(match.game).to_act(match.state) if s)
    before = sample("takhteh_bot_think_seconds_count", level="easy")
    action = services.bot_action(match.game, match.state, seat, level="easy")
    assert action in engine.get(match.game).view(match.state, seat)["legal"]
    assert sample("takhteh_bot_think_seconds_count", level="easy") == before + 1


@pytest.mark.django_db
def test_the_deadline_lag_runs_from_due_to_played(make_user):
    from games import ticker
    from tests.replays.conftest import start_match

    match = start_match("hokm4", make_user("d1"), [make_user(f"d{i}") for i in range(2, 5)])
    due_at = clock.now_dt() - timedelta(seconds=3)
    Match.objects.filter(pk=match.pk).update(next_deadline=due_at)
    count = sample("takhteh_deadline_lag_seconds_count")
    slow = sample("takhteh_deadline_lag_seconds_bucket", le="2.0")
    rows = ticker.due()
    version = next(v for pk, v, _bot in rows if pk == match.pk)
    ticker.due()  # seen twice, counted once
    metrics.deadline_done(match.pk, version)
    assert sample("takhteh_deadline_lag_seconds_count") == count + 1
    assert sample("takhteh_deadline_lag_seconds_bucket", le="2.0") == slow  # about 3 s late: above 2 s


@pytest.mark.django_db
def test_f4_a_substitute_is_counted(make_user, settings):
    from games import fairness
    from games.models import DealRecord
    from tests.replays.conftest import start_match

    settings.FAIR_WAIT_SECONDS = 30  # the values wait: nobody answers
    match = start_match("hokm4", make_user("f1"), [make_user(f"f{i}") for i in range(2, 5)])
    record = DealRecord.objects.filter(match=match).order_by("-number").first()
    if record is None or record.phase not in (DealRecord.Phase.COMMIT, DealRecord.Phase.REVEAL):
        pytest.skip("this match's first deal needs no answer")
    before = sample("takhteh_fair_substitutes_total")
    waiting = sum(1 for c in record.commitments if c is None)
    fairness.substitute_missing(match.pk, record.number, force=True)
    assert sample("takhteh_fair_substitutes_total") == before + waiting > before


async def test_the_event_loops_lag_is_sampled():
    count = sample("takhteh_event_loop_lag_seconds_count")
    metrics.watch_loop(interval=0.01)
    end = time.monotonic() + 5
    while sample("takhteh_event_loop_lag_seconds_count") < count + 2 and time.monotonic() < end:
        import asyncio

        await asyncio.sleep(0.02)
    assert sample("takhteh_event_loop_lag_seconds_count") >= count + 2


def test_a_workers_own_endpoint_on_loopback(monkeypatch):
    import socket
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.delenv("WORKER_METRICS_PORT", raising=False)
    assert metrics.serve_worker() is None  # off unless asked for
    monkeypatch.setenv("WORKER_METRICS_PORT", str(port))
    assert metrics.serve_worker() == port
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        assert b"takhteh_deadline_lag_seconds" in r.read()
