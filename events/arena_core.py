"""Arena rules (E-3), pure: who sits with whom, and what a match scores.

No Django, no I/O: the arena service (events/arena.py) and the benchmark
(bench/arena_events.py) drive the same functions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

WIN, LOSS = 2, 0
STREAK_WIN = 3
"""E-3: a win scores 2; a win after two wins in a row scores 3 (the streak)."""


@dataclass
class Standing:
    user_id: int
    score: int = 0
    streak: int = 0
    played: int = 0
    withdrawn: bool = False
    last_partner: int | None = None


def score_result(player: Standing, won: bool) -> int:
    """E-3: the points of one finished match for ``player`` (and his streak)."""
    player.played += 1
    if not won:
        player.streak = 0
        return LOSS
    points = STREAK_WIN if player.streak >= 2 else WIN
    player.streak += 1
    player.score += points
    return points


def withdraw(player: Standing) -> None:
    """E-3: a confirmed leave scores 0 and withdraws the leaver."""
    player.played += 1
    player.streak = 0
    player.withdrawn = True


def _pairings(four: list[int]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    a, b, c, d = four
    return [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]


def _repeats(pairs, last: dict) -> int:
    return sum(
        1 for x, y in pairs if x is not None and y is not None and (last.get(x) == y or last.get(y) == x)
    )


def tables(
    free: list[int],
    players: int,
    scores: dict,
    last: dict,
    rng: random.Random,
    since: dict | None = None,
) -> list[list[int]]:
    """Seat the free players (E-3): as many full tables as they make, each
    of players with close arena scores (sorted by score, ties broken at
    random); in a four-seat game the partners are drawn at random among the
    pairings that do not put last match's partners together again, when
    there is one. Returns each table's user ids by seat (seat 1 first;
    partners at seats 1 and 3, 2 and 4). Each player has one last partner,
    so at most two last partnerships meet in a group of four: they are one
    of its three pairings, and two others are always free of them.

    When the free players do not fill whole tables, the ones left over for
    the next tick are those free the shortest time (``since``: when each
    became free), not the lowest scores: otherwise the bottom of the field
    would be left out tick after tick (the seat wait's tail)."""
    order = list(free)
    rng.shuffle(order)
    extra = len(order) % players
    if extra and since:
        order.sort(key=lambda u: since.get(u, 0.0))
        order = order[: len(order) - extra]
    order.sort(key=lambda u: -scores.get(u, 0))
    groups = [order[i : i + players] for i in range(0, len(order) - len(order) % players, players)]
    seated = []
    for group in groups:
        if players != 4:
            rng.shuffle(group)
            seated.append(group)
            continue
        options = _pairings(group)
        best = min(_repeats(p, last) for p in options)
        pick = rng.choice([p for p in options if _repeats(p, last) == best])
        (a, c), (b, d) = pick
        seated.append([a, b, c, d])
    return seated


def with_bots(people: list[int], players: int, last: dict, rng: random.Random) -> list[int | None]:
    """E-3, the lead's decision (docs/events.md): the players left over, fewer
    than a table, seated with strong bots in the empty seats (``None``). Seat 1
    is a person (he opens the room). In a four-seat game the partnerships are
    drawn among those that do not put last match's partners together again
    (people only: a bot is nobody's partner twice); with two people that are
    last partners, they play against each other; with three, the bot partners
    the one whose pairing with the others would repeat."""
    if not 0 < len(people) < players:
        raise ValueError("a bot table needs from one person to a table's worth less one")
    group: list[int | None] = list(people) + [None] * (players - len(people))
    if players != 4:
        rest = group[1:]
        rng.shuffle(rest)
        return [group[0], *rest]
    options = _pairings(group)
    best = min(_repeats(p, last) for p in options)
    (a, c), (b, d) = rng.choice([p for p in options if _repeats(p, last) == best])
    if a is None:  # seat 1 is a person: take the pair with one first, the person first
        if c is None:
            (a, c), (b, d) = (b, d), (a, c)
        if a is None:
            a, c = c, a
    return [a, b, c, d]


def podium(standings: list[Standing]) -> list[int]:
    """Gold, silver, bronze: the top three by score (then fewer matches, then first joined)."""
    ranked = sorted(standings, key=lambda s: (-s.score, s.played))
    return [s.user_id for s in ranked[:3]]
