"""Tournament archives: one JSON document a club can keep, check and load elsewhere
(see docs/archive.md).

An archive holds the tournament's settings, its registrations, every round's seating
input (``Round.request``), seed, method, generated and published tables and byes, every
game's full event log (as ``GET /games/{id}/export`` gives it) and the final standings.
:mod:`league.archive_check` checks it as a whole, from the archive alone;
:func:`league.archive_import.import_archive` loads it into this instance under new ids
once it checks out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.utils import timezone

from core import DomainError
from games import selectors as game_selectors
from games.models import Game
from league.models import Player, Round, Table, Tournament
from league.seating.notes import note_of
from league.standings import standings_from_logs

FORMAT = "knockrummy-tournament-archive"
# 2: notes are codes with parameters (issue 25); version-1 archives are still read
# (league.archive_formats).
FORMAT_VERSION = 2

# The tournament's settings as the archive carries them (every field that decides play,
# seating or standings).
SETTINGS = (
    "name",
    "slug",
    "kind",
    "preset",
    "options",
    "mode",
    "stake",
    "table_min",
    "table_max",
    "seating",
    "seating_params",
    "rounds",
    "bots",
    "bot",
    "seed",
    "status",
    "scoring",
    "placement_points",
    "tiebreaks",
    "bye_points",
    "min_games",
)
REGISTRATION_FIELDS = ("status", "from_round", "dropped_after", "seed_number")
ROUND_FIELDS = (
    "number",
    "status",
    "method",
    "params",
    "seed",
    "input_digest",
    "request",
    "generated",
    "byes",
    "notes",
    "edit_reason",
)


class ArchiveError(DomainError):
    """An archive refused: ``code`` is stable, ``message`` for people, ``where`` its place
    in the archive (a JSON path, also its ``field``); ``problems`` lists every problem
    found (:class:`league.archive_problems.Problem`)."""

    default_code = "invalid_archive"

    def __init__(
        self, message: str, code: str | None = None, where: str = "archive", problems: Any = ()
    ) -> None:
        super().__init__(code, message, field=where)
        self.where = where
        self.problems = list(problems)


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _notes(stored: Any) -> list[dict[str, Any]]:
    return [note_of(note).to_dict() for note in stored]


def tournament_games(tournament: Tournament) -> list[Game]:
    """The games of the tournament's tables, in round and table order."""
    tables = Table.objects.filter(round__tournament=tournament, game__isnull=False).order_by(
        "round__number", "number"
    )
    ids = list(tables.values_list("game_id", flat=True))
    games = game_selectors.games_by_id(ids)
    return [games[pk] for pk in ids]


def build_archive(tournament: Tournament, *, drafts: bool = True) -> dict[str, Any]:
    """The tournament's archive (a JSON-ready dict); without its draft rounds unless
    ``drafts`` (a draft's seating is for the club's staff only)."""
    club = tournament.club
    registrations = list(tournament.registrations.select_related("player").order_by("id"))
    rounds = tournament.round_set.order_by("number").prefetch_related("tables__seats")
    if not drafts:
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    players: dict[int, str] = {r.player_id: r.player.name for r in registrations}
    round_documents = []
    for round_ in rounds:
        tables = []
        for table in round_.tables.all():
            seats = [
                {"position": seat.position, "player": seat.player_id, "bot": seat.bot}
                for seat in table.seats.all()
            ]
            tables.append(
                {"number": table.number, "notes": _notes(table.notes), "game": table.game_id, "seats": seats}
            )
        document = {field: getattr(round_, field) for field in ROUND_FIELDS}
        document["notes"] = _notes(round_.notes)
        document["published_at"] = _iso(round_.published_at)
        document["completed_at"] = _iso(round_.completed_at)
        document["tables"] = tables
        round_documents.append(document)
    seated = {
        seat["player"] for r in round_documents for t in r["tables"] for seat in t["seats"] if seat["player"]
    }
    missing = seated - players.keys()
    if missing:
        players.update(Player.objects.filter(pk__in=missing).values_list("pk", "name"))
    archive: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported_at": timezone.now().isoformat(),
        "club": {"id": club.pk, "slug": club.slug, "name": club.name},
        "tournament": {"id": tournament.pk, **{field: getattr(tournament, field) for field in SETTINGS}},
        "players": [{"id": pk, "name": name} for pk, name in sorted(players.items())],
        "registrations": [
            {"player": r.player_id, **{field: getattr(r, field) for field in REGISTRATION_FIELDS}}
            for r in registrations
        ],
        "rounds": round_documents,
        "games": [game_selectors.export_document(game) for game in tournament_games(tournament)],
    }
    archive["standings"] = archive_standings(archive)
    return archive


def archive_standings(archive: Mapping[str, Any]) -> Any:
    """The final standings computed from the archive alone (its settings, rounds and game
    logs), in JSON form: what the ``standings`` section holds and what ``verify`` checks.
    Draft rounds count for nothing (as in the standings projection)."""
    logs = {document["game"]["id"]: document["events"] for document in archive["games"]}
    counted = [r for r in archive["rounds"] if r["status"] != Round.Status.DRAFT]
    result = standings_from_logs(archive["tournament"], counted, logs)
    return json.loads(json.dumps(result, default=str))
