"""Read-only REST API for ratings (M-2, M-4) and a match's public summary.

``GET /api/players/<username>/ratings/``: the player's rating per game and its history.
``GET /api/matches/<id>/``: who played, the rules, the end and the rating changes;
never a card of a hand (the state stays behind the views).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import GAME_CHOICES, Match

from . import queries
from .models import Rating, RatingHistory
from .services import describe, shown

GAMES = [g for g, _ in GAME_CHOICES]


class HistoryRowSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    finished_at = serializers.DateTimeField(allow_null=True)
    result = serializers.ChoiceField(choices=RatingHistory.Result.values)
    rating = serializers.IntegerField(help_text="The shown rating after this match.")
    change = serializers.IntegerField()
    matches = serializers.IntegerField(help_text="Rated matches after this one.")


class GameRatingSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=GAMES)
    rating = serializers.IntegerField(help_text="1500 + 20 (mu - 3 sigma): a conservative estimate.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text="Fewer than 10 rated matches.")
    history = HistoryRowSerializer(many=True)


class PlayerRatingsSerializer(serializers.Serializer):
    username = serializers.CharField()
    ratings = GameRatingSerializer(many=True)


@extend_schema(
    parameters=[OpenApiParameter("username", OpenApiTypes.STR, OpenApiParameter.PATH)],
    summary="A player's ratings and their history",
    description="Per game (hokm4, hokm2, shelem4, shelem2, bridge): the Weng-Lin rating of matches "
    "between people only, and the player's rated matches, oldest first (at most 50 a game).",
    responses=PlayerRatingsSerializer,
)
class PlayerRatingsView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    def get(self, request, username):
        user = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
        if user is None:
            raise NotFound("No such player.")
        ratings = [
            {"game": r.game, **describe(r.mu, r.sigma, r.matches), "history": queries.history(user, r.game)}
            for r in Rating.objects.filter(user=user).order_by("game")
        ]
        return Response(PlayerRatingsSerializer({"username": user.username, "ratings": ratings}).data)


class MatchPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField(allow_null=True)
    bot = serializers.BooleanField()
    rating_before = serializers.IntegerField(allow_null=True)
    rating_after = serializers.IntegerField(
        allow_null=True, help_text="Null when this match did not rate him."
    )


class MatchSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.ChoiceField(choices=GAMES)
    rules = serializers.DictField()
    status = serializers.ChoiceField(choices=Match.Status.values)
    practice = serializers.BooleanField(help_text="A bot took part: neither ranked nor rated (L-2).")
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    winner = serializers.IntegerField(
        allow_null=True, help_text="The winning side (0: seats 1 and 3), if finished."
    )
    score = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    leaver_seat = serializers.IntegerField(allow_null=True)
    rated = serializers.BooleanField()
    players = MatchPlayerSerializer(many=True)


@extend_schema(
    parameters=[OpenApiParameter("match_id", OpenApiTypes.INT, OpenApiParameter.PATH)],
    summary="A match's public summary",
    description="Who sat where, the rules, how it ended and each player's rating change. No cards.",
    responses=MatchSummarySerializer,
)
class MatchSummaryView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    def get(self, request, match_id):
        match = Match.objects.filter(pk=match_id).defer("state").first()
        if match is None:
            raise NotFound("No such match.")
        rows = {r.user_id: r for r in RatingHistory.objects.filter(match=match)}
        ended = match.status == Match.Status.FINISHED
        players = []
        for p in sorted(match.players, key=lambda p: p["seat"]):
            row = rows.get(p.get("user_id"))
            players.append(
                {
                    "seat": p["seat"],
                    "username": p.get("username"),
                    "bot": bool(p.get("bot")),
                    "rating_before": shown(row.mu_before, row.sigma_before) if row else None,
                    "rating_after": shown(row.mu, row.sigma) if row else None,
                }
            )
        data = {
            "id": match.pk,
            "game": match.game,
            "rules": match.rules,
            "status": match.status,
            "practice": match.practice,
            "started_at": match.started_at,
            "finished_at": match.finished_at,
            "winner": (match.result or {}).get("winner") if ended else None,
            "score": list((match.result or {}).get("score") or []) if ended else None,
            "leaver_seat": match.leaver_seat,
            "rated": hasattr(match, "rated"),
            "players": players,
        }
        return Response(MatchSummarySerializer(data).data)
