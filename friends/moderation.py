"""Moderators' actions on a reported player (R-9): warn, mute reactions,
deactivate for a time or for good, void a match. Each is one transaction
that writes a ``ModeratorAction`` (who, when, why) and marks the report
handled; a deactivated player's open sockets are closed right after commit.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.db import transaction

from accounts.sockets import close_user_sockets
from infra.cache import touch_on_commit
from leaderboard.services import void_match

from . import clock, notify
from .errors import FriendError
from .models import ModeratorAction, Report

User = get_user_model()
Kind = ModeratorAction.Kind


def reactions_muted(user) -> bool:
    """R-5 hook: True while a moderator's mute of ``user``'s reactions lasts."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    latest = (
        ModeratorAction.objects.filter(target_id=user.pk, kind=Kind.MUTE)
        .order_by("-created_at", "-pk")
        .first()
    )
    return latest is not None and (latest.until is None or latest.until > clock.now())


NOTICE_DAYS = 30
"""How long a warning stays on the warned player's friends page."""


def notices_for(user) -> dict:
    """What the moderators told ``user`` that he should see whenever he looks,
    not only on a page that was open then: recent warnings and a running mute."""
    since = clock.now() - dt.timedelta(days=NOTICE_DAYS)
    warnings = list(
        ModeratorAction.objects.filter(target=user, kind=Kind.WARN, created_at__gte=since).order_by(
            "-created_at"
        )[:5]
    )
    latest = (
        ModeratorAction.objects.filter(target=user, kind=Kind.MUTE).order_by("-created_at", "-pk").first()
    )
    muted = latest if latest is not None and (latest.until is None or latest.until > clock.now()) else None
    return {"warnings": warnings, "muted": muted}


def _until(minutes: int | None) -> dt.datetime | None:
    return None if not minutes else clock.now() + dt.timedelta(minutes=int(minutes))


def _record(kind, target, by, reason, report=None, match=None, until=None) -> ModeratorAction:
    action = ModeratorAction.objects.create(
        kind=kind, target=target, moderator=by, reason=reason, report=report, match=match, until=until
    )
    if report is not None:
        Report.objects.filter(pk=report.pk).update(
            status=Report.Status.DISMISSED if kind == Kind.DISMISS else Report.Status.HANDLED
        )
    return action


def warn(target, by, reason: str, report: Report | None = None) -> ModeratorAction:
    with transaction.atomic():
        action = _record(Kind.WARN, target, by, reason, report)
        notify.on_commit(target.pk, {"type": "friends.notice", "kind": "warn", "reason": reason})
    return action


def mute_reactions(target, by, reason: str, minutes: int | None = 60, report=None) -> ModeratorAction:
    with transaction.atomic():
        return _record(Kind.MUTE, target, by, reason, report, until=_until(minutes))


def deactivate(target, by, reason: str, minutes: int | None = None, report=None) -> ModeratorAction:
    """For ``minutes`` (None: for good). He is signed out everywhere at once:
    Django refuses an inactive user's session, and his sockets are closed."""
    with transaction.atomic():
        User.objects.filter(pk=target.pk).update(is_active=False)
        action = _record(Kind.DEACTIVATE, target, by, reason, report, until=_until(minutes))
        user_id = target.pk
        transaction.on_commit(lambda: close_user_sockets(user_id, "deactivated"))
        touch_on_commit("ledger")  # the rankings list active players only
    return action


def reactivate(target, by, reason: str) -> ModeratorAction:
    with transaction.atomic():
        User.objects.filter(pk=target.pk).update(is_active=True)
        touch_on_commit("ledger")
        return _record(Kind.REACTIVATE, target, by, reason)


def void(match, by, reason: str, report=None) -> ModeratorAction:
    """Reuses the leaderboard's voiding (its own who/when/why row), and records it here too."""
    if match is None:
        raise FriendError("no_match_for_void")
    with transaction.atomic():
        void_match(match, by, reason)
        target = report.reported if report is not None else by
        return _record(Kind.VOID, target, by, reason, report, match=match)


def dismiss(report: Report, by, reason: str) -> ModeratorAction:
    with transaction.atomic():
        return _record(Kind.DISMISS, report.reported, by, reason, report)


def recent_matches_of(user, limit: int = 10):
    """The reported player's latest matches, newest first (what a moderator looks at)."""
    from games.models import Match

    found = []
    for match in Match.objects.order_by("-started_at")[:500]:
        if match.seat_of_user(user.pk) is not None:
            found.append(match)
            if len(found) >= limit:
                break
    return found


ACTIONS = ("warn", "mute", "deactivate", "void", "dismiss")
"""What a moderator can do with a report (the admin's form and the API)."""


def apply(report: Report, by, action: str, reason: str, minutes: int | None = None, match_id=None):
    """Act on ``report`` as moderator ``by``: the one entry point of the admin
    and the REST API. ``minutes`` bounds a mute or a deactivation (None: for
    good); ``match_id`` names the match to void (the report's by default).
    Voiding also needs the leaderboard's ``add_matchvoid`` permission."""
    from games.models import Match

    if action not in ACTIONS:
        raise FriendError("bad_action")
    reason = (reason or "").strip()
    if not reason:
        raise FriendError("no_reason")
    if minutes is not None and int(minutes) <= 0:
        raise FriendError("bad_duration")
    target = report.reported
    if action == "warn":
        return warn(target, by, reason, report)
    if action == "mute":
        return mute_reactions(target, by, reason, minutes, report)
    if action == "deactivate":
        return deactivate(target, by, reason, minutes, report)
    if action == "void":
        if not by.has_perm("leaderboard.add_matchvoid"):
            raise FriendError("not_allowed")
        match = Match.objects.filter(pk=match_id or report.match_id or 0).first()
        return void(match, by, reason, report)
    return dismiss(report, by, reason)


def lift_expired(by=None) -> int:
    """Reactivate players whose timed deactivation ended (run periodically)."""
    count = 0
    now = clock.now()
    for user in User.objects.filter(is_active=False):
        latest = (
            ModeratorAction.objects.filter(target=user, kind__in=[Kind.DEACTIVATE, Kind.REACTIVATE])
            .order_by("-created_at", "-pk")
            .first()
        )
        if latest is not None and latest.kind == Kind.DEACTIVATE and latest.until and latest.until <= now:
            with transaction.atomic():
                User.objects.filter(pk=user.pk).update(is_active=True)
                _record(Kind.REACTIVATE, user, by, "timed deactivation ended")
            count += 1
    return count
