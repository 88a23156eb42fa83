"""What the standings projection stores beside its state row, for the tests that compare
an incremental projection with a rebuild."""

from __future__ import annotations

from typing import Any

from league.models import StandingsGame, StandingsRecord, Tournament


def stored_rows(tournament: Tournament) -> tuple[dict[int, Any], dict[int, Any]]:
    """Each game's (seq, result) and each player's record, as stored."""
    games = StandingsGame.objects.filter(tournament=tournament).values_list("game_id", "seq", "result")
    recs = StandingsRecord.objects.filter(tournament=tournament).values_list("player_id", "record")
    return {g: (seq, result) for g, seq, result in games}, dict(recs)
