"""The daily challenge (E-1, E-2) and arenas (E-3)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

CHALLENGE_GAMES = ("hokm4", "shelem4", "bridge")


class ChallengeDay(models.Model):
    """One day's challenge of one game: its seed, committed before the day (E-1)."""

    date = models.DateField()
    game = models.CharField(max_length=10)
    seed = models.CharField(max_length=64, help_text=_("Secret until the day closes."))
    fingerprint = models.CharField(max_length=64, help_text=_("SHA-256 of the seed, public from creation."))
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    ranking = models.JSONField(default=list, blank=True, help_text=_("The final ranking, set at the close."))

    class Meta:
        ordering = ["-date", "game"]
        constraints = [models.UniqueConstraint(fields=["date", "game"], name="events_day_unique")]

    def __str__(self):
        return f"{self.game} challenge of {self.date}"

    @property
    def closed(self) -> bool:
        return self.closed_at is not None


class ChallengeEntry(models.Model):
    day = models.ForeignKey(ChallengeDay, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenge_entries"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["day", "created_at"]
        constraints = [models.UniqueConstraint(fields=["day", "user"], name="events_entry_unique")]

    def __str__(self):
        return f"entry of user #{self.user_id} in {self.day_id}"


class ChallengeDeal(models.Model):
    """One deal of one entry: a one-round practice match in a private room."""

    entry = models.ForeignKey(ChallengeEntry, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()
    room_id = models.IntegerField(db_index=True)
    match_id = models.IntegerField(null=True, blank=True, db_index=True)
    done = models.BooleanField(default=False)
    value = models.IntegerField(null=True, blank=True, help_text=_("The entrant side's result of the deal."))
    started_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["entry", "number"]
        constraints = [models.UniqueConstraint(fields=["entry", "number"], name="events_deal_unique")]

    def __str__(self):
        return f"deal {self.number} of entry #{self.entry_id}"


class Arena(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("scheduled")
        RUNNING = "running", _("running")
        CLOSING = "closing", _("closing")
        FINISHED = "finished", _("finished")

    name = models.CharField(_("name"), max_length=80)
    game = models.CharField(_("game"), max_length=10)
    rules = models.JSONField(_("rules"), default=dict, blank=True)
    starts_at = models.DateTimeField(_("starts at"))
    minutes = models.PositiveSmallIntegerField(_("length in minutes"), default=60)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    podium = models.JSONField(default=list, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at"]

    def __str__(self):
        return self.name


class ArenaPlayer(models.Model):
    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="arena_entries")
    score = models.IntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0)
    played = models.PositiveSmallIntegerField(default=0)
    present = models.BooleanField(default=True, help_text=_("Wants to be seated."))
    withdrawn = models.BooleanField(default=False)
    busy = models.BooleanField(default=False, help_text=_("At a table now."))
    free_since = models.DateTimeField(null=True, blank=True)
    last_partner = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-score", "id"]
        constraints = [models.UniqueConstraint(fields=["arena", "user"], name="events_arena_player_unique")]

    def __str__(self):
        return f"user #{self.user_id} in arena #{self.arena_id}"


class ArenaTable(models.Model):
    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="tables")
    room_id = models.IntegerField(null=True, blank=True)
    match_id = models.IntegerField(null=True, blank=True, db_index=True)
    seats = models.JSONField(default=list, help_text=_("User ids by seat - 1."))
    scored = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"table of arena #{self.arena_id} (room #{self.room_id})"
