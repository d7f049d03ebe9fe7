"""Play now (M-1, M-3): the tables it opened, a lock row per preset, and parties of two friends."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Queue(models.Model):
    """One row per preset: every seating for it runs with this row locked, so
    a queue served by many workers seats each person once, at one table."""

    preset = models.CharField(max_length=16, unique=True)

    def __str__(self):
        return self.preset


class Table(models.Model):
    """A room opened by Play now. Its empty seats get bots at ``bots_at`` (M-1)."""

    room = models.OneToOneField("rooms.Room", on_delete=models.CASCADE, related_name="playnow")
    preset = models.CharField(max_length=16, db_index=True)
    bots_at = models.DateTimeField(help_text=_("When the empty seats get bots, if nobody came."))
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"play now {self.preset} · room {self.room_id}"


class Party(models.Model):
    """A player pressed "Play now together" with a friend (M-3): when the
    friend presses too, both sit as partners."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="playnow_party"
    )
    friend = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    preset = models.CharField(max_length=16)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.user_id} with {self.friend_id} ({self.preset})"


class Seen(models.Model):
    """When a person was last connected at a room (M-5: a table nobody is at
    for 10 minutes is closed)."""

    room = models.OneToOneField("rooms.Room", on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField()

    def __str__(self):
        return f"room {self.room_id} seen {self.seen_at}"
