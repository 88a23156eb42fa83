"""Loading a tournament archive into this instance under new ids (docs/archive.md,
"Loading one elsewhere"): nothing is written unless the whole archive checks out
(:func:`league.archive_check.inspect_archive`), and then everything is, in one
transaction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import DatabaseError, transaction

from games import services as game_services
from games.models import Game, Source
from league import services
from league.archive import REGISTRATION_FIELDS, ROUND_FIELDS, ArchiveError
from league.archive_check import inspect_archive
from league.models import Club, ClubGame, Player, Registration, Round, Table, TableSeat, Tournament


def import_archive(archive: Any, *, owner: Any = None) -> Tournament:
    """Load ``archive`` as a new tournament: the club by its slug (created if there is
    none), the players by name in that club, case and accents aside (created if missing), every game through
    ``games.services.import_game``, then the registrations, rounds, tables and seats
    under the new ids. ``ArchiveError`` names the first problem (and lists them all)
    when the archive does not check out; nothing is written then.

    Each round keeps its seating input, generated seating and digest exactly as archived
    (they name the archive's player ids, and the seating is recomputed from them); its
    published tables, seats and byes name this instance's players."""
    inspection = inspect_archive(archive)
    if inspection.problems:
        first = inspection.problems[0]
        more = len(inspection.problems) - 1
        also = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        raise ArchiveError(
            f"{first.where}: {first.message}{also}", first.code, first.where, inspection.problems
        )
    try:
        return _write(inspection.archive, inspection.tournament, owner)
    except (DatabaseError, game_services.InvalidLog) as exc:  # checked above: a fault of this instance
        raise ArchiveError(f"the archive could not be stored: {exc}", "cannot_store") from None


def _write(archive: Mapping[str, Any], settings: Mapping[str, Any], owner: Any) -> Tournament:
    with transaction.atomic():
        club = _club(archive["club"])
        players = _players(club, archive["players"])
        games = _games(archive["games"], owner)
        tournament = Tournament.objects.create(
            **settings,
            club=club,
            slug=_free_slug(club, archive["tournament"]["slug"]),
            created_by=owner if getattr(owner, "is_authenticated", False) else None,
        )
        for registration in archive["registrations"]:
            Registration.objects.create(
                tournament=tournament,
                player=players[registration["player"]],
                **{field: registration[field] for field in REGISTRATION_FIELDS},
            )
        for document in archive["rounds"]:
            kept = {field: document[field] for field in ROUND_FIELDS}
            kept["byes"] = [players[p].pk for p in document["byes"]]  # as published: the new ids
            round_ = Round.objects.create(
                tournament=tournament,
                **kept,
                published_at=document["published_at"],
                completed_at=document["completed_at"],
            )
            for table_document in document["tables"]:
                game = games.get(table_document["game"])
                table = Table.objects.create(
                    round=round_, number=table_document["number"], notes=table_document["notes"], game=game
                )
                if game is not None:
                    ClubGame.objects.create(club=club, game=game)
                TableSeat.objects.bulk_create(
                    TableSeat(
                        table=table,
                        position=seat["position"],
                        player=players[seat["player"]] if seat["player"] is not None else None,
                        bot=seat["bot"],
                    )
                    for seat in table_document["seats"]
                )
    return tournament


def _club(document: Mapping[str, Any]) -> Club:
    club = Club.objects.filter(slug=document["slug"]).first()
    if club is not None:
        return club
    name = document["name"]
    if Club.objects.filter(name=name).exists():
        name = f"{name} ({document['slug']})"[: Club._meta.get_field("name").max_length]
    return Club.objects.create(name=name, slug=document["slug"])


def _players(club: Club, documents: list[Mapping[str, Any]]) -> dict[int, Player]:
    return {document["id"]: services.club_player(club, document["name"])[0] for document in documents}


def _games(documents: list[Mapping[str, Any]], owner: Any) -> dict[int, Game]:
    games: dict[int, Game] = {}
    for document in documents:
        events = [
            {"type": e["type"], "schema_version": e["schema_version"], "data": e["data"]}
            for e in document["events"]
        ]
        result = game_services.import_game(
            log_events=events, owner=owner, source=Source.SYSTEM, followed=True
        )
        games[document["game"]["id"]] = result.game
    return games


def _free_slug(club: Club, slug: str) -> str:
    taken = set(Tournament.objects.filter(club=club).values_list("slug", flat=True))
    limit = Tournament._meta.get_field("slug").max_length
    assert limit is not None
    candidate, n = slug, 2
    while candidate in taken:
        candidate, n = f"{slug[: limit - len(str(n)) - 1]}-{n}", n + 1
    return candidate
