"""Rooms and seats (ARCHITECTURE.md: rooms)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.models import GAME_CHOICES

CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))


class Room(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting for players")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")

    code = models.SlugField(max_length=12, unique=True, default=new_code)
    game = models.CharField(max_length=10, choices=GAME_CHOICES)
    rules = models.JSONField(default=dict)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="created_rooms"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING, db_index=True)
    is_private = models.BooleanField(_("private (link only)"), default=False)
    story_next = models.PositiveSmallIntegerField(
        default=1, help_text=_("H4-X4: the chapter the narrator tells at this table's next tea.")
    )
    arena_url = models.CharField(
        _("arena page"),
        max_length=200,
        blank=True,
        default="",
        help_text=_(
            "E-3: set when an arena made this room for one of its matches. Its players go back to "
            "the arena, which seats them at their next table; no rematch is played here."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.get_game_display()} · {self.code}"

    def get_absolute_url(self):
        return reverse("rooms:room", args=[self.code])

    def current_match(self):
        return self.matches.order_by("-id").first()


class Seat(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    is_bot = models.BooleanField(default=False)
    bot_level = models.CharField(
        max_length=8,
        choices=[("easy", _("easy")), ("normal", _("normal")), ("strong", _("strong"))],
        default="normal",
        help_text=_("How hard a bot in this seat plays (issue 21)."),
    )
    ready = models.BooleanField(default=False)
    rematch = models.BooleanField(default=False, help_text=_("Agreed to play again (R-3)."))

    class Meta:
        ordering = ["room", "number"]
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="rooms_seat_unique_number"),
            models.UniqueConstraint(
                fields=["room", "user"],
                condition=models.Q(user__isnull=False),
                name="rooms_seat_one_per_user",
            ),
        ]

    def __str__(self):
        who = "bot" if self.is_bot else (self.user.username if self.user_id else "empty")
        return f"{self.room.code} seat {self.number}: {who}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.is_bot
