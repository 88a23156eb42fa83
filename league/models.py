"""Clubs, players and their roles. Tournaments, rounds and tables come later."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=60, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person who plays; may or may not have a login (``user``)."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="players")
    name = models.CharField(max_length=80)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["club", "name"], name="unique_player_name_per_club")]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        DIRECTOR = "director", "Director"
        SCOREKEEPER = "scorekeeper", "Scorekeeper"
        PLAYER = "player", "Player"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=20, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user", "role"], name="unique_membership_role")
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.role} of {self.club}"


class ClubGame(models.Model):
    """A game played under a club: its directors and scorekeepers may record it.

    The link lives here, not on the game, so that the league depends on the games app
    and never the other way round."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="club_games")
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="club_link")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.club} — game {self.game_id}"
