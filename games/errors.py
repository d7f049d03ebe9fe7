"""Errors of the play service: a code the client can read and a translatable message."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

MESSAGES = {
    "no_match": _("There is no match being played here."),
    "match_over": _("This match is over."),
    "not_seated": _("You do not hold a seat at this table."),
    "not_your_seat": _("That seat is not yours."),
    "stale_version": _("The table has moved on; here is the current state."),
    "not_your_turn": _("It is not your turn."),
    "illegal": _("That move is not allowed now."),
    "bad_action": _("That message is not a valid move."),
    "bad_frame": _("That message could not be read."),
    "frame_too_large": _("That message is too large."),
    "unknown_type": _("Unknown message type."),
    "too_soon": _("Please wait before reacting again."),
    "rate_limited": _("Too many messages; slow down."),
    "bad_reaction": _("Unknown reaction."),
    "not_creator": _("Only the room's creator can do that."),
    "not_ready": _("Every guest must be ready first."),
    "seats_not_full": _("Every seat must be taken first."),
    "seat_taken": _("That seat is taken."),
    "bad_seat": _("There is no such seat."),
    "already_seated": _("You already have a seat here."),
    "room_busy": _("The match has already started."),
    "not_finished": _("The match is not over yet."),
    "confirm_required": _("Please confirm that you want to leave."),
    "sign_in": _("Sign in to take a seat."),
    "spectator": _("Spectators cannot do that."),
    "bad_rules": _("Those table rules are not valid."),
}


class PlayError(Exception):
    def __init__(self, code: str, detail: str = ""):
        super().__init__(code)
        self.code = code
        self.detail = detail

    @property
    def message(self) -> str:
        text = MESSAGES.get(self.code)
        return str(text) if text is not None else (self.detail or self.code)

    def as_frame(self, ref=None) -> dict:
        frame = {"type": "error", "code": self.code, "message": self.message}
        if self.detail:
            frame["detail"] = self.detail
        if ref is not None:
            frame["ref"] = ref
        return frame
