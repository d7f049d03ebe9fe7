"""Rating matches (M-2): Weng-Lin (openskill's Plackett-Luce model), once per match.

- Only matches between people: a bot at the table (``Match.practice``, L-2)
  and a seat without a user are never rated.
- A finished match rates every player: the winning side ranks first (teams
  of one or two, ``games.engine.seats.team_of``); no winner is a draw.
- A confirmed leave (L-3, status ABANDONED) rates the leaver alone, as his
  side's loss; his partner and the opponents keep their ratings and the
  match is not counted for them.
- Once only: a ``RatedMatch`` row per match is the key. The rating rows of
  the players are locked (in user id order) before it is written, so two
  matches of one player are rated in the order they ended, and the rebuild
  (``rebuild``, the ``rebuild_ratings`` command) computes the same numbers.
- Shown rating: the conservative estimate mu - 3 sigma, scaled to a familiar
  range: ``1500 + 20 (mu - 3 sigma)`` (1500 for a new player), "provisional"
  below ``PROVISIONAL_BELOW`` rated matches.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from openskill.models import PlackettLuce

from games.engine.seats import team_of
from games.models import Match

from .models import RatedMatch, Rating, RatingHistory

log = logging.getLogger(__name__)

MODEL = PlackettLuce()
"""openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""

BASE, SCALE = 1500, 20
PROVISIONAL_BELOW = 10
"""M-2: a rating with fewer rated matches is shown as provisional."""


def shown(mu: float, sigma: float) -> int:
    """The rating players see: the conservative estimate, scaled."""
    return round(BASE + SCALE * (mu - 3 * sigma))


def initial() -> tuple[float, float]:
    r = MODEL.rating()
    return r.mu, r.sigma


@dataclass(frozen=True)
class Change:
    user_id: int
    result: str
    mu: float
    sigma: float


def ratable(match: Match) -> bool:
    """People only (L-2) and ended."""
    if match.status not in (Match.Status.FINISHED, Match.Status.ABANDONED):
        return False
    if match.practice or not match.players:
        return False
    if any(p.get("bot") or not p.get("user_id") for p in match.players):
        return False
    if match.status == Match.Status.FINISHED and not (match.result or {}).get("score"):
        return False
    if match.status == Match.Status.ABANDONED and match.player_at(match.leaver_seat or 0) is None:
        return False
    return len({p["user_id"] for p in match.players}) == len(match.players)


def players_rated(match: Match) -> list[int]:
    """The user ids whose rating this match changes."""
    if match.status == Match.Status.ABANDONED:
        return [match.player_at(match.leaver_seat)["user_id"]]
    return sorted(p["user_id"] for p in match.players)


def compute(match: Match, current: dict[int, tuple[float, float]]) -> list[Change]:
    """The new ratings of a ratable match from the players' ``current``
    (user id -> (mu, sigma)). Pure: the live update and the rebuild share it."""
    n = len(match.players)
    sides: dict[int, list[dict]] = {}
    for p in sorted(match.players, key=lambda p: p["seat"]):
        sides.setdefault(team_of(p["seat"], n), []).append(p)
    order = sorted(sides)
    if match.status == Match.Status.ABANDONED:
        losing = team_of(match.leaver_seat, n)
        ranks = [2 if side == losing else 1 for side in order]
    else:
        winner = (match.result or {}).get("winner")
        ranks = [1 if winner is None or side == winner else 2 for side in order]
    teams = [[MODEL.rating(*current[p["user_id"]]) for p in sides[side]] for side in order]
    new = MODEL.rate(teams, ranks=ranks)
    changes = []
    rated = set(players_rated(match))
    for side, rank, team in zip(order, ranks, new, strict=True):
        for p, r in zip(sides[side], team, strict=True):
            if p["user_id"] not in rated:
                continue
            if match.status == Match.Status.ABANDONED:
                result = RatingHistory.Result.LEFT
            elif all(x == ranks[0] for x in ranks):
                result = RatingHistory.Result.DRAW
            else:
                result = RatingHistory.Result.WIN if rank == 1 else RatingHistory.Result.LOSS
            changes.append(Change(p["user_id"], result, r.mu, r.sigma))
    return changes


