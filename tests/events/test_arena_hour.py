"""An arena's whole hour through the real services (E-3, issue 37).

Nine players join and leave a 60-minute hokm4 arena; the site's clock is a
simulated one (``games.clock.set_now`` for the play service's deadlines,
``events.arena.clock`` for the arena's: free since, the bots' wait), moved
on event by event, so the hour takes seconds of wall time. What runs is the
site's own code: the events' Celery task (``events.tasks.tick``, every two
simulated seconds) starts the arena, seats the free players through rooms'
services and closes the window; joins and leaves go through
``events.arena``; every move of every match goes through ``games.services``
(a person's seat: ``play`` as its user with the engine's timeout move, a bot
standing in for the person; the deals and the bot seats: ``expire`` at their
deadlines); a confirmed leave through ``rooms.services.leave``; the arena
scores each match through games' ``match_ended``, and seats the freed
players on its commit.

E-3 is checked at every table's opening and every match's end, against a
model of the rules kept by the test: nobody at two tables, nobody withdrawn
or gone seated, no partners twice in a row, bots only when fewer than a
table of people are free, every free player seated within the bots' wait
and a tick; each match's points (2, 0, 3 after two wins in a row, 0 and
withdrawn for a confirmed leave); after the window, the running matches
finish and count, then the podium.

About 20 s of wall time on a quiet two-core machine (some 18 matches,
6,000 service calls), two minutes when five other runs share it.
"""

from __future__ import annotations

import heapq
import logging
import random
import time
from datetime import UTC, datetime

import pytest

from events import arena, tasks
from events.models import Arena, ArenaPlayer, ArenaTable
from games import clock, engine, services
from games.engine import CHANCE
from games.models import Match
from rooms import services as rooms_services
from rooms.models import Room

WINDOW = 3600.0
TICK = 2.0
BOT_WAIT = 10.0


