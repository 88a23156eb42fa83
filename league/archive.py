"""Tournament archives: one JSON document a club can keep, check and load elsewhere
(see docs/archive.md).

An archive holds the tournament's settings, its registrations, every round's seating
input (``Round.request``), seed, method, generated and published tables and byes, every
game's full event log (as ``GET /games/{id}/export`` gives it) and the final standings.
:func:`verify` recomputes every round's seating and the standings from the archive
alone; :func:`import_archive` loads it into this instance under new ids.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

import engine
from games import selectors as game_selectors
from games import services as game_services
from games.models import Game, Source
from league.models import Club, ClubGame, Player, Registration, Round, Table, TableSeat, Tournament
from league.seating import Request, Seating, SeatingError, input_digest, make_seating
from league.standings import standings_from_logs

FORMAT = "knockrummy-tournament-archive"
FORMAT_VERSION = 1

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


class ArchiveError(ValueError):
    """An archive that cannot be read or loaded; ``code`` is stable."""

    def __init__(self, message: str, code: str = "invalid_archive") -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def tournament_games(tournament: Tournament) -> list[Game]:
    """The games of the tournament's tables, in round and table order."""
    tables = Table.objects.filter(round__tournament=tournament, game__isnull=False).order_by(
        "round__number", "number"
    )
    ids = list(tables.values_list("game_id", flat=True))
    games = game_selectors.games_by_id(ids)
    return [games[pk] for pk in ids]


def build_archive(tournament: Tournament) -> dict[str, Any]:
    """The tournament's archive (a JSON-ready dict)."""
    club = tournament.club
    registrations = list(tournament.registrations.select_related("player").order_by("id"))
    rounds = list(tournament.round_set.order_by("number").prefetch_related("tables__seats"))
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
                {"number": table.number, "notes": table.notes, "game": table.game_id, "seats": seats}
            )
        document = {field: getattr(round_, field) for field in ROUND_FIELDS}
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


# --- verification -----------------------------------------------------------------------


def verify(archive: Mapping[str, Any]) -> list[str]:
    """Every difference between what the archive states and what its inputs give: each
    round's seating recomputed from its stored request (and its input digest), each
    published round's tables against the generated ones (an edit needs a reason), each
    game's log replayed, the tables' games present, and the final standings. Empty when
    the archive checks out."""
    try:
        _check_shape(archive)
    except ArchiveError as exc:
        return [exc.message]
    differences: list[str] = []
    names: dict[Any, str] = {
        p["id"]: str(p["name"]) for p in archive["players"] if isinstance(p["id"], int | str)
    }
    for document in archive["rounds"]:
        try:
            found = _verify_round(document, names)
        except Exception as exc:  # a tampered round of any shape is reported, never a crash
            found = [f"cannot be checked ({exc!r})"]
        differences.extend(f"round {document['number']}: {d}" for d in found)
    try:
        games = {document["game"]["id"]: document for document in archive["games"]}
        for document in archive["rounds"]:
            for table in document["tables"]:
                if table["game"] is not None and table["game"] not in games:
                    differences.append(
                        f"round {document['number']} table {table['number']}: game {table['game']} "
                        "is not in the archive"
                    )
        for game_id, document in games.items():
            events = document["events"]
            problem = _replay_problem(events) if isinstance(events, list) else "its events are not a list"
            if problem:
                differences.append(f"game {game_id}: {problem}")
    except Exception as exc:  # a tampered archive of any shape is reported, never a crash
        differences.append(f"games: cannot be checked ({exc!r})")
    try:
        computed = archive_standings(archive)
    except Exception as exc:  # the standings could not be computed from the archive at all
        differences.append(f"standings: cannot be computed from the archive ({exc!r})")
    else:
        differences.extend(f"standings: {d}" for d in _diff(archive.get("standings"), computed, "standings"))
    return differences


