"""The games the league already holds (a club's, or a tournament table's) are followed
(``games.Game.followed``), so their writes keep carrying the league's outbox rows."""

from __future__ import annotations

from typing import Any

from django.db import migrations
from django.db.models import Q


def follow_linked_games(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("games", "Game")
    linked = Q(club_link__isnull=False) | Q(league_table__isnull=False)
    Game.objects.filter(linked, followed=False).update(followed=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_game_followed"),
        ("league", "0013_notes_as_codes"),
    ]

    operations = [
        migrations.RunPython(follow_linked_games, migrations.RunPython.noop),
    ]
