"""Ratings per player and game (M-2, M-4): the current estimate and its history."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import GAME_CHOICES


class Rating(models.Model):
    """A player's current Weng-Lin estimate for one game (Hokm 4, Hokm 2, ...)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(_("game"), max_length=10, choices=GAME_CHOICES)
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="ratings_one_per_user_game")]
        indexes = [models.Index(fields=["game", "matches"], name="ratings_game_matches")]

    def __str__(self):
        return f"{self.user_id} {self.game}: {self.mu:.2f}±{self.sigma:.2f} ({self.matches})"


class RatedMatch(models.Model):
    """One row per match that was rated: the idempotency key (M-2: once per match)."""

    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, related_name="rated")
    game = models.CharField(max_length=10, choices=GAME_CHOICES)
    rated_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return f"rated match #{self.match_id}"


class RatingHistory(models.Model):
    """A player's rating after one rated match (the profile's chart, M-4)."""

    class Result(models.TextChoices):
        WIN = "win", _("win")
        LOSS = "loss", _("loss")
        DRAW = "draw", _("draw")
        LEFT = "left", _("left the match")

    rated = models.ForeignKey(RatedMatch, on_delete=models.CASCADE, related_name="rows")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="rating_rows")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_rows")
    game = models.CharField(max_length=10, choices=GAME_CHOICES)
    result = models.CharField(max_length=6, choices=Result.choices)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(help_text=_("Rated matches after this one."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="ratings_history_once")]
        indexes = [models.Index(fields=["user", "game", "id"], name="ratings_history_user")]

    def __str__(self):
        return f"{self.user_id} after match #{self.match_id}: {self.mu:.2f}±{self.sigma:.2f}"
