"""The friends page (R-9) and its forms. Views parse and delegate to services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.templatetags.persian import localise_digits
from rooms.models import Room, Seat
from rooms.services import leave_points

from . import moderation, presence, services
from .errors import FriendError
from .models import Block, Friendship, Invite, Report


def friends_of(user) -> list[dict]:
    """Each friend with what the viewer may know of his online status (None: hidden)."""
    rows = Friendship.objects.filter(Q(low=user) | Q(high=user), status=Friendship.Status.ACCEPTED)
    ids = [row.other(user.pk) for row in rows]
    people = get_user_model().objects.select_related("profile").filter(pk__in=ids).order_by("username")
    online = presence.online_ids()
    return [{"user": u, "username": u.username, "online": presence.visible_online(u, online)} for u in people]


def requests_of(user):
    pending = Friendship.objects.select_related("low", "high", "requested_by").filter(
        Q(low=user) | Q(high=user), status=Friendship.Status.PENDING
    )
    incoming = [r.requested_by for r in pending if r.requested_by_id != user.pk]
    outgoing = [r.high if r.low_id == user.pk else r.low for r in pending if r.requested_by_id == user.pk]
    return incoming, outgoing


def inviting_room(user) -> Room | None:
    """The waiting room with an empty seat ``user`` sits in: he can invite friends to it."""
    seat = (
        Seat.objects.select_related("room")
        .filter(user=user, room__status=Room.Status.WAITING)
        .order_by("-room__created_at")
        .first()
    )
    if seat is None or not any(s.is_empty for s in seat.room.seats.all()):
        return None
    return seat.room


def _page_invites(user) -> list:
    """Pending invites with what the page shows of each: the seconds left and
    why its seat cannot be taken now (R-9: no "Take the seat" then)."""
    rows = list(services.pending_invites(user))
    for row in rows:
        row.closed = services.invite_closed(row)
        row.closed_message = FriendError(row.closed).message if row.closed else ""
        row.seconds_left = services.seconds_left(row)
        row.left_text = clock_text(row.seconds_left)
    return rows


def clock_text(seconds: int) -> str:
    """``9:05`` for 545 seconds, in the page's digits (the countdown the page's script keeps up)."""
    return localise_digits(f"{seconds // 60}:{seconds % 60:02d}")


def _with_invites(people: list[dict], room) -> list[dict]:
    """Each friend already invited to ``room`` gets ``invited_for`` (seconds the invite is still valid)."""
    invited = {} if room is None else services.invited_here(room)
    for person in people:
        row = invited.get(person["user"].pk)
        person["invited_for"] = services.seconds_left(row) if row is not None else None
        person["invited_text"] = clock_text(person["invited_for"]) if row is not None else ""
    return people


@login_required
def index(request):
    user = request.user
    incoming, outgoing = requests_of(user)
    room = inviting_room(user)
    report_to = request.GET.get("report", "").strip()[:20]
    target = get_user_model().objects.filter(username__iexact=report_to).first() if report_to else None
    shared = services.shared_matches(user, target) if target and target.pk != user.pk else []
    # From the table's result panel the match comes along (?match=): it is chosen already.
    wanted = request.GET.get("match", "")
    report_match = int(wanted) if wanted.isdigit() and any(m.pk == int(wanted) for m in shared) else None
    return render(
        request,
        "friends/index.html",
        {
            "friends": _with_invites(friends_of(user), room),
            "incoming": incoming,
            "outgoing": outgoing,
            "invites": _page_invites(user),
            "blocked": Block.objects.select_related("blocked").filter(blocker=user),
            "room": room,
            "at_table": set(room.seats.exclude(user=None).values_list("user_id", flat=True))
            if room
            else set(),
            "reasons": Report.Reason.choices,
            "report_to": report_to,
            "shared": shared,
            "report_match": report_match,
            "notices": moderation.notices_for(user),
        },
    )


ACTIONS = {
    "request": (services.send_request, gettext_lazy("Request sent to %(name)s.")),
    "accept": (services.accept_request, gettext_lazy("You and %(name)s are now friends.")),
    "decline": (services.decline_request, gettext_lazy("Request from %(name)s declined.")),
    "cancel": (services.cancel_request, gettext_lazy("Request to %(name)s cancelled.")),
    "remove": (services.remove_friend, gettext_lazy("%(name)s is no longer your friend.")),
    "block": (services.block, gettext_lazy("%(name)s is blocked.")),
    "unblock": (services.unblock, gettext_lazy("%(name)s is no longer blocked.")),
    "invite": (services.invite, gettext_lazy("%(name)s is invited to your table.")),
}


@login_required
@require_POST
def act(request, op):
    name = request.POST.get("username", "").strip()
    entry = ACTIONS.get(op)
    if entry is None:
        return redirect("friends:index")
    func, done = entry
    try:
        func(request.user, name)
    except FriendError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, str(done) % {"name": name})
    return redirect("friends:index")


@login_required
@require_POST
def report(request):
    try:
        match_id = int(request.POST.get("match") or 0) or None
    except ValueError:
        match_id = None
    try:
        services.report(
            request.user,
            request.POST.get("username", ""),
            request.POST.get("reason", ""),
            request.POST.get("details", ""),
            match_id,
        )
    except FriendError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Thank you: the moderators will look at your report."))
    return redirect("friends:index")


@login_required
@require_POST
def accept_invite(request, invite_id):
    choice = request.POST.get("choice") or None
    confirm = request.POST.get("confirm") == "1"
    try:
        result = services.accept_invite(request.user, invite_id, choice=choice, confirm=confirm)
    except FriendError as exc:
        if exc.code in ("seated_elsewhere", "confirm_leave"):
            # ask before anything moves; nothing has changed yet.
            invite = Invite.objects.select_related("room", "sender").get(pk=invite_id)
            current = Room.objects.filter(code=exc.detail.get("room")).first()
            context = {
                "invite": invite,
                "current": current,
                "playing": current is not None and current.status == Room.Status.PLAYING,
                "confirming": exc.code == "confirm_leave",
                "points": leave_points(current.game) if current else 0,
                "message": exc.message,
            }
            return render(request, "friends/decide.html", context, status=409)
        messages.error(request, exc.message)
        return redirect("friends:index")
    if result["status"] == "stayed":
        messages.info(request, _("You stay in your current room."))
        return redirect(reverse("rooms:room", args=[result["room"]]))
    return redirect(reverse("rooms:room", args=[result["room"]]))


@login_required
@require_POST
def decline_invite(request, invite_id):
    try:
        services.decline_invite(request.user, invite_id)
    except FriendError as exc:
        messages.error(request, exc.message)
    return redirect("friends:index")
