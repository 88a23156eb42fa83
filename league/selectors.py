"""Read-side queries of the league app."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from league.models import Club


def clubs_with_player_counts() -> QuerySet[Club]:
    return Club.objects.annotate(player_count=Count("players")).order_by("name")
