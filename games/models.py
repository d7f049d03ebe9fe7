"""Matches, rounds and the append-only move log (ARCHITECTURE.md: games)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games import engine

GAME_CHOICES = [(game.name, _(game.label)) for game in engine.catalogue()]
"""Every game's key and translated name, from the engines' one contract."""


class Match(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("being played")
        FINISHED = "finished", _("finished")
        ABANDONED = "abandoned", _("ended by a player leaving")

    room = models.ForeignKey("rooms.Room", on_delete=models.CASCADE, related_name="matches")
    game = models.CharField(max_length=10, choices=GAME_CHOICES)
    rules = models.JSONField(default=dict)
    state = models.JSONField(default=dict)
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    practice = models.BooleanField(default=False, help_text=_("A bot took part (L-2)."))
    players = models.JSONField(default=list, help_text=_("Who sat where: [{seat, user_id, username, bot}]"))
    deadlines = models.JSONField(default=dict, help_text=_("Seat -> epoch seconds when its time runs out."))
    next_deadline = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    leaver_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    tea = models.JSONField(default=dict, blank=True, help_text=_("H4-X4: the tea's state (games/tea.py)."))
    gone = models.JSONField(
        default=dict,
        blank=True,
        help_text=_(
            "L-7: seat -> his moves in a row made by the clock while he was disconnected (games/standin.py)."
        ),
    )
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["-id"]
        indexes = [
            # Issue 13: the active matches only, so the index stays as small as
            # the number of live tables however many matches ever were: the
            # deadline ticker's and the sweep's question ("which active
            # matches are due?") reads them all and keeps the due ones, and a
            # room's active match is found by it. It names no column a move
            # writes (a move changes state, version, deadlines and
            # next_deadline): every move's UPDATE of the row is a HOT update,
            # which writes no index entry (an index on next_deadline made
            # every one of them write three). With the table's fillfactor
            # (migration 0005) a page keeps room for the row's next version.
            models.Index(fields=["room"], condition=models.Q(status="active"), name="games_match_active"),
        ]

    def __str__(self):
        return f"{self.game} match #{self.pk}"

    def seat_of_user(self, user_id) -> int | None:
        for p in self.players:
            if p.get("user_id") == user_id:
                return p["seat"]
        return None

    def player_at(self, seat: int) -> dict | None:
        for p in self.players:
            if p["seat"] == seat:
                return p
        return None


def first_due(deadlines: dict | None, players: list | None, now: float | None = None):
    """The seat whose deadline comes first, and who plays it: ``(seat, actor)``
    (the dealer for seat 0, a bot for a bot's seat, else the clock), or None.
    ``now``: only a deadline already due then (50 ms early counts); None: the
    first whatever its time. Ties go to the lower seat. The one reading of a
    match row's deadlines, for ``services.expire`` and the ticker alike."""
    due = [(t, int(s)) for s, t in (deadlines or {}).items() if now is None or t <= now + 0.05]
    if not due:
        return None
    _, seat = min(due)
    if seat == engine.CHANCE:
        return seat, Move.Actor.DEALER
    bot = any(p.get("seat") == seat and p.get("bot") for p in players or ())
    return seat, Move.Actor.BOT if bot else Move.Actor.CLOCK


class Round(models.Model):
    # No index of its own: the unique (match, number) constraint's serves.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds", db_index=False)
    number = models.PositiveIntegerField()
    first_seq = models.PositiveIntegerField(help_text=_("The move that dealt this round."))
    last_seq = models.PositiveIntegerField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="games_round_unique_number")]
        ordering = ["match", "number"]

    def __str__(self):
        return f"round {self.number} of match #{self.match_id}"


class Move(models.Model):
    """One applied action. Append-only: never updated, never deleted alone."""

    class Actor(models.TextChoices):
        PLAYER = "player", _("player")
        BOT = "bot", _("bot")
        CLOCK = "clock", _("automatic (time ran out)")
        DEALER = "dealer", _("dealer")

    # No index of its own: the unique (match, seq) constraint's serves (one
    # index fewer to write for every move, issue 13).
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves", db_index=False)
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(help_text=_("0 for the dealer (chance steps)."))
    action = models.JSONField()
    actor = models.CharField(max_length=8, choices=Actor.choices, default=Actor.PLAYER)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    events = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="games_move_unique_seq")]
        ordering = ["match", "seq"]

    def __str__(self):
        return f"move {self.seq} of match #{self.match_id}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("moves are append-only")
        super().save(*args, **kwargs)

    @property
    def auto(self) -> bool:
        return self.actor == self.Actor.CLOCK


class DealRecord(models.Model):
    """The deal nobody controls, for one round (F-1..F-6, docs/fairness.md).

    The server's secret and the seats' values stay private until the round
    has ended; the commitments are public from the start.
    """

    class Phase(models.TextChoices):
        COMMIT = "commit", _("waiting for fingerprints")
        REVEAL = "reveal", _("waiting for values")
        READY = "ready", _("ready to deal")
        DEALT = "dealt", _("dealt")

    # No index of its own: the unique (match, number) constraint's serves.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="deal_records", db_index=False)
    number = models.PositiveIntegerField(help_text=_("The round this deal starts (Round.number)."))
    algorithm = models.CharField(max_length=16)
    table = models.CharField(max_length=64, help_text=_("The table nonce fed to the stream."))
    seats = models.PositiveSmallIntegerField()
    phase = models.CharField(max_length=8, choices=Phase.choices, default=Phase.COMMIT)
    server_secret = models.CharField(max_length=64, help_text=_("Private until the round ends."))
    server_commitment = models.CharField(max_length=64)
    commitments = models.JSONField(
        default=list, help_text=_("By seat - 1: the SHA-256 each seat sent, or null.")
    )
    values = models.JSONField(
        default=list, help_text=_("By seat - 1: the values; private until the round ends.")
    )
    bots = models.JSONField(default=list, help_text=_("Seats whose value the server made (F-4)."))
    substituted = models.JSONField(default=list, help_text=_("Seats that did not answer in time (F-4)."))
    deck = models.JSONField(null=True, blank=True, help_text=_("The deal's deck, once dealt."))
    draw = models.JSONField(null=True, blank=True, help_text=_("The ace draw's deck (F-6), if any."))
    deadline = models.DateTimeField(null=True, blank=True, help_text=_("When missing answers are replaced."))
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="games_dealrecord_unique_number")
        ]
        ordering = ["match", "number"]

    def __str__(self):
        return f"deal record of round {self.number} of match #{self.match_id}"
