"""The arena benchmark's run (bench/arena_events.py has the CLI and what is
measured): the simulated clock, the people's joins and leaves, every match
played through the play service, the checks of E-3 and the measures."""

from __future__ import annotations

import bisect
import heapq
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from bench.arena_events_socket import Socket

TICK = 2.0
"""Simulated seconds between two ticker steps (the beat's ``EVENTS_TICK_SECONDS``)."""


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


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