def _verify_round(document: Mapping[str, Any], names: Mapping[Any, str]) -> list[str]:
    differences = []
    try:
        request = Request.from_dict(document["request"])
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
        return [f"the seating input cannot be read ({exc!r})"]
    method = document["method"]
    digest = input_digest(request, method)
    if digest != document["input_digest"]:
        differences.append(f"input digest {digest} != stored {document['input_digest']}")
    try:
        again = make_seating(method, request).to_dict()
    except SeatingError as exc:
        return [*differences, f"the seating cannot be made again: {exc.message} ({exc.code})"]
    stored = dict(document["generated"])
    for key in sorted(set(again) | set(stored)):
        if again.get(key) != stored.get(key):
            differences.append(f"{key}: recomputed {again.get(key)!r} != stored {stored.get(key)!r}")
    if document["status"] != Round.Status.DRAFT:
        # Compared by name: an imported round keeps the archive's seating input and
        # generated seating (the original ids) while its tables seat the new players.
        entrants = {entrant.id: entrant.name for entrant in request.players}
        published = [
            [names.get(seat["player"], f"#{seat['player']}") for seat in table["seats"] if seat["player"]]
            for table in document["tables"]
        ]
        generated = [
            [entrants.get(player, f"#{player}") for player in table.seats]
            for table in Seating.from_dict(stored).tables
        ]
        byes = sorted(names.get(p, f"#{p}") for p in document["byes"])
        generated_byes = sorted(entrants.get(p, f"#{p}") for p in stored.get("byes", []))
        if (published != generated or byes != generated_byes) and not document.get("edit_reason"):
            differences.append("the published tables differ from the generated ones and no reason is given")
    return differences


def _replay_problem(events: list[Any]) -> str | None:
    state = None
    for index, stored in enumerate(events):
        try:
            state = engine.apply(state, engine.event_from_dict(stored))
        except Exception as exc:  # any event that does not replay is the difference
            kind = stored.get("type") if isinstance(stored, Mapping) else None
            return f"event {index + 1} ({kind!r}) does not replay: {exc}"
    return None if state is not None else "the log is empty"


def _diff(stored: Any, computed: Any, where: str) -> list[str]:
    """The paths at which two JSON values differ, each with both values."""
    if isinstance(stored, dict) and isinstance(computed, dict):
        out = []
        for key in sorted(set(stored) | set(computed), key=str):
            if key not in stored:
                out.append(f"{where}.{key}: missing from the archive (computed {computed[key]!r})")
            elif key not in computed:
                out.append(f"{where}.{key}: in the archive ({stored[key]!r}) but not computed")
            else:
                out.extend(_diff(stored[key], computed[key], f"{where}.{key}"))
        return out
    if isinstance(stored, list) and isinstance(computed, list):
        if len(stored) != len(computed):
            return [f"{where}: {len(stored)} entries in the archive, {len(computed)} computed"]
        return [
            d
            for i, (a, b) in enumerate(zip(stored, computed, strict=True))
            for d in _diff(a, b, f"{where}[{i}]")
        ]
    if stored != computed:
        return [f"{where}: archive {stored!r} != computed {computed!r}"]
    return []


def _check_shape(archive: Any) -> None:
    if not isinstance(archive, Mapping):
        raise ArchiveError("an archive is a JSON object")
    if archive.get("format") != FORMAT:
        raise ArchiveError(f"not a tournament archive (format is not {FORMAT!r})", "not_an_archive")
    if archive.get("format_version") != FORMAT_VERSION:
        raise ArchiveError(
            f"archive format version {archive.get('format_version')!r} is not {FORMAT_VERSION}",
            "unsupported_version",
        )
    for key, kind in (
        ("club", dict),
        ("tournament", dict),
        ("players", list),
        ("registrations", list),
        ("rounds", list),
        ("games", list),
    ):
        if not isinstance(archive.get(key), kind):
            raise ArchiveError(f"the archive's {key!r} is missing or not a {kind.__name__}")
    try:
        for document in archive["rounds"]:
            _require(document, "number", "method", "request", "generated", "input_digest", "status", "byes")
            for table in document["tables"]:
                _require(table, "number", "game", "notes", "seats")
                for seat in table["seats"]:
                    _require(seat, "position", "player", "bot")
        for document in archive["games"]:
            _require(document, "game", "events")
            _require(document["game"], "id")
        for player in archive["players"]:
            _require(player, "id", "name")
        for registration in archive["registrations"]:
            _require(registration, "player")
    except (KeyError, TypeError) as exc:
        raise ArchiveError(f"the archive lacks a field it needs: {exc}") from None


