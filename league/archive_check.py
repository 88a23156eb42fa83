"""Checking a tournament archive as a whole, from the archive alone (docs/archive.md).

:func:`inspect_archive` reports every problem, each with a stable code and its place in
the archive, in stages (a stage runs once the ones before it found nothing, since each
relies on them):

1. **the format**: a tournament archive of a version this instance reads;
2. **the limits** of every JSON body the API reads (``games.parsers.check_values``: no
   NUL, no string or number beyond the API's bounds) and the **shape** of the version;
3. **the fields**, through the checks the API applies to the same values: the
   tournament's settings (the create body's serializer, then
   ``league.services.tournament_fields``), player names, registrations, the club;
4. **the whole**: every game's log audited (every move decided again, every hand scored
   again), every round's seating input and seating computed again and its tables
   matched with their games, the standings computed again.

:func:`verify` is the problems alone; :func:`league.archive_import.import_archive` writes
nothing unless there are none. The parts that differ between format versions are
functions of the version (:data:`league.archive_formats.FORMATS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.core.exceptions import ValidationError

import engine
from games.parsers import LargeJSONParser, ValueRefused, check_values
from league import services
from league.archive import FORMAT, SETTINGS, archive_standings
from league.archive_formats import FORMATS, Format, shape_problems
from league.archive_games import audited_games, table_problems
from league.archive_problems import Problem, flat_errors
from league.archive_rounds import round_problems
from league.models import Club, Registration, Tournament
from league.names import name_key
from league.serializers import (
    PlayerCreateSerializer,
    RegistrationUpdateSerializer,
    TournamentCreateSerializer,
)

# --- the whole -------------------------------------------------------------------------------


@dataclass
class Inspection:
    """The problems of an archive and, when there are none, what the import stores: the
    tournament's settings as the API checks them (``tournament``) and the archive read
    as the current format version (``archive``: an older version upcast)."""

    problems: list[Problem]
    tournament: dict[str, Any] = field(default_factory=dict)
    archive: dict[str, Any] = field(default_factory=dict)


def verify(archive: Any) -> list[Problem]:
    """Every problem of ``archive`` (empty: it checks out)."""
    return inspect_archive(archive).problems


def inspect_archive(archive: Any) -> Inspection:
    problems = _format_problems(archive)
    if problems:
        return Inspection(problems)
    try:
        check_values(archive, max_nodes=LargeJSONParser.max_nodes)
    except ValueRefused as exc:
        where = str(exc.params.get("path", "$")).removeprefix("$").lstrip(".") or "archive"
        return Inspection([Problem(exc.code, where, exc.message)])
    version = FORMATS[archive["format_version"]]
    shape_problems(archive, version.shape, "", problems)
    if problems:
        return Inspection(problems)
    if version.upcast is not None:
        archive = version.upcast(archive)
    problems, tournament = _field_problems(archive)
    if problems:
        return Inspection(problems)
    try:
        problems = _whole_problems(archive, tournament, version)
    except (LookupError, TypeError, ValueError, ArithmeticError) as exc:
        # The stages before vouch for every field these checks read; should one still
        # trip on a value, the archive is refused with a problem, never a traceback.
        problems = [Problem("cannot_check", "archive", f"the archive cannot be checked: {exc!r}")]
    return Inspection(problems, tournament, archive)


def _whole_problems(archive: Mapping[str, Any], tournament: dict[str, Any], version: Format) -> list[Problem]:
    games, states = audited_games(archive["games"])
    problems = games + round_problems(archive, tournament, states, version)
    names = {p["id"]: p["name"] for p in archive["players"]}
    problems += table_problems(archive["rounds"], archive["games"], states, tournament, names)
    if not problems:  # the standings follow from the rest, once it checks out
        problems += _standings_problems(archive)
    return problems


def _format_problems(archive: Any) -> list[Problem]:
    if not isinstance(archive, dict):
        return [Problem("not_an_archive", "archive", "an archive is a JSON object")]
    if archive.get("format") != FORMAT:
        return [Problem("not_an_archive", "format", f"not a tournament archive (format is not {FORMAT!r})")]
    version = archive.get("format_version")
    if type(version) is not int or version not in FORMATS:
        readable = ", ".join(map(str, FORMATS))
        return [
            Problem(
                "unsupported_version",
                "format_version",
                f"format version {version!r} is not one of {readable}",
            )
        ]
    return []


def _standings_problems(archive: Mapping[str, Any]) -> list[Problem]:
    try:
        computed = archive_standings(archive)
    except (ValueError, ArithmeticError) as exc:  # StandingsError among them
        return [
            Problem("standings_unrecomputable", "standings", f"cannot be computed from the archive: {exc}")
        ]
    return [
        Problem("standings_mismatch", where, message)
        for where, message in _diff(archive["standings"], computed, "standings")
    ]


def _diff(stored: Any, computed: Any, where: str) -> list[tuple[str, str]]:
    """The paths at which two JSON values differ, each with both values."""
    if isinstance(stored, dict) and isinstance(computed, dict):
        out = []
        for key in sorted(set(stored) | set(computed), key=str):
            if key not in stored:
                out.append((f"{where}.{key}", f"missing from the archive (computed {computed[key]!r})"))
            elif key not in computed:
                out.append((f"{where}.{key}", f"in the archive ({stored[key]!r}) but not computed"))
            else:
                out += _diff(stored[key], computed[key], f"{where}.{key}")
        return out
    if isinstance(stored, list) and isinstance(computed, list):
        if len(stored) != len(computed):
            return [(where, f"{len(stored)} entries in the archive, {len(computed)} computed")]
        return [
            d
            for i, (a, b) in enumerate(zip(stored, computed, strict=True))
            for d in _diff(a, b, f"{where}[{i}]")
        ]
    if stored != computed:
        return [(where, f"archive {stored!r} != computed {computed!r}")]
    return []


# --- the fields --------------------------------------------------------------------------------


def _field_problems(archive: Mapping[str, Any]) -> tuple[list[Problem], dict[str, Any]]:
    problems, tournament = _tournament_problems(archive["tournament"])
    problems += _club_problems(archive["club"])
    problems += _player_problems(archive["players"])
    problems += _registration_problems(archive["registrations"], {p["id"] for p in archive["players"]})
    return problems, tournament


def _tournament_problems(settings: Mapping[str, Any]) -> tuple[list[Problem], dict[str, Any]]:
    """The archived settings as a create body, through the API's serializer and then
    ``services.tournament_fields``; the status, slug and stake the API never takes are
    checked as the model and the games take them."""
    body = {
        **{
            key: settings[key]
            for key in SETTINGS
            if key not in ("table_min", "table_max", "slug", "status", "stake")
        },
        "table_size": {"min": settings["table_min"], "max": settings["table_max"]},
    }
    shape = TournamentCreateSerializer(data=body)
    if not shape.is_valid():
        renamed = {"table_size.min": "table_min", "table_size.max": "table_max"}
        return [
            Problem("invalid_request", f"tournament.{renamed.get(path, path)}", message)
            for path, message in flat_errors(shape.errors)
        ], {}
    try:
        fields = services.tournament_fields(shape.validated_data)
    except services.LeagueError as exc:
        return [Problem(exc.code, "tournament", exc.message)], {}
    problems = []
    if settings["status"] not in Tournament.Status.values:
        known = ", ".join(Tournament.Status.values)
        problems.append(
            Problem(
                "unknown_status",
                "tournament.status",
                f"{settings['status']!r} is not a tournament status ({known})",
            )
        )
    try:
        Tournament(slug=settings["slug"]).clean_fields(
            exclude=[f.name for f in Tournament._meta.fields if f.name != "slug"]
        )
    except ValidationError as exc:
        problems.append(Problem("invalid_request", "tournament.slug", " ".join(exc.messages)))
    problems += _stake_problems(settings["stake"], fields)
    return problems, {**fields, "status": settings["status"], "stake": settings["stake"]}


def _stake_problems(stake: str, fields: Mapping[str, Any]) -> list[Problem]:
    """The stake each table's game is opened with, checked as the games API checks a
    new game's (``StartGame``: exact, within its limits, not negative)."""
    ruleset = engine.get_ruleset(fields["preset"], **fields["options"])
    seats = [f"seat {n}" for n in range(ruleset.min_players)]
    try:
        command = engine.command_from_dict(
            {"type": "StartGame", "ruleset": ruleset.to_dict(), "seats": seats, "stake": stake}
        )
        engine.decide(None, command)
    except engine.EngineError as exc:
        return [Problem("invalid_stake", "tournament.stake", exc.message)]
    assert isinstance(command, engine.StartGame) and command.stake == Fraction(stake)
    return []


