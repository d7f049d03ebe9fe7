"""Read-only REST API of the lobby (M-5): ``GET /api/lobby/tables/``."""

from __future__ import annotations

from django.utils import translation
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from ratings.services import ratings_for
from rooms.models import Room, Seat

from . import lobby


class LobbySeatSerializer(serializers.Serializer):
    name = serializers.CharField(allow_null=True)
    bot = serializers.BooleanField()
    rating = serializers.IntegerField(allow_null=True, help_text="The person's shown rating for this game.")
    provisional = serializers.BooleanField(allow_null=True)


class LobbyTableSerializer(serializers.Serializer):
    code = serializers.CharField()
    game = serializers.CharField()
    name = serializers.CharField(help_text="The game's name in the request's language.")
    preset = serializers.CharField(allow_null=True, help_text="The Play now preset, if Play now opened it.")
    rules = serializers.ListField(child=serializers.CharField())
    url = serializers.CharField()
    since = serializers.IntegerField(help_text="Epoch seconds: waiting since.")
    free = serializers.IntegerField()
    seats = LobbySeatSerializer(many=True)


class LobbySerializer(serializers.Serializer):
    waiting = LobbyTableSerializer(many=True, help_text="Public tables waiting, with free seats.")
    watch = LobbyTableSerializer(many=True, help_text="Public tables playing, to watch.")
    playing = serializers.IntegerField(help_text="People playing now.")


@extend_schema(
    summary="The lobby's tables",
    description="The same lists the live lobby shows: waiting tables with free seats (with the "
    "ratings of those seated), tables to watch, and the number of people playing now.",
    responses=LobbySerializer,
)
class LobbyTablesView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    def get(self, request):
        data = lobby.snapshot(translation.get_language())
        return Response(LobbySerializer(data).data)


class SeatRatingSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField()
    rating = serializers.IntegerField()
    provisional = serializers.BooleanField()
    matches = serializers.IntegerField()


class RoomRatingsSerializer(serializers.Serializer):
    code = serializers.CharField()
    game = serializers.CharField()
    seats = SeatRatingSerializer(many=True, help_text="The people seated, with their rating for this game.")


@extend_schema(
    summary="The ratings of the people at a table",
    description="Each person seated at the room, with his rating for the room's game (M-4): "
    "partners and opponents can be judged before and during the match.",
    responses=RoomRatingsSerializer,
)
class RoomRatingsView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    def get(self, request, code):
        room = Room.objects.filter(code=code).first()
        if room is None:
            raise NotFound("No such room.")
        seats = list(
            Seat.objects.filter(room=room, user__isnull=False).select_related("user").order_by("number")
        )
        ratings = ratings_for([s.user_id for s in seats], room.game)
        data = {
            "code": room.code,
            "game": room.game,
            "seats": [
                {
                    "seat": s.number,
                    "username": s.user.username,
                    **{k: ratings[s.user_id][k] for k in ("rating", "provisional", "matches")},
                }
                for s in seats
            ],
        }
        return Response(RoomRatingsSerializer(data).data)
