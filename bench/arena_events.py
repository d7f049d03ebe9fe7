"""An arena tournament (E-3) end to end, compressed in time: 200 players, 60 minutes.

    DATABASE_URL=postgres://user:pass@host/anything REDIS_URL=redis://host/n \\
        python bench/arena_events.py [--players 200] [--minutes 60] [--game hokm4] [--seed 1]

Not bench/arena.py (the bots' duplicate arena). This one runs a real arena
through the site's own services, on a database of its own (created beside
DATABASE_URL's, dropped at the end):

- the moderator's arena is a row of ``events.Arena``; the events' ticker step
  (``events.arena.tick``, the beat's task) starts it, seats the free players
  (``seat_free``: rooms' public services make each table's private room, sit
  the players and start the match), stops seating at the window's end and
  finishes the arena with its podium once the running matches have counted;
- players join and leave through ``events.arena.join`` / ``leave`` (the
  arena page's buttons): they join during the first ten minutes, one in ten
  leaves the arena for a while and comes back;
- every match is played to its end through the play service, as a live
  table's socket does: each move by ``games.services.play`` as the seat's
  user (the person's choice is the engine's timeout move, ``auto_action``: a
  bot standing in for the person), each deal by ``games.services.expire`` at
  its deadline; one match in fifty ends with a confirmed leave
  (``rooms.services.leave(confirm=True)``: 0 and withdrawn). The arena scores
  each match through games' ``match_ended`` signal, as on the site;
- a player left over (too few free for a table) for ``ARENA_BOT_WAIT``
  simulated seconds is seated with strong bots in the empty seats (E-3, the
  lead's decision): their moves are played by ``games.services.expire`` at
  their deadlines (one simulated second after the previous move), as the
  deadline clock plays them on the site;
- the standings reach a real arena socket: the ASGI application's
  ``/ws/arena/<id>/`` consumer, connected by a WebSocket client on an event
  loop of its own, through the channel layer (Redis when REDIS_URL is set,
  as in production). Every standings frame it receives is counted.

Time is compressed: a clock of the benchmark's own says when each thing
happens (a person's move 1 to 4 simulated seconds after the previous one,
the next deal ``--round-pause`` seconds after a round's result, a ticker
step every 2 simulated seconds) and the services are called in that order,
as fast as they answer; the ticker step is given the simulated time (``now``)
so the window closes on the simulated clock, and the arena's own clock
(``events.arena.clock``: when a player became free, how long he has waited
for the bots) is the simulated one too. The server's own waits are
nil (ROUND_PAUSE=0: the pause is on the simulated clock; FAIR_WAIT_SECONDS=0:
no browser sends the fair deal's values), and no deadline timer runs
(DEADLINES=celery with no worker: as in production, the clock is not the
socket server's loop; the benchmark plays each deadline itself).

Measured: the seat wait of every seating in simulated seconds, from the
moment a player is free (he joined, came back, or his match ended) to his
table's opening (by a ticker step, or at once by a match's end, which seats
the free players on its commit) (a player still waiting at the window's end
counts with his wait up to then), and its 95th percentile; the standings
frames received by the socket per simulated second, from the arena's start
to its podium; errors: any exception, any broken rule (a player at two
tables, a withdrawn one seated, a table of the wrong size, a score the
streak rule does not give, no podium) and any standings change the socket
did not see within a second. A standings frame is the whole table read
after the changes before it (its ``at``), and the socket sends the newest of
a burst (events/consumers.py), so a change is seen when a frame read after
its commit arrives; the summary line gives the changes, the frames, and the
delay from a change's commit to the arrival of the first frame that holds it
(p95 and max, wall seconds). The wall time is printed for scale. The last line
is exactly:

    arena players=200 matches=M p95_seat_wait_s=W standings_updates_per_s=U errors=E
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import heapq
import os
import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.playnow import _create, _drop  # noqa: E402  (the bench's own database, made and dropped alike)

TICK = 2.0
"""Simulated seconds between two ticker steps (the beat's ``EVENTS_TICK_SECONDS``)."""


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--game", default="hokm4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--round-pause", type=float, default=4.0, help="C-7: seconds between rounds")
    parser.add_argument("--leave-rate", type=float, default=0.02, help="matches ending in a confirmed leave")
    parser.add_argument("--workers", type=int, default=6, help="threads playing the matches' moves")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    parser.add_argument("--keep", action="store_true", help="keep the benchmark's database")
    args = parser.parse_args(argv)
    if not args.database_url:
        raise SystemExit("DATABASE_URL is needed (PostgreSQL: the arena's row locks are the point)")
    name = f"bench_arena_events_{os.getpid()}"
    url = args.database_url.rsplit("/", 1)[0] + "/" + name
    _create(url, name)
    os.environ.update(
        DATABASE_URL=url,
        DJANGO_SETTINGS_MODULE="config.settings",
        SECRET_KEY=os.environ.get("SECRET_KEY", "bench-arena-events-secret-key-not-for-a-real-site-0123"),
        SITE_HTTPS="false",
        DEBUG="false",
        # The benchmark is the clock: it plays every move and every deal at its
        # simulated time. No real-time deadline timer may fire behind its back,
        # and none may run on the observing socket's loop (the ASGI app binds
        # the in-process clock to the first loop it runs on: that socket's).
        DEADLINES="celery",
        FAIR_WAIT_SECONDS="0",
        BOT_DELAY="0",
        ROUND_PAUSE="0",  # the pause is on the simulated clock (--round-pause), not the server's
        LOG_LEVEL="ERROR",
        CHANNEL_PREFIX=f"bench-arena-{os.getpid()}-{time.time_ns()}",
        CACHE_PREFIX=f"bench-arena-{os.getpid()}-{time.time_ns()}",
    )
    try:
        r = run(args)
    finally:
        if not args.keep:
            _drop(url, name)
    print(
        f"# {args.game} {args.minutes:g} min: seatings={r['seatings']} p50_seat_wait_s={r['p50']:.1f}"
        f" bot_tables={r['bot_tables']} moves={r['moves']} standings_changes={r['sent']} frames={r['received']}"
        f" seen_within_1s={r['seen']} late={r['late']} lost={r['lost']}"
        f" p95_standings_delay_s={r['delay95']:.2f} max_standings_delay_s={r['delay_max']:.2f}"
        f" layer={r['layer']} podium={r['podium']} wall_s={r['wall']:.1f}"
    )
    for message in r["messages"][:5]:
        print("error:", message, file=sys.stderr)
    print(
        f"arena players={r['players']} matches={r['matches']} p95_seat_wait_s={r['p95']:.1f}"
        f" standings_updates_per_s={r['updates_per_s']:.2f} errors={r['errors']}"
    )
    return 0 if r["errors"] == 0 and r["p95"] <= 15 else 1


class Socket:
    """A WebSocket client of the arena's socket on an event loop of its own: keeps,
    for each standings frame, when it arrived and when its standings were read
    (its ``at``), both on this process's wall clock."""

    def __init__(self, arena_id: int):
        self.arena_id = arena_id
        self.frames = 0
        self.arrivals: list[tuple[float, float]] = []  # (arrived, at), in arrival order
        self.last: dict | None = None
        self.ready = threading.Event()
        self.stop = threading.Event()
        self.error: str | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self.thread.start()
        if not self.ready.wait(30):
            raise RuntimeError(f"the arena socket did not connect: {self.error}")

    def _run(self) -> None:
        try:
            asyncio.run(self._listen())
        except Exception as exc:  # noqa: BLE001 - reported by start() / the result
            self.error = repr(exc)
            self.ready.set()

    async def _listen(self) -> None:
        from channels.testing import WebsocketCommunicator

        from config.asgi import application
        from events import ticker

        # The benchmark's clock is the ticker: the consumer must not start the
        # embedded one (real time) on this loop.
        ticker._running.add(asyncio.get_running_loop())
        comm = WebsocketCommunicator(
            application, f"/ws/arena/{self.arena_id}/", headers=[(b"origin", b"http://localhost")]
        )
        connected, _ = await comm.connect(timeout=20)
        if not connected:
            raise RuntimeError("refused")
        hello = await comm.receive_json_from(timeout=20)
        assert hello["type"] == "standings"
        self.ready.set()
        while not self.stop.is_set():
            if await comm.receive_nothing(timeout=0.2):  # (a receive that times out would stop the consumer)
                continue
            frame = await comm.receive_json_from(timeout=10)
            if frame.get("type") == "standings":
                self.arrivals.append((time.time(), float(frame.get("at", 0.0))))
                self.frames += 1
                self.last = frame
        await comm.disconnect()

    def wait_for(self, committed: float, timeout: float = 30.0) -> None:
        """Until a frame read after ``committed`` has arrived (or ``timeout``)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.arrivals and self.arrivals[-1][1] >= committed:
                return
            time.sleep(0.05)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)


def run(args) -> dict:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.utils import timezone

    call_command("migrate", verbosity=0)
    from events import arena as arena_service
    from events import arena_core
    from events.models import Arena, ArenaPlayer, ArenaTable
    from games import engine, services
    from games.engine import CHANCE
    from games.models import Match
    from rooms import services as rooms_services
    from rooms.models import Room

    rng = random.Random(args.seed)
    game = engine.get(args.game)
    size = game.players
    window = args.minutes * 60.0
    User = get_user_model()
    password = make_password("bench-password")
    users = User.objects.bulk_create(
        [User(username=f"ar{i}", username_key=f"ar{i}", password=password) for i in range(args.players)]
    )
    by_id = {u.pk: u for u in users}
    base = timezone.now()
    arena = Arena.objects.create(
        name="Bench arena",
        game=args.game,
        rules={"target": 3} if args.game.startswith("hokm") else {},
        starts_at=base,
        minutes=max(1, round(args.minutes)),
        status=Arena.Status.SCHEDULED,
    )
    window = arena.minutes * 60.0

    # Every standings change, at its commit (wall clock): a page watching the
    # arena must receive, within a second, a frame read after it (each frame is
    # the whole table, so the newest covers every earlier change).
    changes: list[float] = []
    changes_lock = threading.Lock()
    announce = arena_service.announce

    def committed():
        with changes_lock:
            changes.append(time.time())

    def counted(arena_id):  # each announce runs on commit: so is its time taken
        transaction.on_commit(committed)
        announce(arena_id)

    arena_service.announce = counted

    # When each table was opened, on the simulated clock: by the ticker's step,
    # or at once by a match's end (``seat_now``, on the worker thread that
    # played the match's last event at its simulated time).
    clock = threading.local()
    opened: dict[int, float] = {}
    open_table = arena_service._open_table

    def timed_open(*a, **kw):
        table = open_table(*a, **kw)
        with lock:
            opened[table.pk] = clock.now
        return table

    arena_service._open_table = timed_open
    # The arena's clock (free since, the bots' wait) is the simulated one: each
    # thread sets ``clock.now`` before it calls the services.
    arena_service.clock = lambda: at(clock.now)
    socket = Socket(arena.pk)
    socket.start()

    heap: list = []
    order = [0]
    bot_tables = [0]

    def push(at: float, kind: str, *payload) -> None:
        order[0] += 1
        heapq.heappush(heap, (at, order[0], kind, payload))

    def at(t: float):
        return base + timedelta(seconds=t)

    for u in users:
        join = rng.uniform(0.5, min(600.0, window / 6))
        push(join, "join", u.pk)
        if rng.random() < 0.1:
            away = rng.uniform(window * 0.3, window * 0.6)
            push(away, "away", u.pk)
            push(away + rng.uniform(60, 300), "join", u.pk)

    present: set[int] = set()
    free_since: dict[int, float] = {}
    busy: set[int] = set()
    live: dict[int, dict] = {}  # match id -> its table, seats, scores before, next event, own rng
    last_table = 0
    waits: list[float] = []
    messages: list[str] = []
    errors = matches = 0
    moves = [0]
    finished_at = None
    lock = threading.Lock()
    started = time.perf_counter()

    def fail(message: str, count: int = 1) -> None:
        nonlocal errors
        with lock:
            errors += count
            messages.append(message)

    def follow(info: dict, match, now: float) -> None:
        """After a service call on the match: what comes next on the simulated clock."""
        info["match"] = match
        info["next"] = None
        if match.status != Match.Status.ACTIVE:
            info["ended"] = now
            return
        to_act = game.to_act(match.state)
        rng = info["rng"]
        if CHANCE in to_act:
            pause = args.round_pause if game.round_over(match.state) else 0.0
            info["next"] = (now + pause, "chance", None)
        elif to_act:
            info["moves"] += 1
            seat = min(to_act)
            people_seats = [u for u in info["seats"] if u is not None]
            if info["leave_after"] is not None and info["moves"] >= info["leave_after"]:
                info["next"] = (now + rng.uniform(1.0, 4.0), "leave", rng.choice(people_seats))
            elif (match.player_at(seat) or {}).get("bot"):
                info["next"] = (now + 1.0, "bot", None)  # its deadline (BOT_DELAY-like), the clock plays it
            else:
                info["next"] = (now + rng.uniform(1.0, 4.0), "move", seat)

    def step(info: dict) -> None:
        """One event of a match, through the services as a live table's socket calls them."""
        now, kind, arg = info["next"]
        clock.now = now
        match = info["match"]
        match_id, version = match.pk, match.version
        if kind == "move":
            user = by_id[match.player_at(arg)["user_id"]]
            action = game.auto_action(match.state, arg)  # the person's choice (a bot stands in)
            services.play(match_id, action, user=user, version=version)
            with lock:
                moves[0] += 1
        elif kind == "bot":
            if services.expire(match_id, version) is None:
                raise RuntimeError(f"the bot's move of match {match_id} at version {version} was refused")
        elif kind == "chance":
            # The deal's deadline: the fair deal's phases may each take a call (F-4: a
            # silent seat's values are replaced once its wait, nil here, is over).
            for _attempt in range(8):
                if services.expire(match_id, version) is not None:
                    break
                again = Match.objects.get(pk=match_id)
                if again.version != version or again.status != Match.Status.ACTIVE:
                    break
            else:
                raise RuntimeError(f"the deal of match {match_id} at version {version} was refused")
        elif kind == "leave":
            table = ArenaTable.objects.get(pk=info["table"])
            rooms_services.leave(Room.objects.get(pk=table.room_id), by_id[arg], confirm=True)
        follow(info, Match.objects.get(pk=match_id), now)

    def chain(info: dict, until: float) -> None:
        """A match's events before ``until``, in order (one worker thread per match at a time)."""
        try:
            while info["next"] is not None and info["next"][0] < until:
                step(info)
        except Exception as exc:  # noqa: BLE001 - counted, and the run goes on
            fail(f"match {info['match'].pk} at {info['next'][0]:.1f}s: {type(exc).__name__}: {exc}")
            info["next"] = None
            info["broken"] = True
        finally:
            connection.close()

    def ended(info: dict) -> None:
        match, now = info["match"], info["ended"]
        live.pop(match.pk)
        table = ArenaTable.objects.get(pk=info["table"])
        if not table.scored:
            fail(f"match {match.pk} ended but its table was not scored")
        rows = {p.user_id: p for p in ArenaPlayer.objects.filter(arena=arena, user_id__in=info["seats"])}
        for seat, uid in enumerate(info["seats"], start=1):
            if uid is None:
                continue  # a bot: not an entrant
            busy.discard(uid)
            row = rows[uid]
            before = info["before"][uid]
            if match.status == Match.Status.ABANDONED:
                expected = (before[0], True) if seat == match.leaver_seat else (before[0], before[1])
                if (row.score, row.withdrawn) != expected:
                    fail(f"leave scored wrong for {uid}: {(row.score, row.withdrawn)} != {expected}")
            else:
                standing = arena_core.Standing(uid, before[0], before[2], 0)
                got = arena_core.score_result(standing, match.result.get("winner") == game.team_of(seat))
                if row.score != before[0] + got or got not in (0, 2, 3):
                    fail(f"score of {uid}: {row.score} != {before[0]} + {got}")
            if row.withdrawn:
                present.discard(uid)
                free_since.pop(uid, None)
            elif uid in present and now < window:
                free_since[uid] = now

    def tick(now: float) -> None:
        nonlocal last_table, matches, finished_at
        clock.now = now
        arena_service.tick(at(now))  # the ticker's arena step, on the simulated clock
        for table in ArenaTable.objects.filter(arena=arena, pk__gt=last_table).order_by("pk"):
            last_table = table.pk
            seats = list(table.seats)
            people_seats = [u for u in seats if u is not None]
            if len(seats) != size or len(set(people_seats)) != len(people_seats) or set(people_seats) & busy:
                fail(f"table {table.pk} seats {seats} (busy: {set(people_seats) & busy})")
            if not people_seats or seats[0] is None:
                fail(f"table {table.pk} seats {seats}: no person at seat 1")
            if len(people_seats) < size:
                bot_tables[0] += 1
            rows = {p.user_id: p for p in ArenaPlayer.objects.filter(arena=arena, user_id__in=people_seats)}
            if any(rows[u].withdrawn for u in people_seats):
                fail(f"a withdrawn player seated at table {table.pk}")
            # Seated when opened; a table opened by one worker thread may hold a player
            # whose match another thread ended a little later on the simulated clock
            # within the same slice: then it was seated when the last of them was free.
            seated_at = max([opened.get(table.pk, now)] + [free_since.get(u, 0.0) for u in people_seats])
            for u in people_seats:
                if u not in free_since:
                    fail(f"player {u} seated while not free")
                waits.append(seated_at - free_since.pop(u, seated_at))
                busy.add(u)
            matches += 1
            info = {
                "table": table.pk,
                "seats": seats,
                "moves": 0,
                "leave_after": rng.randint(5, 60) if rng.random() < args.leave_rate else None,
                "before": {u: (rows[u].score, rows[u].withdrawn, rows[u].streak) for u in people_seats},
                "rng": random.Random(f"{args.seed}/{table.match_id}"),
                "ended": None,
            }
            live[table.match_id] = info
            follow(info, Match.objects.get(pk=table.match_id), seated_at)
        arena.refresh_from_db()
        if arena.status == Arena.Status.FINISHED:
            finished_at = now

    def people(kind: str, uid: int, now: float) -> None:
        clock.now = now
        if kind == "join":
            if now >= window or uid in present:
                return
            try:
                arena_service.join(arena, by_id[uid])
            except arena_service.ArenaError as exc:
                if exc.code != "withdrawn":
                    raise
                return
            present.add(uid)
            if uid not in busy:
                free_since[uid] = now
        elif kind == "away" and uid in present and now < window:
            arena_service.leave(arena, by_id[uid])
            present.discard(uid)
            free_since.pop(uid, None)

    # The simulated clock in slices of one tick: the ticker's step at the slice's
    # start, the people's joins and leaves in order, then every match's moves of
    # the slice, each match on a worker thread of its own (as a server's
    # processes serve many tables at once); a match that ends frees its players
    # at its end's time, and the next tick seats them.
    pool = ThreadPoolExecutor(max_workers=args.workers)
    now = 0.0
    while finished_at is None and now < window + 1800:  # running matches get half an hour to finish
        until = now + TICK
        try:
            tick(now)
        except Exception as exc:  # noqa: BLE001 - counted, and the run goes on
            fail(f"tick at {now:.1f}s: {type(exc).__name__}: {exc}")
        if finished_at is not None:
            break
        while heap and heap[0][0] < until:
            at_, _, kind, payload = heapq.heappop(heap)
            try:
                people(kind, payload[0], at_)
            except Exception as exc:  # noqa: BLE001
                fail(f"{kind} at {at_:.1f}s: {type(exc).__name__}: {exc}")
        due = [i for i in live.values() if i["next"] is not None and i["next"][0] < until]
        for future in [pool.submit(chain, i, until) for i in due]:
            future.result()
        for info in sorted((i for i in live.values() if i["ended"] is not None), key=lambda i: i["ended"]):
            ended(info)
        for match_id in [m for m, i in live.items() if i.get("broken")]:
            live.pop(match_id)
        now = until
    pool.shutdown()

    for uid, since in free_since.items():  # still waiting at the window's end
        if uid in present and since < window:
            waits.append(window - since)
    arena.refresh_from_db()
    if arena.status != Arena.Status.FINISHED or len(set(arena.podium)) != min(3, args.players):
        fail(f"no podium: status {arena.status}, podium {arena.podium}")
    socket.wait_for(max(changes, default=0.0))
    received = socket.frames
    socket.close()
    if socket.error:
        fail(f"socket: {socket.error}")
    # Each change: the first frame read after its commit, and how long after the
    # commit it arrived. None: lost (no later frame ever came); over 1 s: late.
    arrived, ats = [], []
    for when, at_ in socket.arrivals:
        arrived.append(when)
        ats.append(max(at_, ats[-1]) if ats else at_)
    delays, lost = [], 0
    for t in changes:
        j = bisect.bisect_left(ats, t)
        if j == len(ats):
            lost += 1
        else:
            delays.append(max(0.0, arrived[j] - t))
    late = sum(1 for d in delays if d > 1.0)
    if lost:
        fail(f"{lost} of {len(changes)} standings changes never reached the socket", lost)
    if late:
        fail(f"{late} of {len(changes)} standings changes reached the socket after more than 1 s", late)
    if socket.last and socket.last.get("podium") != arena.podium:
        fail("the socket's last standings do not show the podium")
    span = finished_at if finished_at else window
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    from django.db import connections

    for conn in connections.all():  # the pool too: its database is dropped next
        conn.close()
        if hasattr(conn, "close_pool"):
            conn.close_pool()
    return {
        "players": args.players,
        "matches": matches,
        "moves": moves[0],
        "p95": percentile(waits, 95),
        "p50": percentile(waits, 50),
        "seatings": len(waits),
        "bot_tables": bot_tables[0],
        "updates_per_s": received / span,
        "sent": len(changes),
        "received": received,
        "seen": len(delays) - late,
        "late": late,
        "lost": lost,
        "delay95": percentile(delays, 95),
        "delay_max": max(delays, default=0.0),
        "layer": layer,
        "errors": errors,
        "messages": messages,
        "wall": time.perf_counter() - started,
        "podium": arena.podium,
    }


if __name__ == "__main__":
    sys.exit(main())