def rate_match(match: Match | int) -> list[RatingHistory]:
    """Rate an ended match once; returns the history rows written (empty when
    it is not ratable or was rated already). Safe to call again, and from
    several workers at once (the match row and the rating rows are locked)."""
    match_id = match.pk if isinstance(match, Match) else match
    with transaction.atomic():
        locked = Match.objects.select_for_update().filter(pk=match_id).first()
        if locked is None or not ratable(locked):
            return []
        if RatedMatch.objects.filter(match_id=match_id).exists():
            return []
        users = players_rated(locked)
        every = sorted(p["user_id"] for p in locked.players)
        mu0, sigma0 = initial()
        Rating.objects.bulk_create(
            [Rating(user_id=u, game=locked.game, mu=mu0, sigma=sigma0) for u in users],
            ignore_conflicts=True,
        )
        rows = {
            r.user_id: r
            for r in Rating.objects.select_for_update()
            .filter(game=locked.game, user_id__in=users)
            .order_by("user_id")
        }
        others = dict(
            (u, (mu, sigma))
            for u, mu, sigma in Rating.objects.filter(game=locked.game, user_id__in=every).values_list(
                "user_id", "mu", "sigma"
            )
        )
        current = {u: others.get(u, (mu0, sigma0)) for u in every}
        current.update({u: (r.mu, r.sigma) for u, r in rows.items()})
        try:
            with transaction.atomic():
                rated = RatedMatch.objects.create(match_id=match_id, game=locked.game)
        except IntegrityError:
            return []
        history = []
        for change in compute(locked, current):
            row = rows[change.user_id]
            history.append(
                RatingHistory(
                    rated=rated,
                    match_id=match_id,
                    user_id=change.user_id,
                    game=locked.game,
                    result=change.result,
                    mu_before=row.mu,
                    sigma_before=row.sigma,
                    mu=change.mu,
                    sigma=change.sigma,
                    matches=row.matches + 1,
                )
            )
            row.mu, row.sigma, row.matches = change.mu, change.sigma, row.matches + 1
            row.save(update_fields=["mu", "sigma", "matches", "updated"])
        RatingHistory.objects.bulk_create(history)
        return history


def on_match_ended(sender, match: Match, **kwargs) -> None:
    """Receiver of ``games.signals.match_ended`` (inside the ending transaction).
    A failure here is logged in a savepoint of its own and never undoes the
    move that ended the match; ``rebuild_ratings --pending`` rates it later."""
    try:
        with transaction.atomic():
            rate_match(match)
    except Exception:  # noqa: BLE001 - a rating must never roll back a game's move
        log.exception("rating match %s failed", match.pk)


def eligible_matches():
    """Every ended match that may be rated, in the order they ended."""
    return Match.objects.filter(
        status__in=[Match.Status.FINISHED, Match.Status.ABANDONED], practice=False
    ).order_by("finished_at", "pk")


def rebuild() -> dict[tuple[int, str], tuple[float, float, int]]:
    """Every rating computed again from the match history. Replaces the
    ratings, the history and the rated-match keys; returns
    (user id, game) -> (mu, sigma, matches)."""
    mu0, sigma0 = initial()
    with transaction.atomic():
        RatingHistory.objects.all().delete()
        RatedMatch.objects.all().delete()
        Rating.objects.all().delete()
        state: dict[tuple[int, str], list] = {}
        for match in eligible_matches().iterator():
            if not ratable(match):
                continue
            current = {
                p["user_id"]: tuple(state.get((p["user_id"], match.game), (mu0, sigma0, 0))[:2])
                for p in match.players
            }
            rated = RatedMatch.objects.create(match=match, game=match.game)
            rows = []
            for change in compute(match, current):
                key = (change.user_id, match.game)
                mu_b, sigma_b, n = state.get(key, (mu0, sigma0, 0))
                state[key] = (change.mu, change.sigma, n + 1)
                rows.append(
                    RatingHistory(
                        rated=rated,
                        match=match,
                        user_id=change.user_id,
                        game=match.game,
                        result=change.result,
                        mu_before=mu_b,
                        sigma_before=sigma_b,
                        mu=change.mu,
                        sigma=change.sigma,
                        matches=n + 1,
                    )
                )
            RatingHistory.objects.bulk_create(rows)
        Rating.objects.bulk_create(
            [
                Rating(user_id=u, game=g, mu=mu, sigma=sigma, matches=n)
                for (u, g), (mu, sigma, n) in state.items()
            ]
        )
    return {k: tuple(v) for k, v in state.items()}


def rate_pending() -> int:
    """Rate every ended match that was not rated (a failure logged by the receiver)."""
    done = set(RatedMatch.objects.values_list("match_id", flat=True))
    count = 0
    for pk in eligible_matches().exclude(pk__in=done).values_list("pk", flat=True):
        count += bool(rate_match(pk))
    return count


# --- reading -------------------------------------------------------------------------


def rating_of(user_id: int, game: str) -> dict:
    row = Rating.objects.filter(user_id=user_id, game=game).values("mu", "sigma", "matches").first()
    return describe(row["mu"], row["sigma"], row["matches"]) if row else describe(*initial(), 0)


def describe(mu: float, sigma: float, matches: int) -> dict:
    return {
        "rating": shown(mu, sigma),
        "mu": round(mu, 4),
        "sigma": round(sigma, 4),
        "matches": matches,
        "provisional": matches < PROVISIONAL_BELOW,
    }


def ratings_for(user_ids, game: str) -> dict[int, dict]:
    """Shown ratings of several players for one game (a new player: 1500, provisional)."""
    ids = [u for u in user_ids if u]
    found = {
        u: describe(mu, sigma, n)
        for u, mu, sigma, n in Rating.objects.filter(game=game, user_id__in=ids).values_list(
            "user_id", "mu", "sigma", "matches"
        )
    }
    fresh = describe(*initial(), 0)
    return {u: found.get(u, fresh) for u in ids}
