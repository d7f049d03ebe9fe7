"""Writing the ledger when a match ends (L-1, L-2, L-3).

``record_match`` is connected to ``games.signals.match_ended`` and runs inside
the transaction that ends the match: the entries and the match's end commit
together or not at all.

Decisions (documented for issue 9):

- Points, finished match (L-1). Hokm: each player gets his side's round wins
  (7:5 gives 7 and 5); a side with no round won gets -1 each. Shelem: the
  side's final match score, positive or negative. Bridge (our addition): the
  side's rubber total. Win or loss comes from ``result["winner"]`` and the
  side of the player's seat.
- Leaving (L-3). The leaver gets -2 (Hokm) or -100 (Shelem) and the result
  "left", which the statistics count as a loss; no score of the match is
  recorded for him. Bridge has no penalty in the rules: the leaver gets 0
  points and "left" (a loss). Every other player gets "unfinished" with 0
  points, neither win nor loss.
- Practice (L-2). Entries are written for the human players with
  ``practice=True`` (so the match stays on record), and every leaderboard,
  statistic and list excludes them (``LedgerEntry.objects.counted()``). Bots
  have no user and never get an entry.
- Once only. If entries exist for the match, nothing is written. Two workers
  at once are serialised by the match row lock; the unique constraint on
  (match, user) is the backstop: a losing insert rolls back to its savepoint
  and the writer returns quietly.
"""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from games import engine
from games.engine.seats import team_of
from games.models import Match
from infra.cache import touch_on_commit

from .families import Family, family_of
from .models import LedgerEntry, MatchVoid

log = logging.getLogger(__name__)

LEAVE_PENALTY = {Family.HOKM: -2, Family.SHELEM: -100, Family.BRIDGE: 0}
"""L-3: what leaving an active match costs the leaver (Bridge: our choice, 0 and a loss)."""

ZERO_SIDE_HOKM = -1
"""L-1: a Hokm side that won no round gets -1 each."""


def players_of(game: str) -> int:
    return engine.get(game).players


def points_for(match: Match, seat: int) -> tuple[int, str]:
    """(points, result) for the player at ``seat`` of an ended ``match``."""
    family = family_of(match.game)
    if match.status == Match.Status.ABANDONED:
        if seat == match.leaver_seat:
            return LEAVE_PENALTY[family], LedgerEntry.Result.LEFT
        return 0, LedgerEntry.Result.UNFINISHED
    result = match.result or {}
    team = team_of(seat, players_of(match.game))
    side = int(result["score"][team])
    if family == Family.HOKM:
        points = side if side > 0 else ZERO_SIDE_HOKM
    else:  # Shelem: the signed match score; Bridge: the rubber total.
        points = side
    outcome = LedgerEntry.Result.WIN if result.get("winner") == team else LedgerEntry.Result.LOSS
    return points, outcome


def entries_for(match: Match) -> list[LedgerEntry]:
    """The unsaved entries of an ended match: one per human player, none for bots."""
    humans = [p for p in match.players if p.get("user_id") and not p.get("bot")]
    known = set(
        get_user_model().objects.filter(pk__in=[p["user_id"] for p in humans]).values_list("pk", flat=True)
    )
    practice = bool(match.practice) or any(p.get("bot") or not p.get("user_id") for p in match.players)
    voided = MatchVoid.objects.filter(match_id=match.pk).exists()
    family = family_of(match.game)
    entries = []
    for p in humans:
        if p["user_id"] not in known:
            continue
        points, outcome = points_for(match, p["seat"])
        entries.append(
            LedgerEntry(
                user_id=p["user_id"],
                match_id=match.pk,
                game=match.game,
                family=family,
                seat=p["seat"],
                points=points,
                result=outcome,
                practice=practice,
                voided=voided,
            )
        )
    return entries


def write_ledger(match: Match | int) -> list[LedgerEntry]:
    """Write the ledger of an ended match once; returns the entries written (empty if
    there was nothing to write or they were already written). Safe to call
    again and from several workers at once."""
    match_id = match.pk if isinstance(match, Match) else match
    with transaction.atomic():
        # Inside the ending transaction the lock is already ours; from elsewhere
        # this waits for a writer in progress, which then has committed.
        locked = Match.objects.select_for_update().filter(pk=match_id).first()
        if locked is None or locked.status not in (Match.Status.FINISHED, Match.Status.ABANDONED):
            return []
        if locked.status == Match.Status.FINISHED and not (locked.result or {}).get("score"):
            log.error("match %s finished without a score; no ledger written", match_id)
            return []
        if _already_written(match_id):
            return []
        entries = entries_for(locked)
        try:
            with transaction.atomic():
                written = LedgerEntry.objects.bulk_create(entries)
            touch_on_commit("ledger")  # the shared rankings (issue 33)
            return written
        except IntegrityError:
            # Another worker wrote this match first (the constraint held).
            log.info("ledger of match %s already written", match_id)
            return []


def _already_written(match_id: int) -> bool:
    return LedgerEntry.objects.filter(match_id=match_id).exists()


def record_match(sender, match: Match, **kwargs) -> None:
    """Receiver of ``games.signals.match_ended``."""
    write_ledger(match)
