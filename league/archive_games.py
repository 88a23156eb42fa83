"""The games of a tournament archive: every log audited as the games import audits it
(every move decided again, every hand scored again), each game's record against its
log, and each table against the game it names (docs/archive.md, "Checking one")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import engine
from games import services as game_services
from league.archive_problems import Problem


def audited_games(games: Sequence[Mapping[str, Any]]) -> tuple[list[Problem], dict[int, engine.GameState]]:
    """Each game's log audited (``games.services.checked_log``) and its record (id,
    version, status, mode, rule set, seats) checked against it; the final state of each
    game whose log passes, by archived id."""
    problems: list[Problem] = []
    states: dict[int, engine.GameState] = {}
    seen: set[int] = set()
    for i, document in enumerate(games):
        where = f"games[{i}]"
        record, events = document["game"], document["events"]
        if record["id"] in seen:
            problems.append(
                Problem("duplicate_game", f"{where}.game.id", f"game {record['id']} is listed twice")
            )
            continue
        seen.add(record["id"])
        for j, event in enumerate(events):
            if event["seq"] != j + 1:
                problems.append(
                    Problem(
                        "events_out_of_order",
                        f"{where}.events[{j}].seq",
                        f"event {j} carries seq {event['seq']}, not {j + 1}: an event was dropped or moved",
                    )
                )
                break
        if record["version"] != len(events):
            problems.append(
                Problem(
                    "game_version_mismatch",
                    f"{where}.game.version",
                    f"the game is at version {record['version']} but its log holds {len(events)} events",
                )
            )
        stored = [{key: e[key] for key in ("type", "schema_version", "data")} for e in events]
        try:
            _, state = game_services.checked_log(stored)
        except game_services.InvalidLog as exc:
            problems.append(Problem(exc.event_code, f"{where}.events[{exc.index}]", exc.event_message))
            continue
        states[record["id"]] = state
        problems += _record_problems(record, state, where)
    return problems, states


def _record_problems(record: Mapping[str, Any], state: engine.GameState, where: str) -> list[Problem]:
    """The game's record (what the export says about it) against its replayed log."""
    replayed = {
        "status": state.status,
        "mode": state.mode,
        "ruleset": state.ruleset.to_dict(),
        "seats": [{"name": seat.name, "bot": seat.bot} for seat in state.seats],
    }
    try:  # both read as the engine reads a stored rule set (options it added since: defaults)
        ruleset = engine.RuleSet.from_dict(record["ruleset"]).to_dict()
    except (engine.InvalidRuleSet, TypeError, ValueError):
        ruleset = record["ruleset"]
    archived = {
        **record,
        "ruleset": ruleset,
        "seats": [{"name": s["name"], "bot": s["bot"]} for s in record["seats"]],
    }
    return [
        Problem(
            "game_record_mismatch",
            f"{where}.game.{key}",
            f"the record says {archived[key]!r}; the log gives {value!r}",
        )
        for key, value in replayed.items()
        if archived[key] != value
    ]


def table_problems(
    rounds: Sequence[Mapping[str, Any]],
    games: Sequence[Mapping[str, Any]],
    states: Mapping[int, engine.GameState],
    tournament: Mapping[str, Any],
    names: Mapping[int, str],
) -> list[Problem]:
    """Each published table names a game of its own: one listed in ``games``, named by no
    other table, in round and table order, opened by the tournament's rules, mode and
    stake with the table's players in its seats (seat ``i`` of the table is seat ``i`` of
    the game, which is how the standings score it)."""
    problems: list[Problem] = []
    named: dict[int, str] = {}
    order: list[int] = []
    ruleset = engine.get_ruleset(tournament["preset"], **tournament["options"]).to_dict()
    for r, round_ in enumerate(rounds):
        for t, table in enumerate(round_["tables"]):
            where = f"rounds[{r}].tables[{t}].game"
            game = table["game"]
            if game is None:
                continue
            if game in named:
                problems.append(
                    Problem("game_named_twice", where, f"game {game} is already the game of {named[game]}")
                )
                continue
            named[game] = f"round {round_['number']} table {table['number']}"
            order.append(game)
            state = states.get(game)
            if state is not None:
                problems += _table_game_problems(table, state, ruleset, tournament, names, where)
    listed = [document["game"]["id"] for document in games]
    missing = [game for game in order if game not in listed]
    extra = [game for game in listed if game not in named]
    for game in missing:
        problems.append(
            Problem("game_not_in_archive", "games", f"game {game} ({named[game]}) is not in games")
        )
    for game in extra:
        problems.append(
            Problem("game_not_at_a_table", f"games[{listed.index(game)}]", f"game {game} is no table's game")
        )
    if not missing and not extra and listed != order:
        problems.append(Problem("games_out_of_order", "games", "the games are not in round and table order"))
    return problems


def _table_game_problems(
    table: Mapping[str, Any],
    state: engine.GameState,
    ruleset: Mapping[str, Any],
    tournament: Mapping[str, Any],
    names: Mapping[int, str],
    where: str,
) -> list[Problem]:
    setup = state.setup
    seats = [(seat["player"], seat["bot"]) for seat in table["seats"]]
    started = [(seat.name, seat.bot) for seat in setup.seats]
    differences = []
    if setup.ruleset.to_dict() != ruleset:
        differences.append(
            f"its rules are {setup.ruleset.preset} {setup.ruleset.options()}, not the tournament's"
        )
    if setup.mode != tournament["mode"]:
        differences.append(f"it is {setup.mode}, the tournament {tournament['mode']}")
    if setup.stake != Fraction(tournament["stake"]) or setup.first_dealer != 0:
        differences.append("its stake or first dealer is not the tournament's")
    if len(started) != len(seats):
        differences.append(f"it has {len(started)} seats, the table {len(seats)}")
    else:
        for position, ((player, bot), (name, seated_bot)) in enumerate(zip(seats, started, strict=True)):
            if player is not None and (names.get(player) != name or seated_bot is not None):
                differences.append(f"seat {position} is {name!r}, the table seats {names.get(player)!r}")
            elif player is None and seated_bot != bot:
                differences.append(f"seat {position} is played by {seated_bot!r}, the table's bot is {bot!r}")
    return [
        Problem("table_game_mismatch", where, f"game {table['game']} is not this table's: {d}")
        for d in differences
    ]
