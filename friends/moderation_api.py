"""The moderators' REST API (R-9): the report queue and the actions on it (the
admin's, for a member of the Moderators group). Refusals answer as the
friends API's (friends/api.py): ``{"code", "message", "detail"?}``.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.response import Response
from rest_framework.views import APIView

from . import moderation
from .api import ErrorSerializer
from .errors import FriendError
from .models import ModeratorAction, Report


class IsModerator(BasePermission):
    """Reading the queue needs ``friends.view_report``; acting on it ``friends.add_moderatoraction``
    (the ``Moderators`` group holds both; voiding also needs ``leaderboard.add_matchvoid``)."""

    def has_permission(self, request, view):
        user = request.user
        if not (user and user.is_authenticated and user.is_staff):
            return False
        if request.method in SAFE_METHODS:
            return user.has_perm("friends.view_report")
        return user.has_perm("friends.add_moderatoraction")


class MatchBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    status = serializers.CharField()
    started_at = serializers.DateTimeField()


class ModeratorActionSerializer(serializers.ModelSerializer):
    target = serializers.CharField(source="target.username")
    moderator = serializers.CharField(source="moderator.username", allow_null=True, help_text="Who.")
    report = serializers.IntegerField(source="report_id", allow_null=True)
    match = serializers.IntegerField(source="match_id", allow_null=True)

    class Meta:
        model = ModeratorAction
        fields = ["id", "kind", "target", "moderator", "created_at", "reason", "until", "report", "match"]
        extra_kwargs = {
            "created_at": {"help_text": "When."},
            "reason": {"help_text": "Why."},
            "until": {"help_text": "A mute's or deactivation's end; null: for good."},
        }


class ReportBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    reporter = serializers.CharField(source="reporter.username")
    reason = serializers.CharField()
    status = serializers.CharField()
    created_at = serializers.DateTimeField()


class QueuedReportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    reported = serializers.CharField(source="reported.username")
    reported_active = serializers.BooleanField(source="reported.is_active")
    reporter = serializers.CharField(source="reporter.username")
    reason = serializers.CharField()
    details = serializers.CharField()
    match = serializers.IntegerField(source="match_id", allow_null=True)
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
    recent_matches = serializers.SerializerMethodField(help_text="The reported player's latest matches.")
    other_reports = serializers.SerializerMethodField(help_text="Other reports about him.")
    actions_taken = serializers.SerializerMethodField(help_text="Moderator actions against him.")

    @extend_schema_field(MatchBriefSerializer(many=True))
    def get_recent_matches(self, obj):
        return MatchBriefSerializer(moderation.recent_matches_of(obj.reported), many=True).data

    @extend_schema_field(ReportBriefSerializer(many=True))
    def get_other_reports(self, obj):
        rows = Report.objects.filter(reported=obj.reported).exclude(pk=obj.pk).select_related("reporter")
        return ReportBriefSerializer(rows[:20], many=True).data

    @extend_schema_field(ModeratorActionSerializer(many=True))
    def get_actions_taken(self, obj):
        rows = ModeratorAction.objects.filter(target=obj.reported).select_related("target", "moderator")
        return ModeratorActionSerializer(rows[:20], many=True).data


STATUS_FILTER = OpenApiParameter(
    "status", OpenApiTypes.STR, enum=Report.Status.values, description="Default: open."
)
REPORT_ID = OpenApiParameter("report_id", OpenApiTypes.INT, OpenApiParameter.PATH)


@extend_schema(
    summary="The moderators' report queue",
    description="Oldest first, with the reported player's recent matches, other reports and the actions "
    "already taken against him. Staff in the Moderators group (friends.view_report) only.",
    parameters=[STATUS_FILTER],
    responses={200: QueuedReportSerializer(many=True), 403: None},
)
class ReportQueueView(APIView):
    permission_classes = [IsModerator]

    def get(self, request):
        wanted = request.query_params.get("status") or Report.Status.OPEN
        if wanted not in Report.Status.values:
            return Response(FriendError("bad_status").as_dict(), status=status.HTTP_400_BAD_REQUEST)
        rows = (
            Report.objects.filter(status=wanted)
            .select_related("reported", "reporter")
            .order_by("created_at", "pk")[:100]
        )
        return Response(QueuedReportSerializer(rows, many=True).data)


@extend_schema(
    summary="One report, as a moderator sees it",
    parameters=[REPORT_ID],
    responses={200: QueuedReportSerializer, 403: None, 404: None},
)
class ReportDetailView(APIView):
    permission_classes = [IsModerator]

    def get(self, request, report_id):
        row = get_object_or_404(Report.objects.select_related("reported", "reporter"), pk=report_id)
        return Response(QueuedReportSerializer(row).data)


class ModerateSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=list(moderation.ACTIONS))
    reason = serializers.CharField(max_length=2000, help_text="Why: recorded with who and when.")
    minutes = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=60 * 24 * 366,
        help_text="mute, deactivate: for how long; null or absent: for good.",
    )
    match = serializers.IntegerField(
        required=False, allow_null=True, help_text="void: the match (the report's by default)."
    )


@extend_schema(
    summary="Act on a report",
    description="warn, mute (reactions), deactivate (for `minutes` or for good; his open sockets are "
    "closed at once), void a match (also needs leaderboard.add_matchvoid), or dismiss. Each is recorded "
    "with who, when and why, and marks the report handled (dismissed).",
    parameters=[REPORT_ID],
    request=ModerateSerializer,
    responses={201: ModeratorActionSerializer, 400: ErrorSerializer, 403: None, 404: None},
)
class ModerateView(APIView):
    permission_classes = [IsModerator]

    def post(self, request, report_id):
        row = get_object_or_404(Report.objects.select_related("reported", "match"), pk=report_id)
        form = ModerateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        try:
            action = moderation.apply(
                row, request.user, data["action"], data["reason"], data.get("minutes"), data.get("match")
            )
        except FriendError as exc:
            code = status.HTTP_403_FORBIDDEN if exc.code == "not_allowed" else status.HTTP_400_BAD_REQUEST
            return Response(exc.as_dict(), status=code)
        action = ModeratorAction.objects.select_related("target", "moderator").get(pk=action.pk)
        return Response(ModeratorActionSerializer(action).data, status=status.HTTP_201_CREATED)
