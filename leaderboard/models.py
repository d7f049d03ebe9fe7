"""The ledger: one entry per player per ended match, written once (L-1..L-3).

Append-only: an entry's points and result never change after it is written.
The only later mark is ``voided``, set by a moderator's ``MatchVoid`` for the
whole match at once; voided and practice entries count nowhere.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import GAME_CHOICES

from .families import Family


class LedgerQuerySet(models.QuerySet):
    def counted(self):
        """Entries that count in the leaderboards and statistics: no practice (L-2), not voided."""
        return self.filter(practice=False, voided=False)


class LedgerEntry(models.Model):
    class Result(models.TextChoices):
        WIN = "win", _("win")
        LOSS = "loss", _("loss")
        LEFT = "left", _("left the match")
        UNFINISHED = "unfinished", _("unfinished")

    LOSSES = (Result.LOSS, Result.LEFT)
    """A player who left counts a loss in the statistics (L-3)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="ledger_entries",
        verbose_name=_("player"),
    )
    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="ledger_entries", verbose_name=_("match")
    )
    game = models.CharField(_("game"), max_length=10, choices=GAME_CHOICES)
    family = models.CharField(_("game family"), max_length=10, choices=Family.choices, db_index=True)
    seat = models.PositiveSmallIntegerField(_("seat"))
    points = models.IntegerField(_("points"))
    result = models.CharField(_("result"), max_length=10, choices=Result.choices)
    practice = models.BooleanField(_("practice"), default=False, help_text=_("A bot took part (L-2)."))
    voided = models.BooleanField(_("voided"), default=False, help_text=_("A moderator voided the match."))
    created_at = models.DateTimeField(_("written at"), auto_now_add=True)

    objects = LedgerQuerySet.as_manager()

    class Meta:
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        ordering = ["-match_id", "seat"]
        constraints = [
            # Written once per match: a second write for the same match fails here.
            models.UniqueConstraint(fields=["match", "user"], name="leaderboard_entry_once_per_match"),
        ]
        indexes = [
            models.Index(fields=["family", "practice", "voided", "user"], name="leaderboard_family_idx"),
            models.Index(fields=["user", "practice", "voided"], name="leaderboard_user_idx"),
        ]

    def __str__(self):
        return f"{self.user_id} · match #{self.match_id}: {self.points:+d} ({self.result})"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("ledger entries are written once and never edited")
        super().save(*args, **kwargs)

    @property
    def counts_as_loss(self) -> bool:
        return self.result in self.LOSSES

    @property
    def side_score(self) -> tuple[int, int] | None:
        """(ours, theirs) from the match result, or None when it did not finish."""
        from games import engine
        from games.engine.seats import team_of

        result = self.match.result if self.match_id else None
        if self.result == self.Result.LEFT or self.result == self.Result.UNFINISHED or not result:
            return None
        score = result.get("score") or []
        if len(score) != 2:
            return None
        team = team_of(self.seat, engine.get(self.game).players)
        return score[team], score[1 - team]


class MatchVoid(models.Model):
    """A moderator voided a match: its entries count nowhere from then on."""

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, related_name="void", verbose_name=_("match")
    )
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("voided by"),
    )
    voided_at = models.DateTimeField(_("voided at"), auto_now_add=True)
    reason = models.TextField(_("reason"))

    class Meta:
        verbose_name = _("voided match")
        verbose_name_plural = _("voided matches")
        ordering = ["-voided_at"]

    def __str__(self):
        return f"match #{self.match_id} voided"
