"""Refusals of the friends services: a code clients can read and a translatable message."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

MESSAGES = {
    "unknown_user": _("No player has that username."),
    "self": _("You cannot send a friend request to yourself."),
    "deactivated": _("That player's account is not active."),
    "already_friends": _("You are already friends."),
    "already_requested": _("You have already sent this player a request."),
    "they_requested": _("This player has already sent you a request: accept it below."),
    "blocked": _("This player does not accept requests or invites from you."),
    "you_blocked": _("You have blocked this player; unblock him first."),
    "no_request": _("There is no such pending request."),
    "not_friends": _("You can only invite your friends."),
    "not_seated": _("Take a seat in a waiting room first, then invite a friend to it."),
    "already_here": _("Your friend already sits at this table."),
    "already_invited": _("Your friend is already invited to this table: the invitation is still valid."),
    "no_invite": _("There is no such invite."),
    "invite_expired": _("This invite has expired: invites are valid for ten minutes."),
    "match_started": _("The match in that room has already started."),
    "room_full": _("That room is full: every seat is taken."),
    "seated_elsewhere": _("You are sitting in another room. Stay there, or leave it and take this seat?"),
    "confirm_leave": _("Your match in the other room is still being played; leaving it costs a penalty."),
    "bad_choice": _("Choose to stay or to leave your current room."),
    "bad_reason": _("Choose a reason for the report."),
    "bad_match": _("That match is not one the reported player took part in."),
    "no_match_for_void": _("Choose a match to void."),
    "bad_action": _("Choose warn, mute, deactivate, void or dismiss."),
    "no_reason": _("Say why: every moderator action records its reason."),
    "bad_duration": _("A duration is a positive number of minutes, or none for good."),
    "not_allowed": _("You are not allowed to do that."),
    "bad_status": _("A report is open, handled or dismissed."),
}


class FriendError(Exception):
    """A refused friends action. ``detail`` carries data for the client
    (the other room's code, the points a leave costs)."""

    def __init__(self, code: str, detail: dict | None = None):
        super().__init__(code)
        self.code = code
        self.detail = detail or {}

    @property
    def message(self) -> str:
        return str(MESSAGES.get(self.code, self.code))

    def as_dict(self) -> dict:
        data = {"code": self.code, "message": self.message}
        if self.detail:
            data["detail"] = self.detail
        return data
