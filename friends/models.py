"""Friendships, blocks, invites to a waiting room, reports and moderators' actions (R-9)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from . import clock

INVITE_VALIDITY = dt.timedelta(minutes=10)
"""R-9: an invite is valid for ten minutes."""


class Friendship(models.Model):
    """One row per pair of players, whoever asked: ``low`` < ``high`` by id, so
    a request from alice to bob and one from bob to alice are the same row and
    the database itself refuses a duplicate in either direction."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("friends")

    low = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    high = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_requests_sent"
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(_("asked at"), default=clock.now)
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        constraints = [
            models.UniqueConstraint(fields=["low", "high"], name="friends_friendship_one_per_pair"),
            models.CheckConstraint(condition=Q(low__lt=F("high")), name="friends_friendship_ordered"),
        ]

    def __str__(self):
        return f"{self.low} & {self.high} ({self.status})"

    @staticmethod
    def pair(a_id: int, b_id: int) -> tuple[int, int]:
        return (a_id, b_id) if a_id < b_id else (b_id, a_id)

    def other(self, user_id: int) -> int:
        return self.high_id if self.low_id == user_id else self.low_id


class Block(models.Model):
    """``blocker`` no longer gets requests or invites from ``blocked``."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=clock.now)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="friends_block_once")]

    def __str__(self):
        return f"{self.blocker} blocks {self.blocked}"


class Invite(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invites_sent"
    )
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invites_received"
    )
    room = models.ForeignKey("rooms.Room", on_delete=models.CASCADE, related_name="invites")
    matches_before = models.PositiveIntegerField(
        default=0, help_text="How many matches the room had begun when the invite was sent."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(default=clock.now)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("invite")
        verbose_name_plural = _("invites")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["recipient", "status"])]

    def __str__(self):
        return f"{self.sender} invites {self.recipient} to {self.room_id}"

    @property
    def expires_at(self) -> dt.datetime:
        return self.created_at + INVITE_VALIDITY

    def expired(self, at: dt.datetime | None = None) -> bool:
        return (at or clock.now()) > self.expires_at


class Report(models.Model):
    class Reason(models.TextChoices):
        ABUSE = "abuse", _("abusive behaviour")
        CHEATING = "cheating", _("cheating or collusion")
        STALLING = "stalling", _("stalling or leaving on purpose")
        NAME = "name", _("offensive username")
        OTHER = "other", _("something else")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        HANDLED = "handled", _("handled")
        DISMISSED = "dismissed", _("dismissed")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made"
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_received"
    )
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    details = models.TextField(_("details"), blank=True, max_length=2000)
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="reports"
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    created_at = models.DateTimeField(_("reported at"), default=clock.now)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-created_at"]

    def __str__(self):
        return f"#{self.pk}: {self.reporter} reports {self.reported}"


class ModeratorAction(models.Model):
    """What a moderator did, to whom, when and why (append-only)."""

    class Kind(models.TextChoices):
        WARN = "warn", _("warning")
        MUTE = "mute", _("reactions muted")
        DEACTIVATE = "deactivate", _("deactivated")
        REACTIVATE = "reactivate", _("reactivated")
        VOID = "void", _("match voided")
        DISMISS = "dismiss", _("report dismissed")

    kind = models.CharField(_("action"), max_length=12, choices=Kind.choices)
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="moderation_received"
    )
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="moderation_done",
        verbose_name=_("moderator"),
    )
    report = models.ForeignKey(
        Report, null=True, blank=True, on_delete=models.SET_NULL, related_name="actions"
    )
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField(_("why"))
    until = models.DateTimeField(_("until"), null=True, blank=True, help_text=_("Empty: for good."))
    created_at = models.DateTimeField(_("when"), default=clock.now)

    class Meta:
        verbose_name = _("moderator action")
        verbose_name_plural = _("moderator actions")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["target", "kind"])]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.target} by {self.moderator}"