def _require(document: Any, *keys: str) -> None:
    if not isinstance(document, Mapping):
        raise TypeError(f"{document!r} is not an object")
    missing = [key for key in keys if key not in document]
    if missing:
        raise KeyError(f"{', '.join(missing)} missing from {sorted(document)}")


# --- import -------------------------------------------------------------------------------


def import_archive(archive: Mapping[str, Any], *, owner: Any = None) -> Tournament:
    """Load ``archive`` as a new tournament of this instance: the club by its slug (created
    if there is none), the players by name in that club (created if missing), every game
    through ``games.services.import_game`` (checked event by event), then the
    registrations, rounds, tables and seats under the new ids. All or nothing.

    Each round keeps its seating input, generated seating and digest exactly as archived
    (they name the archive's player ids, and the seating is recomputed from them); its
    published tables, seats and byes name this instance's players."""
    _check_shape(archive)
    try:
        return _import(archive, owner)
    except KeyError as exc:
        raise ArchiveError(
            f"the archive names {exc} but does not define it", "inconsistent_archive"
        ) from None


def _import(archive: Mapping[str, Any], owner: Any) -> Tournament:
    with transaction.atomic():
        club = _club(archive["club"])
        players = _players(club, archive["players"])
        games = _games(archive["games"], owner)
        settings = archive["tournament"]
        tournament = Tournament.objects.create(
            club=club,
            **{field: settings[field] for field in SETTINGS if field not in ("slug",)},
            slug=_free_slug(club, settings.get("slug") or "imported"),
            created_by=owner if getattr(owner, "is_authenticated", False) else None,
        )
        for registration in archive["registrations"]:
            Registration.objects.create(
                tournament=tournament,
                player=players[registration["player"]],
                **{field: registration[field] for field in REGISTRATION_FIELDS if field in registration},
            )
        for document in archive["rounds"]:
            kept = {field: document[field] for field in ROUND_FIELDS if field in document}
            kept["byes"] = [players[p].pk for p in document["byes"]]  # as published: the new ids
            round_ = Round.objects.create(
                tournament=tournament,
                **kept,
                published_at=document.get("published_at"),
                completed_at=document.get("completed_at"),
            )
            for table_document in document["tables"]:
                game = games.get(table_document["game"]) if table_document["game"] is not None else None
                if table_document["game"] is not None and game is None:
                    raise ArchiveError(
                        f"round {document['number']} table {table_document['number']}: game "
                        f"{table_document['game']} is not in the archive"
                    )
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
                        bot=seat["bot"] or "",
                    )
                    for seat in table_document["seats"]
                )
    return tournament


def _club(document: Mapping[str, Any]) -> Club:
    slug = str(document.get("slug") or "") or slugify(str(document.get("name") or "imported"))
    club = Club.objects.filter(slug=slug).first()
    if club is not None:
        return club
    name = str(document.get("name") or slug)
    if Club.objects.filter(name=name).exists():
        name = f"{name} ({slug})"
    return Club.objects.create(name=name, slug=slug)


def _players(club: Club, documents: list[Mapping[str, Any]]) -> dict[int, Player]:
    found: dict[int, Player] = {}
    for document in documents:
        player, _ = Player.objects.get_or_create(club=club, name=str(document["name"]))
        found[document["id"]] = player
    return found


def _games(documents: list[Mapping[str, Any]], owner: Any) -> dict[int, Game]:
    games: dict[int, Game] = {}
    for document in documents:
        events = [
            {"type": e["type"], "schema_version": e["schema_version"], "data": e["data"]}
            for e in document["events"]
        ]
        try:
            result = game_services.import_game(log_events=events, owner=owner, source=Source.SYSTEM)
        except game_services.InvalidLog as exc:
            raise ArchiveError(f"game {document['game']['id']}: {exc.args[0]}", "invalid_log") from None
        games[document["game"]["id"]] = result.game
    return games


def _free_slug(club: Club, slug: str) -> str:
    taken = set(Tournament.objects.filter(club=club).values_list("slug", flat=True))
    if slug not in taken:
        return slug
    n = 2
    while f"{slug}-{n}"[:60] in taken:
        n += 1
    return f"{slug}-{n}"[:60]
