"""Ratings API: a player's openskill ratings per game family, with their history."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.views import ApiView, error_responses
from league.access import access_player_by_id
from league.selectors import player_ratings


class RatingPointSerializer(serializers.Serializer[dict[str, Any]]):
    game = serializers.IntegerField()
    position = serializers.IntegerField(help_text="Global position of the game's GameFinished event")
    place = serializers.IntegerField(help_text="The player's place in the game (ties share one)")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField(help_text="mu - 3 sigma")


class CurrentRatingSerializer(serializers.Serializer[dict[str, Any]]):
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class FamilyRatingSerializer(serializers.Serializer[dict[str, Any]]):
    family = serializers.ChoiceField(choices=["knock", "gin"])
    current = CurrentRatingSerializer(allow_null=True)
    games = serializers.IntegerField()
    history = RatingPointSerializer(many=True)


class PlayerRatingsSerializer(serializers.Serializer[dict[str, Any]]):
    player = serializers.JSONField(help_text='{"id", "name", "club": {"id", "slug", "name"}}')
    model = serializers.CharField()
    families = FamilyRatingSerializer(many=True)


class PlayerRatingsView(ApiView):
    @extend_schema(
        operation_id="players_ratings",
        responses={200: PlayerRatingsSerializer, **error_responses(404)},
        summary="A player's ratings per game family (openskill PlackettLuce), with their history",
    )
    def get(self, request: Request, player_id: int) -> Response:
        player = access_player_by_id(request.user, player_id)
        club = player.club
        return Response(
            {
                "player": {
                    "id": player.pk,
                    "name": player.name,
                    "club": {"id": club.pk, "slug": club.slug, "name": club.name},
                },
                "model": "openskill PlackettLuce (mu 25, sigma 25/3, beta 25/6, tau 25/300)",
                "families": player_ratings(player),
            }
        )