def _club_problems(club: Mapping[str, Any]) -> list[Problem]:
    try:
        Club(name=club["name"], slug=club["slug"]).full_clean(
            validate_unique=False, validate_constraints=False
        )
    except ValidationError as exc:
        return [
            Problem("invalid_request", f"club.{name}", " ".join(messages))
            for name, messages in exc.message_dict.items()
        ]
    return []


def _player_problems(players: list[Mapping[str, Any]]) -> list[Problem]:
    problems = []
    ids: set[int] = set()
    names: set[str] = set()
    for i, player in enumerate(players):
        where = f"players[{i}]"
        shape = PlayerCreateSerializer(data={"name": player["name"]})
        try:
            if not shape.is_valid():
                raise services.LeagueError(
                    "invalid_request", " ".join(m for _, m in flat_errors(shape.errors))
                )
            name = services.player_name(player["name"])
        except services.LeagueError as exc:
            problems.append(Problem(exc.code, f"{where}.name", exc.message))
            continue
        if player["id"] in ids:
            problems.append(
                Problem("duplicate_player", f"{where}.id", f"player {player['id']} is listed twice")
            )
        if name_key(name) in names or name != player["name"]:
            # players are found by name where the archive is loaded, case and accents aside
            # (league.services.club_player): one name, one player
            problems.append(Problem("duplicate_player", f"{where}.name", f"{name!r} names two players"))
        ids.add(player["id"])
        names.add(name_key(name))
    return problems


