"""An arena tournament (E-3) compressed in time: 200 simulated players, 60 minutes.

    python bench/arena_events.py [--players 200] [--minutes 60] [--game hokm4] [--seed 1]

Not bench/arena.py (the bots' duplicate arena). This one runs the arena's own
rules (events/arena_core.py: who sits with whom, what a match scores, the
podium) over a simulated clock, with bots standing in for the people: every
match is played to its end by the engine (games/engine, the timeout move
``auto_action`` at every seat, which is fast), and lasts its number of moves
times a person's pause drawn from 1 to 4 seconds. Players join during the
first ten minutes; a few leave the arena for a while and come back; one in
fifty leaves a match (a confirmed leave: 0 and withdrawn). Free players are
seated at each tick of the events' ticker (every 2 simulated seconds, the
beat's ``EVENTS_TICK_SECONDS``), as soon as a table's worth are free.

Measured: the seat wait of every seating (from the moment a player is free
to his table; a player still waiting at the close counts with his wait up
to the close), its 95th percentile in simulated seconds; the standings
updates the socket would send (one for each join, leave, table opened and
match scored) per simulated second of the window; errors: any exception and
any broken rule (a player at two tables, a withdrawn one seated, a table of
the wrong size, a score the streak rule does not give). The database and
the socket are not in this loop (tests/events cover them); the wall time of
the run is printed for scale. The last line is exactly:

    arena players=200 matches=M p95_seat_wait_s=W standings_updates_per_s=U errors=E
"""

from __future__ import annotations

import argparse
import heapq
import pathlib
import random
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from events import arena_core  # noqa: E402
from games import engine  # noqa: E402
from games.engine import CHANCE  # noqa: E402

TICK = 2.0


def play_match(game, rules: dict, rng: random.Random) -> tuple[int | None, int]:
    """(winning team, moves): one match played to its end by the engine's timeout move."""
    state = game.new_match(rules)
    moves = 0
    while game.result(state) is None:
        to_act = game.to_act(state)
        if CHANCE in to_act:
            kind, cards = game.pending_chance(state)
            deck = list(cards)
            rng.shuffle(deck)
            state, _ = game.apply(state, CHANCE, {"type": kind, "deck": deck})
            continue
        seat = min(to_act)
        state, _ = game.apply(state, seat, game.auto_action(state, seat))
        moves += 1
    return game.result(state).get("winner"), moves


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def run(players: int, minutes: float, game_name: str, seed: int) -> dict:
    rng = random.Random(seed)
    game = engine.get(game_name)
    rules = game.validate_rules({"target": 3} if game_name.startswith("hokm") else {})
    size = game.players
    window = minutes * 60.0
    standing = {u: arena_core.Standing(u) for u in range(1, players + 1)}
    last: dict = {}
    free_since: dict[int, float] = {}
    present: set[int] = set()
    busy: set[int] = set()
    events: list = []  # (time, order, kind, payload)
    order = 0

    def push(at, kind, payload):
        nonlocal order
        order += 1
        heapq.heappush(events, (at, order, kind, payload))

    for u in standing:
        push(rng.uniform(0, min(600.0, window / 6)), "join", u)
        if rng.random() < 0.1:
            away = rng.uniform(window * 0.3, window * 0.6)
            push(away, "away", u)
            push(away + rng.uniform(60, 300), "join", u)
    t = 0.0
    while t <= window:
        push(t, "tick", None)
        t += TICK
    waits: list[float] = []
    updates = matches = errors = 0
    started = time.perf_counter()
    while events:
        now, _, kind, payload = heapq.heappop(events)
        try:
            if kind == "join":
                u = payload
                if now >= window or standing[u].withdrawn or u in present:
                    continue
                present.add(u)
                if u not in busy:
                    free_since[u] = now
                updates += 1
            elif kind == "away":
                u = payload
                if u in present:
                    present.discard(u)
                    free_since.pop(u, None)
                    updates += 1
            elif kind == "tick":
                if now >= window:
                    continue
                free = [u for u in free_since if u in present and u not in busy and not standing[u].withdrawn]
                scores = {u: standing[u].score for u in free}
                for seats in arena_core.tables(sorted(free), size, scores, last, rng):
                    if len(seats) != size or len(set(seats)) != size or set(seats) & busy:
                        errors += 1
                    if any(standing[u].withdrawn for u in seats):
                        errors += 1
                    for i, u in enumerate(seats):
                        waits.append(now - free_since.pop(u))
                        busy.add(u)
                        if size == 4:
                            last[u] = seats[(i + 2) % 4]
                    winner, moves = play_match(game, rules, rng)
                    duration = sum(rng.uniform(1.0, 4.0) for _ in range(moves))
                    leaver = rng.choice(seats) if rng.random() < 0.02 else None
                    push(now + duration, "end", (seats, winner, leaver))
                    matches += 1
                    updates += 1
            elif kind == "end":
                seats, winner, leaver = payload
                for seat, u in enumerate(seats, start=1):
                    busy.discard(u)
                    before = standing[u].score
                    if leaver is not None:
                        if u == leaver:
                            arena_core.withdraw(standing[u])
                            present.discard(u)
                            continue
                    else:
                        got = arena_core.score_result(standing[u], winner == game.team_of(seat))
                        if got not in (0, 2, 3) or standing[u].score != before + got:
                            errors += 1
                    if u in present and now < window:
                        free_since[u] = now
                updates += 1
        except Exception as exc:  # noqa: BLE001 - counted, and the run goes on
            errors += 1
            print(f"error at {now:.1f}s: {exc!r}", file=sys.stderr)
    for u, since in free_since.items():  # still waiting at the close
        if u in present and since < window:
            waits.append(window - since)
    podium = arena_core.podium(list(standing.values()))
    if len(set(podium)) != min(3, players):
        errors += 1
    return {
        "players": players,
        "matches": matches,
        "p95": percentile(waits, 95),
        "p50": percentile(waits, 50),
        "seatings": len(waits),
        "updates_per_s": updates / window,
        "errors": errors,
        "wall": time.perf_counter() - started,
        "podium": [(u, standing[u].score) for u in podium],
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--game", default="hokm4")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    r = run(args.players, args.minutes, args.game, args.seed)
    print(
        f"# {args.game} {args.minutes:g} min: seatings={r['seatings']} p50_seat_wait_s={r['p50']:.1f}"
        f" podium={r['podium']} wall_s={r['wall']:.1f}"
    )
    print(
        f"arena players={r['players']} matches={r['matches']} p95_seat_wait_s={r['p95']:.1f}"
        f" standings_updates_per_s={r['updates_per_s']:.2f} errors={r['errors']}"
    )
    return 0 if r["errors"] == 0 and r["p95"] <= 15 else 1


if __name__ == "__main__":
    sys.exit(main())
