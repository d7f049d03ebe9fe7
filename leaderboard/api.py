"""The leaderboard's read-only REST API: the rankings and a player's statistics (L-6).

Its errors are in the request's language, like every other answer of the site.

``GET /api/leaderboard/<family>/``: the ranking of hokm, shelem or bridge,
paginated (``?page=``), with the medal of the top three.
``GET /api/players/<username>/``: statistics per family and latest matches.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from .families import Family
from .models import LedgerEntry
from .stats import MEDALS, latest_entries, player_stats, ranked_rows, ranking


class RankingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(
        help_text="1 for the most points; players tied on points share the rank (and the medal): 1, 1, 3."
    )
    medal = serializers.ChoiceField(
        choices=sorted(set(MEDALS.values())),
        allow_null=True,
        help_text="gold, silver or bronze for the top three; null otherwise.",
    )
    username = serializers.CharField()
    points = serializers.IntegerField()
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField(help_text="Losses, including matches the player left.")
    unfinished = serializers.IntegerField(help_text="Matches another player left: neither win nor loss.")
    player_url = serializers.SerializerMethodField()

    @extend_schema_field(OpenApiTypes.URI)
    def get_player_url(self, row) -> str:
        url = reverse("api:player", args=[row["username"]])
        request = self.context.get("request")
        return request.build_absolute_uri(url) if request else url


class FamilyStatsSerializer(serializers.Serializer):
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField(help_text="Losses, including matches the player left.")
    left = serializers.IntegerField(help_text="Matches the player left (counted in losses).")
    unfinished = serializers.IntegerField()
    points = serializers.IntegerField()


class StatsByFamilySerializer(serializers.Serializer):
    hokm = FamilyStatsSerializer()
    shelem = FamilyStatsSerializer()
    bridge = FamilyStatsSerializer()


class LatestMatchSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="match_id")
    game = serializers.ChoiceField(choices=[g for g, _ in LedgerEntry._meta.get_field("game").choices])
    family = serializers.ChoiceField(choices=Family.values)
    finished_at = serializers.DateTimeField(source="match.finished_at", allow_null=True)
    result = serializers.ChoiceField(choices=LedgerEntry.Result.values)
    points = serializers.IntegerField()
    score = serializers.SerializerMethodField(
        help_text="[our side, their side]; null when the match did not finish."
    )

    @extend_schema_field(
        serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2, allow_null=True)
    )
    def get_score(self, entry):
        score = entry.side_score
        return list(score) if score else None


class PlayerSerializer(serializers.Serializer):
    username = serializers.CharField()
    stats = StatsByFamilySerializer()
    latest = LatestMatchSerializer(many=True)


FAMILY_PARAMETER = OpenApiParameter(
    "family",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    enum=Family.values,
    description="The game family: hokm (hokm4, hokm2), shelem (shelem4, shelem2) or bridge.",
)


@extend_schema(
    parameters=[FAMILY_PARAMETER],
    summary="A game family's leaderboard",
    description="Players ranked by total points; practice and voided matches do not count.",
)
class LeaderboardView(generics.ListAPIView):
    serializer_class = RankingRowSerializer
    authentication_classes = []  # public and read-only: no session, no CSRF
    permission_classes = [AllowAny]
    queryset = LedgerEntry.objects.none()

    def get_queryset(self):
        family = self.kwargs.get("family")
        if family not in Family.values:
            raise NotFound(_("Unknown game family."))
        return ranking(family)

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        rows = ranked_rows(page, self.paginator.page.start_index(), self.kwargs.get("family"))
        return self.get_paginated_response(self.get_serializer(rows, many=True).data)


@extend_schema(
    parameters=[OpenApiParameter("username", OpenApiTypes.STR, OpenApiParameter.PATH)],
    summary="A player's statistics",
    description="Matches, wins, losses (including left), unfinished and points per game family, "
    "and the latest counted matches.",
)
class PlayerView(generics.RetrieveAPIView):
    serializer_class = PlayerSerializer
    authentication_classes = []
    permission_classes = [AllowAny]
    queryset = get_user_model().objects.none()

    def get_object(self):
        user = (
            get_user_model().objects.filter(username__iexact=self.kwargs["username"], is_active=True).first()
        )
        if user is None:
            raise NotFound(_("No such player."))
        return user

    def retrieve(self, request, *args, **kwargs):
        user = self.get_object()
        data = {"username": user.username, "stats": player_stats(user), "latest": list(latest_entries(user))}
        return Response(self.get_serializer(data).data)
