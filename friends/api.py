"""The friends REST API (R-9): the same operations as the friends page (the
moderators' report queue and actions are friends/moderation_api.py).

Signed-in only (session, with Django's CSRF check for browsers). Refusals
answer ``{"code", "message", "detail"?}``: 404 for an unknown player,
request or invite, 409 when the player must decide first (``seated_elsewhere``,
``confirm_leave``), 400 otherwise.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from . import services
from .errors import MESSAGES, FriendError
from .models import Report
from .views import friends_of, requests_of

NOT_FOUND = {"unknown_user", "no_request", "no_invite"}
DECIDE = {"seated_elsewhere", "confirm_leave"}


def error_response(exc: FriendError) -> Response:
    code = (
        status.HTTP_404_NOT_FOUND
        if exc.code in NOT_FOUND
        else status.HTTP_409_CONFLICT
        if exc.code in DECIDE
        else status.HTTP_400_BAD_REQUEST
    )
    return Response(exc.as_dict(), status=code)


class ErrorSerializer(serializers.Serializer):
    code = serializers.ChoiceField(choices=sorted(MESSAGES))
    message = serializers.CharField(help_text="Translated into the request's language.")
    detail = serializers.DictField(
        required=False, help_text="seated_elsewhere: {room, playing}; confirm_leave: {room, points}."
    )


class UsernameSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=20)


class FriendSerializer(serializers.Serializer):
    username = serializers.CharField()
    online = serializers.BooleanField(
        allow_null=True, help_text="null when the friend hides his online status (his preference)."
    )


class InviteSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    sender = serializers.CharField(source="sender.username")
    room = serializers.CharField(source="room.code")
    game = serializers.CharField(source="room.game")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(help_text="Ten minutes after it was sent.")
    expires_in = serializers.SerializerMethodField(help_text="Seconds it is still valid.")
    closed = serializers.SerializerMethodField(
        help_text="null while its seat can be taken; match_started or room_full when not (R-9)."
    )

    @extend_schema_field(OpenApiTypes.INT)
    def get_expires_in(self, row) -> int:
        return services.seconds_left(row)

    @extend_schema_field(serializers.ChoiceField(choices=["match_started", "room_full"], allow_null=True))
    def get_closed(self, row):
        return services.invite_closed(row)


class OverviewSerializer(serializers.Serializer):
    friends = FriendSerializer(many=True)
    incoming = serializers.ListField(child=serializers.CharField(), help_text="Usernames who asked you.")
    outgoing = serializers.ListField(child=serializers.CharField(), help_text="Usernames you asked.")
    invites = InviteSerializer(
        many=True, help_text="Invites still valid; those whose room filled or started say so (closed)."
    )
    blocked = serializers.ListField(child=serializers.CharField())


OK = inline_serializer("FriendsOk", {"ok": serializers.BooleanField()})
ERRORS = {400: ErrorSerializer, 404: ErrorSerializer}


class FriendsAPIView(APIView):
    permission_classes = [IsAuthenticated]


@extend_schema(
    summary="My friends, requests and invites",
    description="Friends with their online status (null: hidden by the friend), pending requests both "
    "ways, invites still valid, blocked players.",
    responses=OverviewSerializer,
)
class OverviewView(FriendsAPIView):
    def get(self, request):
        user = request.user
        incoming, outgoing = requests_of(user)
        data = {
            "friends": friends_of(user),
            "incoming": [u.username for u in incoming],
            "outgoing": [u.username for u in outgoing],
            "invites": list(services.pending_invites(user)),
            "blocked": list(user.blocks.values_list("blocked__username", flat=True)),
        }
        return Response(OverviewSerializer(data).data)


def _username_action(func, summary, description, created=False):
    """A POST {username} endpoint calling ``func(user, username)``."""

    @extend_schema(
        summary=summary,
        description=description,
        request=UsernameSerializer,
        responses={(201 if created else 200): OK, **ERRORS},
    )
    def post(self, request):
        form = UsernameSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            func(request.user, form.validated_data["username"])
        except FriendError as exc:
            return error_response(exc)
        return Response({"ok": True}, status=201 if created else 200)

    return type(f"{func.__name__.title().replace('_', '')}View", (FriendsAPIView,), {"post": post})


SendRequestView = _username_action(
    services.send_request,
    "Send a friend request",
    "Refused for yourself (self), an unknown (unknown_user) or deactivated (deactivated) player, a "
    "duplicate in either direction (already_requested, they_requested, already_friends) or a block "
    "(blocked, you_blocked).",
    created=True,
)
AcceptRequestView = _username_action(services.accept_request, "Accept a request", "From `username`.")
DeclineRequestView = _username_action(services.decline_request, "Decline a request", "From `username`.")
CancelRequestView = _username_action(services.cancel_request, "Cancel my request", "To `username`.")
RemoveFriendView = _username_action(services.remove_friend, "Remove a friend", "")
BlockView = _username_action(
    services.block, "Block a player", "Ends a friendship or request; he can send no more requests or invites."
)
UnblockView = _username_action(services.unblock, "Unblock a player", "")
InviteView = _username_action(
    services.invite,
    "Invite a friend to my waiting room",
    "To the waiting room you sit in, which must have an empty seat. Valid for ten minutes. A friend "
    "who already holds a valid invite to that table is refused (already_invited, with the seconds it "
    "is still valid in detail.expires_in).",
    created=True,
)


class AcceptInviteSerializer(serializers.Serializer):
    choice = serializers.ChoiceField(
        choices=["stay", "leave"],
        required=False,
        allow_null=True,
        help_text="Only when seated in another room: stay there, or leave it and take this seat.",
    )
    confirm = serializers.BooleanField(
        default=False, help_text="Leaving an active match costs the leave penalty (L-3): confirm it."
    )


INVITE_ID = OpenApiParameter("invite_id", OpenApiTypes.INT, OpenApiParameter.PATH)


@extend_schema(
    summary="Accept an invite",
    description="Refused when expired (invite_expired), the match started (match_started) or the room "
    "is full (room_full). Seated in another room, the answer is 409 seated_elsewhere until you choose; "
    "leaving an active match then needs confirm (409 confirm_leave with the points).",
    parameters=[INVITE_ID],
    request=AcceptInviteSerializer,
    responses={
        200: inline_serializer(
            "InviteAccepted",
            {
                "status": serializers.ChoiceField(choices=["seated", "stayed"]),
                "room": serializers.CharField(),
            },
        ),
        409: ErrorSerializer,
        **ERRORS,
    },
)
class AcceptInviteView(FriendsAPIView):
    def post(self, request, invite_id):
        form = AcceptInviteSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            result = services.accept_invite(
                request.user, invite_id, form.validated_data.get("choice"), form.validated_data["confirm"]
            )
        except FriendError as exc:
            return error_response(exc)
        return Response(result)


@extend_schema(
    summary="Decline an invite", parameters=[INVITE_ID], request=None, responses={200: OK, **ERRORS}
)
class DeclineInviteView(FriendsAPIView):
    def post(self, request, invite_id):
        try:
            services.decline_invite(request.user, invite_id)
        except FriendError as exc:
            return error_response(exc)
        return Response({"ok": True})


class ReportSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=20)
    reason = serializers.ChoiceField(choices=Report.Reason.values)
    details = serializers.CharField(required=False, allow_blank=True, max_length=2000)
    match = serializers.IntegerField(required=False, allow_null=True, help_text="The match it happened in.")


@extend_schema(
    summary="Report a player",
    description="Reaches the moderators' queue in the admin.",
    request=ReportSerializer,
    responses={201: inline_serializer("ReportMade", {"id": serializers.IntegerField()}), **ERRORS},
)
class ReportView(FriendsAPIView):
    def post(self, request):
        form = ReportSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        try:
            row = services.report(
                request.user, data["username"], data["reason"], data.get("details", ""), data.get("match")
            )
        except FriendError as exc:
            return error_response(exc)
        return Response({"id": row.pk}, status=201)
