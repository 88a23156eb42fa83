"""A round's seating, checked from the archive alone: its input against the rest of the
archive (the tournament's seed, method, table sizes and parameters, the registered
players in order, the earlier rounds as published and their results), the seating
computed again from it, and the published tables against it (docs/archive.md).

Players are compared by name: an imported round keeps the archive's seating input and
generated seating, under the original instance's player ids, while its tables seat
this instance's players (a club's player names are unique)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from league import services
from league.archive_formats import Format
from league.archive_problems import Problem
from league.models import Round, Tournament
from league.seating import Request, Seating, SeatingError, input_digest, make_seating, manual, validate
from league.seating import Table as SeatingTable
from league.seating.notes import note_of
from league.standings import GameFold

Names = Mapping[int, str]
# A table's finishing order by player name, best first (ties share a set).
Ranking = tuple[frozenset[str], ...]


def seating_problems(
    round_: Mapping[str, Any],
    earlier: Sequence[Mapping[str, Any]],
    tournament: Mapping[str, Any],
    names: Names,
    registered: Sequence[str],
    entrants: dict[int, str],
    logs: Mapping[int, Sequence[Mapping[str, Any]]],
    version: Format,
    where: str,
) -> list[Problem]:
    """The problems of one round's seating. ``earlier`` are the rounds before it,
    ``registered`` the registered players' names in registration order, ``entrants``
    the names every seating input so far gave its player ids (filled as it goes), and
    ``logs`` the events of each game whose log passed its audit."""
    try:
        request = Request.from_dict(round_["request"])
        generated = round_["generated"]
        readable = (
            request.to_dict() == round_["request"] and Seating.from_dict(generated).to_dict() == generated
        )
    except (KeyError, TypeError, ValueError, ArithmeticError):
        readable = False
    if not readable:
        return [
            Problem(
                "seating_unreadable", f"{where}.request", "the seating input is not in the form rounds store"
            )
        ]
    method = round_["method"]
    problems = []
    if input_digest(request, method) != round_["input_digest"]:
        problems.append(
            Problem("digest_mismatch", f"{where}.input_digest", "the digest is not that of the seating input")
        )
    if request.seed != tournament["seed"]:
        problems.append(
            Problem(
                "seed_mismatch", f"{where}.request.seed", "the seating input's seed is not the tournament's"
            )
        )
    problems += [
        Problem("seating_input_mismatch", f"{where}.request.{field}", message)
        for field, message in _input_differences(
            round_, request, tournament, registered, entrants, earlier, names, logs
        )
    ]
    if problems:  # seated again only from an input the archive vouches for: its costs are bounded
        return problems
    try:
        again = make_seating(method, request).to_dict()
    except SeatingError as exc:
        return [
            *problems,
            Problem(
                "seating_mismatch", f"{where}.generated", f"the seating cannot be made again: {exc.message}"
            ),
        ]
    generated = round_["generated"]
    seats = {
        "method": (again["method"], generated["method"]),
        "tables": ([t["seats"] for t in again["tables"]], [t["seats"] for t in generated["tables"]]),
        "byes": (again["byes"], generated["byes"]),
    }
    # Whatever else a method stores with its seating (a knockout's eliminated players, a
    # round robin's schedule) must come out the same too.
    for key in sorted((set(again) | set(generated)) - {"method", "tables", "byes", "notes"}):
        seats[key] = (again.get(key), generated.get(key))
    for key, (computed, archived) in seats.items():
        if computed != archived:
            problems.append(
                Problem(
                    "seating_mismatch",
                    f"{where}.generated.{key}",
                    f"computed again: {computed!r}; archived: {archived!r}",
                )
            )
    if not problems:
        request_names = {entrant.id: entrant.name for entrant in request.players}
        notes = [(again["notes"], generated["notes"], "notes")] + [
            (a["notes"], g["notes"], f"tables[{t}].notes")
            for t, (a, g) in enumerate(zip(again["tables"], generated["tables"], strict=True))
        ]
        problems += [
            Problem("notes_mismatch", f"{where}.generated.{at}", f"computed again: {a!r}; archived: {g!r}")
            for a, g, at in notes
            if not version.same_notes([note_of(n) for n in g], [note_of(n) for n in a], request_names)
        ]
    return problems + _published_problems(round_, request, names, version, where)


def _input_differences(
    round_: Mapping[str, Any],
    request: Request,
    tournament: Mapping[str, Any],
    registered: Sequence[str],
    entrants: dict[int, str],
    earlier: Sequence[Mapping[str, Any]],
    names: Names,
    logs: Mapping[int, Sequence[Mapping[str, Any]]],
) -> list[tuple[str, str]]:
    """How the seating input departs from what the archive says it was given."""
    out = []
    sizes = (services.smallest_table(Tournament(**tournament)), tournament["table_max"])
    if (request.table_min, request.table_max) != sizes:
        given_sizes = f"{request.table_min}-{request.table_max}"
        out.append(("table", f"tables of {given_sizes}, not the tournament's {sizes[0]}-{sizes[1]}"))
    if request.round_number != round_["number"]:
        out.append(("round", f"it seats round {request.round_number}"))
    params = tournament["seating_params"]
    # A manual round adds the director's tables to the parameters; any other method
    # takes the tournament's as they are (a parameter is a cost the API bounds).
    given = dict(request.params) if round_["method"] == manual.METHOD else params
    if round_["params"] != request.params or request.params != {**given, **params}:
        out.append(("params", "the parameters are not the tournament's seating parameters"))
    order = []
    for e, entrant in enumerate(request.players):
        if entrants.setdefault(entrant.id, entrant.name) != entrant.name:
            out.append(
                (f"players[{e}]", f"player {entrant.id} is {entrants[entrant.id]!r} in an earlier round")
            )
        if entrant.name not in registered:
            out.append((f"players[{e}]", f"{entrant.name!r} is not registered"))
        else:
            order.append(registered.index(entrant.name))
    if order != sorted(set(order)):
        out.append(("players", "the players are not each once in registration order"))
    ids = {entrant.id for entrant in request.players}
    if not set(request.standings) <= ids or not set(request.points) <= ids:
        out.append(("standings", "the standings name players who are not in the round"))
    out += _history_differences(request, earlier, entrants, names, logs)
    return out


def _history_differences(
    request: Request,
    earlier: Sequence[Mapping[str, Any]],
    entrants: Mapping[int, str],
    names: Names,
    logs: Mapping[int, Sequence[Mapping[str, Any]]],
) -> list[tuple[str, str]]:
    """The seating input's history against the earlier rounds as published: their tables
    (players only, seat 0 dealing first), byes, and each table's finishing order, which
    must be one its game had at some point of its log (or none, while it was played)."""
    past = [r for r in earlier if r["status"] != Round.Status.DRAFT]
    if [r.number for r in request.history] != [r["number"] for r in past]:
        return [("history", "the history does not list the earlier rounds")]

    def named(ids: Sequence[int]) -> list[str]:
        return [entrants.get(p, f"#{p}") for p in ids]

    out = []
    for h, (given, archived) in enumerate(zip(request.history, past, strict=True)):
        tables = [
            [names.get(s["player"], "") for s in t["seats"] if s["player"] is not None]
            for t in archived["tables"]
        ]
        if [named(t.seats) for t in given.tables] != tables or any(t.first_dealer != 0 for t in given.tables):
            out.append((f"history[{h}]", f"round {given.number}'s tables are not those published"))
        elif sorted(named(given.byes)) != sorted(names.get(p, "") for p in archived["byes"]):
            out.append((f"history[{h}]", f"round {given.number}'s byes are not those published"))
        else:
            for t, (past_table, table) in enumerate(zip(given.tables, archived["tables"], strict=True)):
                if past_table.ranking is None or table["game"] not in logs:
                    continue  # read while its game was played, or a log refused already
                ranking = tuple(frozenset(named(group)) for group in past_table.ranking)
                if ranking not in _rankings(table, logs.get(table["game"], ()), names):
                    out.append(
                        (f"history[{h}]", f"round {given.number} table {t + 1}: no result of its game")
                    )
    return out


def _rankings(table: Mapping[str, Any], events: Sequence[Mapping[str, Any]], names: Names) -> set[Ranking]:
    """Every finishing order (by player name; bots left out) the table's game had at
    some point of its log: a correction may have changed it since a later round read it."""
    players = [names.get(s["player"], "") if s["player"] is not None else None for s in table["seats"]]
    fold = GameFold()
    found: set[Ranking] = set()
    for event in events:
        if fold.feed(event) is None:
            continue
        places = fold.result().places
        if places is None or len(places) != len(players):
            continue
        groups = [
            frozenset(p for seat, p in enumerate(players) if places[seat] == place and p is not None)
            for place in sorted(set(places))
        ]
        found.add(tuple(g for g in groups if g))
    return found


def _published_problems(
    round_: Mapping[str, Any], request: Request, names: Names, version: Format, where: str
) -> list[Problem]:
    """The round's tables and byes, in the seating input's ids: a valid seating of it, and
    the generated one unless the round says why not (``edit_reason``)."""
    ids = {entrant.name: entrant.id for entrant in request.players}
    placed = [s["player"] for t in round_["tables"] for s in t["seats"] if s["player"] is not None]
    outside = sorted({names[p] for p in [*placed, *round_["byes"]] if names[p] not in ids})
    if outside:
        return [
            Problem(
                "seating_input_mismatch",
                f"{where}.request.players",
                f"in the round but not in its seating input: {', '.join(outside)}",
            )
        ]
    tables = tuple(
        SeatingTable(tuple(ids[names[s["player"]]] for s in t["seats"] if s["player"] is not None))
        for t in round_["tables"]
    )
    generated = Seating.from_dict(round_["generated"])
    # The players a knockout eliminated sit in no table and have no bye: the round keeps
    # them only in its generated seating.
    byes = tuple(ids[names[p]] for p in round_["byes"])
    published = Seating(round_["method"], tables, byes, out=generated.out)
    try:
        validate(published, request)
    except SeatingError as exc:
        return [Problem(exc.code, f"{where}.tables", exc.message)]
    same = [t.seats for t in published.tables] == [t.seats for t in generated.tables] and sorted(
        published.byes
    ) == sorted(generated.byes)
    problems = []
    if round_["status"] != Round.Status.DRAFT and not same and not round_["edit_reason"]:
        problems.append(
            Problem(
                "tables_edited",
                f"{where}.tables",
                "the published tables differ from the generated ones and no reason is given",
            )
        )
    # A table the method seated keeps the notes it gave (an edit rewrites only the notes
    # of the tables it changes, and gives a table back its notes when it is undone).
    notes = {t.seats: list(t.notes) for t in generated.tables}
    request_names = {entrant.id: entrant.name for entrant in request.players}
    for t, (table, document) in enumerate(zip(published.tables, round_["tables"], strict=True)):
        archived = [note_of(n) for n in document["notes"]]
        if table.seats in notes and not version.same_notes(archived, notes[table.seats], request_names):
            problems.append(
                Problem(
                    "notes_mismatch", f"{where}.tables[{t}].notes", "the notes are not those of its seating"
                )
            )
    return problems
