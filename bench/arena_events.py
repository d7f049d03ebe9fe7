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
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.arena_events_run import TICK, percentile, run  # noqa: E402
from bench.playnow import _create, _drop  # noqa: E402  (the bench's own database, made and dropped alike)

__all__ = ["TICK", "main", "percentile", "run"]


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


if __name__ == "__main__":
    sys.exit(main())
