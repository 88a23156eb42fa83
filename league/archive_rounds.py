"""The rounds of a tournament archive: each round's record (numbers, status, dates,
tables and seats, with the API's limits), then its seating
(:mod:`league.archive_seating`) once the record is sound (docs/archive.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.dateparse import parse_datetime

from games import services as game_services
from league import services
from league.archive_formats import Format
from league.archive_problems import Problem, api_problems
from league.archive_seating import seating_problems
from league.models import Round, Tournament
from league.serializers import PublishSerializer, RoundUpdateSerializer

Names = Mapping[int, str]


def round_problems(
    archive: Mapping[str, Any], tournament: Mapping[str, Any], states: Mapping[int, Any], version: Format
) -> list[Problem]:
    """Every problem of the archive's rounds; ``tournament`` holds the checked settings,
    ``states`` the final state of each game whose log passed its audit, ``version`` what
    is particular to the archive's format version."""
    names: dict[int, str] = {p["id"]: p["name"] for p in archive["players"]}
    registered = [names.get(r["player"], "") for r in archive["registrations"]]
    # the logs that passed their audit (a result is read from those alone)
    logs = {g["game"]["id"]: g["events"] for g in archive["games"] if g["game"]["id"] in states}
    rounds = archive["rounds"]
    problems: list[Problem] = []
    if tournament["rounds"] is not None and len(rounds) > tournament["rounds"]:
        problems.append(
            Problem(
                "too_many_rounds",
                "rounds",
                f"{len(rounds)} rounds, but the tournament has {tournament['rounds']}",
            )
        )
    entrants: dict[int, str] = {}  # every seating input's player ids, with their names
    for i, round_ in enumerate(rounds):
        where = f"rounds[{i}]"
        found = _record_problems(round_, i, len(rounds), tournament, states, names, where)
        if not found:  # the seating is checked on a sound record only
            found = seating_problems(
                round_, rounds[:i], tournament, names, registered, entrants, logs, version, where
            )
        problems += found
    return problems


def _record_problems(
    round_: Mapping[str, Any],
    index: int,
    count: int,
    tournament: Mapping[str, Any],
    states: Mapping[int, Any],
    names: Names,
    where: str,
) -> list[Problem]:
    status = round_["status"]
    problems = []
    if round_["number"] != index + 1:
        problems.append(
            Problem("round_numbers", f"{where}.number", f"round {index + 1} is numbered {round_['number']}")
        )
    if status not in Round.Status.values:
        known = ", ".join(Round.Status.values)
        return [
            *problems,
            Problem("unknown_status", f"{where}.status", f"{status!r} is not a round status ({known})"),
        ]
    if status == Round.Status.DRAFT and index != count - 1:
        problems.append(Problem("round_order", f"{where}.status", "only the last round can be a draft"))
    if round_["method"] != tournament["seating"]:
        problems.append(
            Problem(
                "seating_input_mismatch",
                f"{where}.method",
                f"seated by {round_['method']!r}; the tournament seats by {tournament['seating']!r}",
            )
        )
    if round_["seed"] != tournament["seed"]:
        problems.append(Problem("seed_mismatch", f"{where}.seed", "the round's seed is not the tournament's"))
    problems += api_problems(PublishSerializer, {"edit_reason": round_["edit_reason"]}, where)
    if not problems:
        try:
            services.checked_edit_reason(round_["edit_reason"])
        except services.LeagueError as exc:
            problems.append(Problem(exc.code, f"{where}.edit_reason", exc.message))
    problems += _dates(round_, where)
    tables = round_["tables"]
    players = [[seat["player"] for seat in t["seats"] if seat["player"] is not None] for t in tables]
    problems += api_problems(RoundUpdateSerializer, {"tables": players, "byes": round_["byes"]}, where)
    for t, table in enumerate(tables):
        problems += _table_problems(table, t, status, tournament, states, names, f"{where}.tables[{t}]")
    for b, player in enumerate(round_["byes"]):
        if player not in names:
            problems.append(
                Problem("unknown_player", f"{where}.byes[{b}]", f"player {player} is not in players")
            )
    return problems


def _dates(round_: Mapping[str, Any], where: str) -> list[Problem]:
    """A draft has no dates; a published round its publication; a complete one both."""
    status = round_["status"]
    needed = {"published_at": status != Round.Status.DRAFT, "completed_at": status == Round.Status.COMPLETE}
    problems = []
    for field, present in needed.items():
        value = round_[field]
        if value is not None and parse_datetime(value) is None:
            problems.append(
                Problem("invalid_request", f"{where}.{field}", f"{value!r} is not a date and time")
            )
        elif (value is not None) != present:
            problems.append(
                Problem(
                    "round_status_mismatch",
                    f"{where}.{field}",
                    f"a {status} round {'needs' if present else 'has no'} {field}",
                )
            )
    return problems


def _table_problems(
    table: Mapping[str, Any],
    index: int,
    status: str,
    tournament: Mapping[str, Any],
    states: Mapping[int, Any],
    names: Names,
    where: str,
) -> list[Problem]:
    problems = []
    if table["number"] != index + 1:
        problems.append(
            Problem("table_numbers", f"{where}.number", f"table {index + 1} is numbered {table['number']}")
        )
    game = table["game"]
    if (game is None) != (status == Round.Status.DRAFT):
        wrong = "a draft's table has a game" if game is not None else f"a {status} round's table has no game"
        problems.append(Problem("round_status_mismatch", f"{where}.game", wrong))
    elif status == Round.Status.COMPLETE and game in states:
        if states[game].status not in game_services.FINAL_STATUSES:
            problems.append(
                Problem(
                    "round_status_mismatch",
                    f"{where}.game",
                    f"the round is complete but game {game} is not over",
                )
            )
    bots = tournament["bots"] and tournament["mode"] == Tournament.Mode.DIGITAL
    for s, seat in enumerate(table["seats"]):
        at = f"{where}.seats[{s}]"
        if seat["position"] != s:
            problems.append(
                Problem("seat_positions", f"{at}.position", f"seat {s} has position {seat['position']}")
            )
        player, bot = seat["player"], seat["bot"]
        if player is not None and bot:
            problems.append(Problem("invalid_seat", at, "a seat holds a player or a bot, not both"))
        elif player is not None and player not in names:
            problems.append(Problem("unknown_player", f"{at}.player", f"player {player} is not in players"))
        elif player is None and (not bots or bot != tournament["bot"]):
            problems.append(Problem("invalid_seat", at, f"the tournament seats no bot {bot!r}"))
    return problems