class Hour:
    """The simulated hour: a heap of events on the simulated clock, and the test's model of E-3."""

    def __init__(self, users, seed: int):
        self.rng = random.Random(seed)
        self.seed = seed
        self.t0 = time.time()
        self.now = 0.0
        self.users = {u.pk: u for u in users}
        self.heap: list = []
        self.order = 0
        self.present: set[int] = set()
        self.withdrawn: set[int] = set()
        self.free_since: dict[int, float] = {}
        self.busy: dict[int, int] = {}  # user -> match id
        self.last_partner: dict[int, int | None] = {}
        self.model: dict[int, list[int]] = {u: [0, 0, 0] for u in self.users}  # score, streak, played
        self.live: dict[int, dict] = {}  # match id -> its table's facts
        self.opened: list[tuple[ArenaTable, float]] = []
        self.waits: list[float] = []
        self.tables = self.bot_tables = self.repeats_avoided = 0
        self.running_at_close: set[int] = set()
        self.ended_after_close = 0
        self.last_end = 0.0
        self.leaver: int | None = None
        self.finished_at: float | None = None

    def at(self, t: float) -> datetime:
        return datetime.fromtimestamp(self.t0 + t, UTC)

    def push(self, t: float, kind: str, *payload) -> None:
        self.order += 1
        heapq.heappush(self.heap, (t, self.order, kind, payload))

    def fail(self, message: str) -> None:
        raise AssertionError(f"at {self.now:.1f} s (seed {self.seed}): {message}")

    # --- the tables the arena opens ---------------------------------------------------

    def check_opened(self, a: Arena) -> None:
        """E-3 at each table's opening (on the simulated clock)."""
        opened, self.opened = self.opened, []
        for table, t in opened:
            seats = list(table.seats)
            people = [u for u in seats if u is not None]
            if len(seats) != 4 or seats[0] is None or len(set(people)) != len(people):
                self.fail(f"table {table.pk}: seats {seats}")
            if t > WINDOW:
                self.fail(f"table {table.pk} opened after the window's end")
            for u in people:
                if u in self.busy:
                    self.fail(f"user {u} seated twice (already in match {self.busy[u]})")
                if u in self.withdrawn or u not in self.present or u not in self.free_since:
                    self.fail(f"user {u} seated while withdrawn, gone or not free")
            if len(people) < 4:
                # Bots only for the players left over: fewer than a table of people free.
                others = [u for u in self.free_since if u not in people]
                if len(people) + len(others) >= 4:
                    self.fail(f"a bot table {seats} while {others} were free too")
                if t - min(self.free_since[u] for u in people) < BOT_WAIT - 1e-6:
                    self.fail(f"a bot table {seats} before the bots' wait")
                self.bot_tables += 1
            for i, u in enumerate(seats):
                if u is None:
                    continue
                partner = seats[(i + 2) % 4]
                if partner is not None and self.last_partner.get(u) == partner:
                    self.fail(f"user {u} partners {partner} twice in a row")
                if self.last_partner.get(u) is not None:
                    self.repeats_avoided += 1
                self.last_partner[u] = partner
                self.waits.append(t - self.free_since.pop(u))
                self.busy[u] = table.match_id
            busy_rows = list(ArenaTable.objects.filter(arena=a, scored=False).values_list("seats", flat=True))
            seated = [u for s in busy_rows for u in s if u is not None]
            if len(seated) != len(set(seated)):
                self.fail(f"someone is at two unscored tables: {busy_rows}")
            self.tables += 1
            info = {"table": table, "seats": seats, "moves": 0, "leave_after": None}
            if (
                self.leaver in people
                and self.now >= 1500
                and not any(i["leave_after"] for i in self.live.values())
            ):
                info["leave_after"] = 10
            self.live[table.match_id] = info
            self.next_of(table.match_id, Match.objects.get(pk=table.match_id))

    # --- the matches ----------------------------------------------------------------

    def next_of(self, match_id: int, match: Match) -> None:
        info = self.live[match_id]
        if match.status != Match.Status.ACTIVE:
            self.ended(info, match)
            return
        game = engine.get(match.game)
        to_act = game.to_act(match.state)
        when = self.now
        if match.next_deadline is not None:
            due = match.next_deadline.timestamp() - self.t0
        else:
            due = self.now
        if CHANCE in to_act:
            # The deal at its deadline; a fair deal's phase that did not deal yet is tried again.
            again = info.get("tried") == match.version
            info["tried"] = match.version
            self.push(max(self.now + (0.5 if again else 0.0), due), "expire", match_id, match.version)
            return
        seat = min(to_act)
        player = match.player_at(seat) or {}
        if info["leave_after"] is not None and info["moves"] >= info["leave_after"]:
            self.push(when + 2.0, "leave", match_id, self.leaver)
        elif player.get("bot"):
            self.push(max(when + 1.0, due), "expire", match_id, match.version)
        else:
            self.push(when + self.rng.uniform(2.0, 8.0), "move", match_id, match.version, seat)

    def step(self, kind: str, match_id: int, *rest) -> None:
        info = self.live.get(match_id)
        if info is None:
            return
        match = Match.objects.get(pk=match_id)
        if kind == "move":
            version, seat = rest
            assert match.version == version, "only the test moves the people's seats"
            game = engine.get(match.game)
            user = self.users[match.player_at(seat)["user_id"]]
            services.play(match_id, game.auto_action(match.state, seat), user=user, version=version)
            info["moves"] += 1
        elif kind == "expire":
            (version,) = rest
            if match.version == version and match.status == Match.Status.ACTIVE:
                services.expire(match_id, version)
        elif kind == "leave":
            room = Room.objects.get(pk=info["table"].room_id)
            rooms_services.leave(room, self.users[rest[0]], confirm=True)
        self.next_of(match_id, Match.objects.get(pk=match_id))

    def ended(self, info: dict, match: Match) -> None:
        """E-3: the match's points, against the model."""
        del self.live[match.pk]
        self.last_end = self.now
        if self.now > WINDOW:
            self.ended_after_close += 1
        game = engine.get(match.game)
        rows = {p.user_id: p for p in ArenaPlayer.objects.filter(arena=info["table"].arena_id)}
        if not ArenaTable.objects.get(pk=info["table"].pk).scored:
            self.fail(f"match {match.pk} ended, its table not scored")
        for seat, u in enumerate(info["seats"], start=1):
            if u is None:
                continue
            score, streak, played = self.model[u]
            if match.status == Match.Status.ABANDONED:
                if seat == match.leaver_seat:  # a confirmed leave: 0 and withdrawn
                    self.model[u] = [score, 0, played + 1]
                    self.withdrawn.add(u)
                    self.present.discard(u)
            else:
                won = match.result["winner"] == game.team_of(seat)
                points = (3 if streak >= 2 else 2) if won else 0
                self.model[u] = [score + points, streak + 1 if won else 0, played + 1]
            row = rows[u]
            if [row.score, row.streak, row.played] != self.model[u] or row.withdrawn != (u in self.withdrawn):
                self.fail(
                    f"user {u} after match {match.pk}: {row.score, row.streak, row.played} != {self.model[u]}"
                )
            del self.busy[u]
            if u in self.present and self.now < WINDOW:
                self.free_since[u] = self.now

    # --- the people and the ticker ---------------------------------------------------

    def person(self, kind: str, a: Arena, u: int) -> None:
        if kind == "join":
            arena.join(a, self.users[u])
            self.present.add(u)
            if u not in self.busy:
                self.free_since[u] = self.now
        else:  # leaves the arena (the page's button): his match goes on and counts
            arena.leave(a, self.users[u])
            self.present.discard(u)
            self.free_since.pop(u, None)

    def tick(self, a: Arena) -> None:
        tasks.tick()  # the beat's task, on the simulated clock (events.arena.clock)
        a.refresh_from_db(fields=["status"])
        if self.now >= WINDOW and not self.running_at_close and a.status != Arena.Status.RUNNING:
            self.running_at_close = set(self.live) or {0}
        if a.status == Arena.Status.FINISHED:
            self.finished_at = self.now
            return
        # Every free player is seated within the bots' wait and a tick (E-3: at once
        # when a table's worth are free; the players left over with bots).
        for u, since in self.free_since.items():
            if self.now < WINDOW and self.now - since > BOT_WAIT + TICK + 1e-6:
                self.fail(f"user {u} free since {since:.1f} s and not seated")
        self.push(self.now + TICK, "tick")


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(400)
def test_e3_nine_players_over_an_arenas_hour_through_the_real_services(
    settings, monkeypatch, make_user, caplog
):
    """E-3: a 60-minute arena, nine people joining (one at 15 minutes), one
    leaving the arena for ten minutes and coming back, one leaving a match for
    good (0 and withdrawn), one leaving at 50 minutes; played to the podium."""
    settings.DEADLINES = "celery"  # no timer of its own: the test is the clock
    settings.ARENA_BOT_WAIT = BOT_WAIT
    settings.FAIR_WAIT_SECONDS = 0
    # The bots at the tables of players left over: the easy level's short search
    # (the seat's level is the arena's business, checked in test_arena.py).
    monkeypatch.setattr(arena, "BOT_LEVEL", "easy")
    users = [make_user(f"hour{i}") for i in range(1, 10)]
    hour = Hour(users, seed=37)
    clock.set_now(lambda: hour.t0 + hour.now)
    monkeypatch.setattr(arena, "clock", lambda: hour.at(hour.now))
    open_table = arena._open_table

    def opened(*args, **kwargs):
        table = open_table(*args, **kwargs)
        hour.opened.append((table, hour.now))
        return table

    monkeypatch.setattr(arena, "_open_table", opened)
    caplog.set_level(logging.ERROR)
    a = Arena.objects.create(name="Hour", game="hokm4", rules={"target": 3}, starts_at=hour.at(0), minutes=60)
    ids = [u.pk for u in users]
    for u in ids[:8]:  # two tables of people at once
        hour.push(hour.rng.uniform(0.5, 8.0), "join", u)
    hour.push(900.0, "join", ids[8])  # a late joiner
    hour.push(1200.0, "away", ids[7])  # leaves the arena, comes back
    hour.push(1800.0, "join", ids[7])
    hour.push(3000.0, "away", ids[2])  # leaves for good at 50 minutes
    hour.leaver = ids[8]  # leaves a match after 25 minutes: 0 and withdrawn
    hour.push(0.0, "tick")
    started = time.perf_counter()
    try:
        while hour.heap and hour.finished_at is None:
            t, _, kind, payload = heapq.heappop(hour.heap)
            assert t >= hour.now - 1e-9
            hour.now = t
            if kind == "tick":
                hour.tick(a)
            elif kind in ("join", "away"):
                hour.person(kind, a, payload[0])
            else:
                hour.step(kind, *payload)
            hour.check_opened(a)
            assert hour.now < WINDOW + 3600, "the running matches did not finish"
    finally:
        clock.set_now(None)
    wall = time.perf_counter() - started

    a.refresh_from_db()
    assert a.status == Arena.Status.FINISHED and hour.finished_at is not None
    assert not [r for r in caplog.records if r.name.startswith(("events", "games", "rooms"))]
    # Everyone was seated, several times; the leaver withdrawn; bots for the odd ones.
    rows = {p.user_id: p for p in ArenaPlayer.objects.filter(arena=a)}
    assert set(rows) == set(ids)
    assert all(rows[u].played >= 2 for u in ids), {u: rows[u].played for u in ids}
    assert rows[hour.leaver].withdrawn and hour.leaver in hour.withdrawn
    assert hour.bot_tables > 0 and hour.tables > hour.bot_tables
    assert hour.repeats_avoided > 0  # partners were re-drawn after a match, never the same
    # A win after two wins in a row (3 points) comes only when the hour's random deals give
    # one (it did not in one run of 2026-12-07); each that comes is checked against the model
    # above, and test_arena.py scores one through the services every time.
    # The window closed with matches running: they finished and counted, then the podium.
    assert hour.running_at_close - {0}, "no match was running at the close"
    assert hour.ended_after_close >= len(hour.running_at_close)
    assert hour.finished_at >= hour.last_end > WINDOW
    assert not ArenaTable.objects.filter(arena=a, scored=False).exists()
    assert sum(p.played for p in rows.values()) == sum(m[2] for m in hour.model.values())
    ranked = sorted(rows.values(), key=lambda p: (-p.score, p.played, p.id))
    assert a.podium == [p.user_id for p in ranked[:3]] and None not in a.podium
    view = arena.standings(a)
    assert len(view["standings"]) == 9 and view["podium"] == a.podium and not view["tables"]
    print(
        f"arena hour: tables={hour.tables} bot_tables={hour.bot_tables}"
        f" max_seat_wait_s={max(hour.waits):.1f} wall_s={wall:.1f}"
    )
