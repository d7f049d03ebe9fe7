"""E-1, E-3 (issue 37): an arena's match and a challenge deal go on through a real
restart of Daphne and of the worker.

The arena's table is seated by the arena's service (its room, its match
started), its four players play over real WebSocket pages on the site's own
Daphne, and the site's Celery worker (its deadline ticker) deals the rounds.
Mid-match, both processes are SIGKILLed and started again; the pages
reconnect as a table page does. Nothing lost means: the match plays on to
its end from the database, its move log is one chain, the arena scores it
once (a win 2 to each winner, 0 to each loser, one match played each), and
its four players are free again or seated at their next table, none twice.
A challenge deal (one entrant, three bots the worker's deadlines play) the
same: it ends and counts once, the entry still one deal.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from events import arena
from events.models import Arena, ArenaPlayer, ArenaTable
from games import engine
from games.models import Match, Move
from tests.faults.harness import _true
from tests.faults.harness_players import PAGE_BACKOFF, Player, shut_down, until
from tests.faults.harness_procs import Daphne, Worker, direct_database_url, site_env
from tests.rooms.conftest import session_key_for

pytestmark = [pytest.mark.faults, pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def _version(match_id: int) -> tuple[int, str]:
    return tuple(Match.objects.filter(pk=match_id).values_list("version", "status").first())


@pytest.mark.timeout(240)
async def test_e3_an_arena_match_survives_daphne_and_the_worker_killed_mid_match(
    settings, tmp_path, make_user, capsys
):
    if not settings.REDIS_URL:
        pytest.skip("needs Redis (REDIS_URL)")
    tag = uuid.uuid4().hex[:8]
    env = site_env(direct_database_url(), settings.REDIS_URL, tag)

    def setup():
        users = [make_user(f"ar{tag[:4]}{i}") for i in range(1, 5)]
        a = Arena.objects.create(
            name="Restart arena",
            game="hokm4",
            rules={"target": 3, "middle_card": False, "turn_seconds": 60},
            starts_at=timezone.now() - timedelta(minutes=1),
            minutes=60,
            status=Arena.Status.RUNNING,
        )
        for user in users:
            arena.join(a, user)
        (table,) = arena.seat_free(a)
        match = Match.objects.get(pk=table.match_id)
        by_seat = {p["seat"]: p["user_id"] for p in match.players}
        keys = {u.pk: (u.username, session_key_for(u)) for u in users}
        from rooms.models import Room

        code = Room.objects.get(pk=table.room_id).code
        return a, table, code, [(*keys[by_seat[s]], by_seat[s]) for s in sorted(by_seat)]

    a, table, code, seats = await sync_to_async(setup)()
    killed_at, resumed_s, ended = await killed_mid_match(tmp_path, env, code, seats, table.match_id, 25)

    def outcome():
        match = Match.objects.get(pk=table.match_id)
        seqs = list(Move.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
        rows = {p.user_id: p for p in ArenaPlayer.objects.filter(arena=a)}
        tables = list(ArenaTable.objects.filter(arena=a).order_by("pk"))
        return match, seqs, rows, tables

    match, seqs, rows, tables = await sync_to_async(outcome)()
    assert seqs == list(range(1, match.version + 1))  # one chain: nothing lost, nothing applied twice
    assert tables[0].pk == table.pk and tables[0].scored
    winner, game = match.result["winner"], engine.get(match.game)
    for seat, user_id in enumerate(table.seats, start=1):
        won = winner == game.team_of(seat)
        assert rows[user_id].played == 1 and rows[user_id].score == (2 if won else 0), (seat, winner)
    # Free again, and seated at most once more (their next table, the four of them again).
    seated_again = [u for t in tables[1:] for u in t.seats if u is not None]
    assert len(seated_again) == len(set(seated_again)) and set(seated_again) <= set(rows)
    with capsys.disabled():
        print(
            f"\n[arena restart] Daphne and the worker killed at v{killed_at}; the match moved on "
            f"{resumed_s:.1f} s after Daphne answered again and finished {ended:.1f} s after it, at "
            f"v{match.version}; one chain of {len(seqs)} moves; scored once "
            f"({sorted(r.score for r in rows.values())}); {len(tables) - 1} next table(s)"
        )


async def _at_least(match_id: int, version: int) -> bool:
    return (await sync_to_async(_version)(match_id))[0] >= version


async def killed_mid_match(tmp_path, env: dict, code: str, seats: list, match_id: int, kill_at: int):
    """The site's Daphne and worker started, the pages of ``seats`` ([(name,
    session key, user id)]) playing at table ``code``; both processes SIGKILLed
    once the match reached version ``kill_at`` and started again; returns once
    the match has finished: (the version at the kill, seconds from Daphne
    answering again to the match moving on, and to its end)."""
    worker = await sync_to_async(Worker)(env, tmp_path)
    server = Daphne(tmp_path, env)
    players: list[Player] = []
    tasks = []
    try:
        await sync_to_async(server.start)()
        url = f"ws://127.0.0.1:{server.port}/ws/table/{code}/"
        origin = f"http://127.0.0.1:{server.port}"
        players = [Player(name, key, uid, url, origin) for name, key, uid in seats]
        for p in players:
            p.backoff = PAGE_BACKOFF
        tasks = [asyncio.ensure_future(p.run()) for p in players]
        assert await until(lambda: _true(all(p.connects for p in players)), 30) is not None
        # The match was started by this process (its own channel prefix): each page asks once.
        for p in players:
            await p.sync()
        mid = await until(lambda: _at_least(match_id, kill_at), 120)
        assert mid is not None, (await sync_to_async(_version)(match_id), worker.text()[-2000:])

        # --- the fault: both processes killed with the match in play
        await sync_to_async(server.kill)()
        await sync_to_async(worker.kill)()
        killed_at, _status = await sync_to_async(_version)(match_id)
        await asyncio.sleep(1.0)
        worker = await sync_to_async(Worker)(env, tmp_path)
        await sync_to_async(server.start)()
        up = time.monotonic()
        assert await until(lambda: _true(all(p.connects >= 2 for p in players)), 30) is not None

        async def resumed():
            return (await sync_to_async(_version)(match_id))[0] > killed_at + 2

        assert await until(resumed, 30) is not None, (killed_at, server.log.read_text()[-2000:])
        resumed_s = time.monotonic() - up

        async def finished():
            return (await sync_to_async(_version)(match_id))[1] == Match.Status.FINISHED

        assert await until(finished, 150) is not None, worker.text()[-2000:]
        return killed_at, resumed_s, time.monotonic() - up
    finally:
        await shut_down(players, tasks, server, worker)


@pytest.mark.timeout(240)
async def test_e1_a_challenge_deal_survives_daphne_and_the_worker_killed_mid_deal(
    settings, tmp_path, make_user, capsys
):
    """E-1: the entrant's deal, three bots played by the worker's deadlines,
    goes on from the database after both processes were killed, and counts
    once: the deal done with its result, the entry still one deal."""
    if not settings.REDIS_URL:
        pytest.skip("needs Redis (REDIS_URL)")
    from events import challenge
    from events.models import ChallengeDeal
    from rooms.models import Room

    settings.EVENTS_CHALLENGE_BOT_LEVEL = "easy"  # the bots' seats are made here with their level
    tag = uuid.uuid4().hex[:8]
    env = site_env(direct_database_url(), settings.REDIS_URL, tag)

    def setup():
        user = make_user(f"ch{tag[:4]}")
        deal = challenge.play(user, "hokm4")
        code = Room.objects.get(pk=deal.room_id).code
        return deal, code, [(user.username, session_key_for(user), user.pk)]

    deal, code, seats = await sync_to_async(setup)()
    killed_at, resumed_s, ended = await killed_mid_match(tmp_path, env, code, seats, deal.match_id, 12)

    def outcome():
        match = Match.objects.get(pk=deal.match_id)
        seqs = list(Move.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
        row = ChallengeDeal.objects.get(pk=deal.pk)
        return match, seqs, row, ChallengeDeal.objects.filter(entry=row.entry).count()

    match, seqs, row, deals = await sync_to_async(outcome)()
    assert seqs == list(range(1, match.version + 1))  # one chain: nothing lost, nothing applied twice
    assert row.done and row.value == challenge.deal_value(match.game, match.state) and deals == 1
    with capsys.disabled():
        print(
            f"\n[challenge restart] Daphne and the worker killed at v{killed_at}; the deal moved on "
            f"{resumed_s:.1f} s after Daphne answered again and ended {ended:.1f} s after it, at "
            f"v{match.version}; one chain of {len(seqs)} moves; the deal counted once (value {row.value})"
        )
