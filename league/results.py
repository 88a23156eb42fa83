"""A club's results that stay: its finished tournaments and league seasons, each with
its winners, read from the standings projection as it stood at the close (a finished
tournament changes no more). Two queries, however many tournaments."""

from __future__ import annotations

from dataclasses import dataclass

from league.models import Club, Player, StandingsState, Tournament


@dataclass(frozen=True)
class Winner:
    player_id: int
    name: str
    points: str  # exact, as the projection stores it ("249/5")


@dataclass(frozen=True)
class Finished:
    tournament: Tournament
    winners: tuple[Winner, ...]  # several when tied first; none before any result
    players: int


def finished_tournaments(club: Club, limit: int = 100) -> list[Finished]:
    """The club's finished tournaments and leagues, latest first, with their winners
    (rank 1 of the final standings)."""
    tournaments = list(
        Tournament.objects.filter(club=club, status=Tournament.Status.FINISHED).order_by(
            "-updated_at", "-id"
        )[:limit]
    )
    rows = dict(
        StandingsState.objects.filter(tournament__in=tournaments).values_list("tournament_id", "rows")
    )
    firsts = {t.pk: [row for row in rows.get(t.pk) or [] if row.get("rank") == 1] for t in tournaments}
    ids = {int(row["player"]) for first in firsts.values() for row in first}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name")) if ids else {}
    return [
        Finished(
            tournament=t,
            winners=tuple(
                Winner(int(row["player"]), names.get(int(row["player"]), ""), str(row.get("points", "")))
                for row in firsts[t.pk]
            ),
            players=len(rows.get(t.pk) or []),
        )
        for t in tournaments
    ]