def _registration_problems(registrations: list[Mapping[str, Any]], players: set[int]) -> list[Problem]:
    problems = []
    seen: set[int] = set()
    for i, registration in enumerate(registrations):
        where = f"registrations[{i}]"
        if registration["player"] not in players:
            problems.append(
                Problem(
                    "unknown_player", f"{where}.player", f"player {registration['player']} is not in players"
                )
            )
        elif registration["player"] in seen:
            problems.append(
                Problem("duplicate_registration", f"{where}.player", "the player is registered twice")
            )
        seen.add(registration["player"])
        status = registration["status"]
        if status not in Registration.Status.values:
            known = ", ".join(Registration.Status.values)
            problems.append(
                Problem(
                    "unknown_status", f"{where}.status", f"{status!r} is not a registration status ({known})"
                )
            )
            continue
        fields = ("status", "from_round", "dropped_after", "seed_number")
        shape = RegistrationUpdateSerializer(
            data={k: registration[k] for k in fields if registration[k] is not None}
        )
        if not shape.is_valid():
            problems += [
                Problem("invalid_request", f"{where}.{path}", message)
                for path, message in flat_errors(shape.errors)
            ]
        elif (status == Registration.Status.DROPPED) != (registration["dropped_after"] is not None):
            problems.append(
                Problem(
                    "invalid_registration",
                    f"{where}.dropped_after",
                    "a dropped player, and only one, drops after a round",
                )
            )
    return problems
