"""The tamper corpus: real exported archives (a cup recorded card by card, the demo's cup
with its correction and its gin Swiss), each tampered with one way at a time. Every
tampering is reported by verify_archive with its code, and import_archive refuses it
with that code, writing nothing. A tampered log is also "resealed" as a careful forger
would (seq numbers, version and standings made to agree with it), so that the check
that catches it is the one that matters: the audit of the moves and the scores."""

from __future__ import annotations

import contextlib
import copy
import json
import random
import re
from collections.abc import Callable, Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import models, transaction
from django.test import override_settings

from games.models import Game, GameEvent
from league.archive import ArchiveError, archive_standings, build_archive
from league.archive_check import verify
from league.archive_import import import_archive
from league.models import Club, ClubGame, Player, Registration, Round, Table, TableSeat, Tournament
from league.seating import Request, input_digest, make_seating
from tests.support.archive_corpus import card_cup, mutated, paths

pytestmark = pytest.mark.django_db

Archive = dict[str, Any]
ROWS: tuple[type[models.Model], ...] = (
    Club,
    Player,
    Tournament,
    Registration,
    Round,
    Table,
    TableSeat,
    Game,
    GameEvent,
    ClubGame,
)


@pytest.fixture(scope="module")
def corpus(django_db_setup: Any, django_db_blocker: Any) -> dict[str, Archive]:
    """The archives, exported as JSON once (then the rows are rolled back)."""
    archives: dict[str, Archive] = {}
    with (
        django_db_blocker.unblock(),
        override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]),
        transaction.atomic(),
    ):
        club = Club.objects.create(name="Corpus", slug="corpus")
        archives["cards"] = json.loads(json.dumps(build_archive(card_cup(club))))
        call_command("seed_demo", password="demo-pass-123", stdout=StringIO())
        for key, name in (("demo", "Riverside Autumn Cup"), ("swiss", "Riverside Gin Swiss")):
            archives[key] = json.loads(json.dumps(build_archive(Tournament.objects.get(name=name))))
        transaction.set_rollback(True)
    return archives


def counts() -> list[int]:
    return [model.objects.count() for model in ROWS]


# --- tamperings ----------------------------------------------------------------------------


def events_of(archive: Archive, game: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = archive["games"][game]["events"]
    return events


def index_of(archive: Archive, game: int, kind: str, nth: int = 0) -> int:
    return [i for i, e in enumerate(events_of(archive, game)) if e["type"] == kind][nth]


def reseal(archive: Archive) -> None:
    """What a forger would make agree with tampered logs: every event's seq, each game's
    version, and the standings (where they can still be computed)."""
    for document in archive["games"]:
        for seq, event in enumerate(document["events"], start=1):
            event["seq"] = seq
        document["game"]["version"] = len(document["events"])
    with contextlib.suppress(ValueError):
        archive["standings"] = archive_standings(archive)


def reseat(archive: Archive, r: int) -> None:
    """What a forger would make agree with a tampered seating input: its digest and the
    seating computed from it."""
    round_ = archive["rounds"][r]
    request = Request.from_dict(round_["request"])
    round_["input_digest"] = input_digest(request, round_["method"])
    round_["generated"] = make_seating(round_["method"], request).to_dict()


def change_revealed_card(a: Archive) -> None:
    """A card of a revealed hand (the move-by-move table) swapped for another of the same
    value in a suit nobody saw: the deadwood, and so the scores, stay the same."""
    reveal = events_of(a, 0)[index_of(a, 0, "HandRevealed")]
    cards: list[str] = reveal["data"]["cards"]
    seen = {c for e in events_of(a, 0) for c in json.dumps(e["data"]).split('"') if len(c) == 2}
    i, card = next(
        (i, f"{c[0]}{suit}") for i, c in enumerate(cards) for suit in "CDHS" if f"{c[0]}{suit}" not in seen
    )
    cards[i] = card


def change_recorded_hand(a: Archive) -> None:
    """One card of a hand entered at once changed for another card nobody holds."""
    entry = events_of(a, 1)[index_of(a, 1, "HandResultRecorded")]
    hands: dict[str, list[str]] = entry["data"]["hands"]
    held = {c for cards in hands.values() for c in cards}
    spare = next(f"{r}{s}" for r in "A23456789TJQK" for s in "CDHS" if f"{r}{s}" not in held)
    hands["0"][0] = spare


def change_scores(a: Archive) -> None:
    scored = events_of(a, 1)[index_of(a, 1, "HandScored")]["data"]["points"]
    first, second = list(scored)[:2]
    scored[first], scored[second] = scored[second], scored[first]


def change_result(a: Archive) -> None:
    result = events_of(a, 1)[index_of(a, 1, "GameFinished")]["data"]["result"]
    result["places"] = list(reversed(result["places"]))
    result["ranking"] = list(reversed(result["ranking"]))


def drop_event(a: Archive) -> None:
    del events_of(a, 0)[index_of(a, 0, "CardDiscarded")]


def drop_scoring(a: Archive) -> None:
    del events_of(a, 1)[index_of(a, 1, "HandScored")]


def drop_correction(a: Archive) -> None:
    """The director's penalty removed from the corrected game (its last hand kept)."""
    game = next(i for i, g in enumerate(a["games"]) if any(e["type"] == "ScoreAdjusted" for e in g["events"]))
    del events_of(a, game)[index_of(a, game, "ScoreAdjusted")]


def swap_events(a: Archive) -> None:
    events = events_of(a, 0)
    i = index_of(a, 0, "CardDrawn", 1)
    events[i], events[i + 1] = events[i + 1], events[i]


def swap_scoring(a: Archive) -> None:
    events = events_of(a, 0)
    i = index_of(a, 0, "HandScored")
    events[i - 1], events[i] = events[i], events[i - 1]


def change_game_record(a: Archive) -> None:
    """A game still in play (the Swiss's round 2) said to be finished."""
    a["games"][-1]["game"]["status"] = "finished"


def name_another_rounds_game(a: Archive) -> None:
    a["rounds"][1]["tables"][0]["game"] = a["rounds"][0]["tables"][0]["game"]


def swap_games_between_rounds(a: Archive) -> None:
    """Round 1's and round 2's first tables exchange their games (and the games list
    follows, so that it stays in round and table order)."""
    first, second = a["rounds"][0]["tables"][0], a["rounds"][1]["tables"][0]
    first["game"], second["game"] = second["game"], first["game"]
    order = [t["game"] for r in a["rounds"] for t in r["tables"] if t["game"] is not None]
    a["games"].sort(key=lambda g: order.index(g["game"]["id"]))


def move_player(a: Archive) -> None:
    """Two players of round 1 exchanged between its tables, with a reason given."""
    tables = a["rounds"][0]["tables"]
    tables[0]["seats"][0]["player"], tables[1]["seats"][0]["player"] = (
        tables[1]["seats"][0]["player"],
        tables[0]["seats"][0]["player"],
    )
    a["rounds"][0]["edit_reason"] = "swapped at the director's request"


def change_generated(a: Archive) -> None:
    tables = a["rounds"][1]["generated"]["tables"]
    tables[0]["seats"], tables[1]["seats"] = tables[1]["seats"], tables[0]["seats"]


def change_table_notes(a: Archive) -> None:
    a["rounds"][0]["tables"][0]["notes"] = [{"code": "seated_by_director", "params": {}}]


def change_generated_notes(a: Archive) -> None:
    a["rounds"][1]["generated"]["tables"][0]["notes"].append({"code": "no_repeats", "params": {}})


def change_tournament_seed(a: Archive) -> None:
    a["tournament"]["seed"] = "another seed"


def change_round_seed(a: Archive) -> None:
    a["rounds"][1]["seed"] = "another seed"


def change_request_seed(a: Archive) -> None:
    a["rounds"][1]["request"]["seed"] = "another seed"
    reseat(a, 1)


def change_history(a: Archive) -> None:
    """Round 2's seating input given another round 1 (two players' tables exchanged)."""
    history = a["rounds"][1]["request"]["history"][0][1]
    history[0][0][0], history[1][0][0] = history[1][0][0], history[0][0][0]
    reseat(a, 1)


def change_history_result(a: Archive) -> None:
    """A Swiss round's input given another result of a first-round game."""
    table = a["rounds"][1]["request"]["history"][0][1][0]
    table[2] = list(reversed(table[2]))
    reseat(a, 1)


def change_entrants(a: Archive) -> None:
    """A registered player left out of round 2's seating input."""
    a["rounds"][1]["request"]["players"].pop()
    reseat(a, 1)


def change_standings(a: Archive) -> None:
    a["standings"][0]["points"] = "99"


def change_byes(a: Archive) -> None:
    byes = a["rounds"][0]["byes"]
    seated = a["rounds"][0]["tables"][0]["seats"][0]["player"]
    a["rounds"][0]["byes"] = [seated] if not byes else [*byes, seated]


# (name, archive, tampering, reseal the logs and standings, the code reported)
TAMPERINGS: list[tuple[str, str, Callable[[Archive], None], bool, str]] = [
    ("revealed card changed, same scores", "cards", change_revealed_card, True, "rescored"),
    ("recorded hand changed", "cards", change_recorded_hand, True, "rescored"),
    ("hand scores exchanged", "cards", change_scores, True, "rescored"),
    ("game result reversed", "cards", change_result, True, "rescored"),
    ("a discard dropped", "cards", drop_event, False, "events_out_of_order"),
    ("a discard dropped, resealed", "cards", drop_event, True, "forged_move"),
    ("a hand's scoring dropped, resealed", "cards", drop_scoring, True, "event_missing"),
    ("a penalty dropped, resealed", "demo", drop_correction, False, "events_out_of_order"),
    ("two draws swapped, resealed", "cards", swap_events, True, "forged_move"),
    ("a reveal and the scoring swapped, resealed", "cards", swap_scoring, True, "not_a_move"),
    ("a game in play said finished", "swiss", change_game_record, False, "game_record_mismatch"),
    ("a table names another round's game", "cards", name_another_rounds_game, False, "game_named_twice"),
    ("games exchanged between rounds", "cards", swap_games_between_rounds, True, "table_game_mismatch"),
    ("a seating edited with a reason", "cards", move_player, True, "table_game_mismatch"),
    ("a generated seating changed", "cards", change_generated, False, "seating_mismatch"),
    ("a table's notes changed", "cards", change_table_notes, False, "notes_mismatch"),
    ("a generated seating's notes changed", "cards", change_generated_notes, False, "notes_mismatch"),
    ("the tournament's seed changed", "cards", change_tournament_seed, False, "seed_mismatch"),
    ("a round's seed changed", "cards", change_round_seed, False, "seed_mismatch"),
    ("a seating input's seed changed, reseated", "cards", change_request_seed, False, "seed_mismatch"),
    ("a seating input's history changed, reseated", "cards", change_history, False, "seating_input_mismatch"),
    (
        "a Swiss input's result changed, reseated",
        "swiss",
        change_history_result,
        False,
        "seating_input_mismatch",
    ),
    ("a player left out of a seating input", "cards", change_entrants, False, "seating_input_mismatch"),
    ("a bye given to a seated player", "cards", change_byes, False, "invalid_seating"),
    ("the standings changed", "cards", change_standings, False, "standings_mismatch"),
    ("the demo's standings changed", "demo", change_standings, False, "standings_mismatch"),
]


def test_the_corpus_verifies_untouched(corpus: dict[str, Archive], tmp_path: Path) -> None:
    for name, archive in corpus.items():
        assert verify(archive) == [], name
    moves = {e["type"] for e in corpus["cards"]["games"][0]["events"]}
    assert {"CardDrawn", "CardDiscarded", "Knocked", "HandRevealed"} <= moves  # recorded card by card
    # Loaded elsewhere, it is the same tournament.
    before = counts()
    copied = import_archive({**corpus["cards"], "club": {"slug": "elsewhere", "name": "Elsewhere"}})
    assert counts() != before
    assert verify(json.loads(json.dumps(build_archive(copied)))) == []


@pytest.mark.parametrize(
    ("name", "base", "tamper", "sealed", "code"), TAMPERINGS, ids=[t[0] for t in TAMPERINGS]
)
def test_each_tampering_is_reported_and_refused(
    corpus: dict[str, Archive],
    name: str,
    base: str,
    tamper: Callable[[Archive], None],
    sealed: bool,
    code: str,
) -> None:
    archive = copy.deepcopy(corpus[base])
    tamper(archive)
    if sealed:
        reseal(archive)
    problems = verify(archive)
    assert code in {p.code for p in problems}, [str(p) for p in problems]
    before = counts()
    with pytest.raises(ArchiveError) as refused:
        import_archive(archive)
    assert (refused.value.code, refused.value.where) == (problems[0].code, problems[0].where)
    assert refused.value.problems == problems
    assert counts() == before


def hostile(path: tuple[Any, ...], value: Any) -> Callable[[Archive], None]:
    def tamper(archive: Archive) -> None:
        node: Any = archive
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return tamper


BOT_SEAT = {"position": 0, "player": None, "bot": "greedy"}
# (name, path, value, the code[, where it is reported: by default at the path])
FIELDS: list[tuple[Any, ...]] = [
    ("unknown preset", ("tournament", "preset"), "snap", "invalid_ruleset", "tournament"),
    ("unknown rule option", ("tournament", "options", "jokers_wild"), True, "invalid_ruleset", "tournament"),
    ("unknown scoring", ("tournament", "scoring"), "elo", "invalid_request"),
    ("unknown tiebreak", ("tournament", "tiebreaks"), ["luck"], "invalid_request", "tournament.tiebreaks[0]"),
    ("unknown seating", ("tournament", "seating"), "random", "invalid_request"),
    ("unknown tournament status", ("tournament", "status"), "paused", "unknown_status"),
    ("unknown round status", ("rounds", 0, "status"), "paused", "unknown_status"),
    ("unknown registration status", ("registrations", 0, "status"), "maybe", "unknown_status"),
    ("unknown kind", ("tournament", "kind"), "cup", "invalid_request"),
    ("NUL in a player's name", ("players", 0, "name"), "Ann\x00", "invalid_string"),
    ("NUL in the club's name", ("club", "name"), "Corpus\x00", "invalid_string"),
    ("NUL deep in a log", ("games", 0, "events", 0, "data", "seats", 0, "name"), "A\x00", "invalid_string"),
    ("overlong player name", ("players", 0, "name"), "A" * 81, "invalid_request"),
    ("overlong tournament name", ("tournament", "name"), "C" * 121, "invalid_request"),
    ("overlong edit reason", ("rounds", 0, "edit_reason"), "r" * 501, "invalid_request"),
    ("blank player name", ("players", 0, "name"), "  ", "invalid_request"),
    ("bad tournament slug", ("tournament", "slug"), "a b/c", "invalid_request"),
    ("bad club slug", ("club", "slug"), "a b", "invalid_request"),
    ("negative from_round", ("registrations", 0, "from_round"), -3, "invalid_request"),
    ("huge seed number", ("registrations", 0, "seed_number"), 10**12, "invalid_request"),
    ("huge number anywhere", ("rounds", 0, "tables", 0, "number"), 10**30, "value_out_of_range"),
    ("negative min_games", ("tournament", "min_games"), -1, "invalid_request"),
    ("huge table size", ("tournament", "table_max"), 50, "invalid_request"),
    ("huge number of rounds", ("tournament", "rounds"), 10**6, "invalid_request"),
    ("negative stake", ("tournament", "stake"), "-1", "invalid_stake"),
    ("huge stake", ("tournament", "stake"), "10000000", "invalid_stake"),
    (
        "bye points that are no number",
        ("tournament", "bye_points"),
        "lots",
        "invalid_bye_points",
        "tournament",
    ),
    ("bots at a physical table", ("tournament", "bots"), True, "invalid_bots", "tournament"),
    ("a round numbered twice", ("rounds", 1, "number"), 1, "round_numbers"),
    ("a table numbered 0", ("rounds", 0, "tables", 0, "number"), 0, "table_numbers"),
    ("a seat not in players", ("rounds", 0, "tables", 0, "seats", 0, "player"), 424242, "unknown_player"),
    ("a bot at a physical table", ("rounds", 0, "tables", 0, "seats", 0), BOT_SEAT, "invalid_seat"),
    ("a missing field", ("rounds", 0), {"number": 1}, "invalid_archive", "rounds[0].status"),
    ("a field of the wrong type", ("players", 0, "id"), "1", "invalid_archive"),
    ("a date that is not one", ("rounds", 0, "published_at"), "yesterday", "invalid_request"),
    ("a newer format", ("format_version",), 99, "unsupported_version"),
    ("more rounds than the tournament has", ("tournament", "rounds"), 1, "too_many_rounds", "rounds"),
]


def at(path: tuple[Any, ...]) -> str:
    """A path as the problems name it: ``rounds[0].tables[1].number``."""
    return "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in path).lstrip(".")


@pytest.mark.parametrize("case", FIELDS, ids=[f[0] for f in FIELDS])
def test_each_bad_field_is_refused_before_anything_is_written(
    corpus: dict[str, Archive], case: tuple[Any, ...]
) -> None:
    _, path, value, code, *where = case
    archive = copy.deepcopy(corpus["cards"])
    hostile(path, value)(archive)
    problems = verify(archive)
    assert (code, where[0] if where else at(path)) in {(p.code, p.where) for p in problems}, [
        str(p) for p in problems
    ]
    before = counts()
    with pytest.raises(ArchiveError) as refused:
        import_archive(archive)
    assert refused.value.code == problems[0].code
    assert counts() == before


@pytest.fixture
def api_director(staff: dict[str, Any]) -> Iterator[Any]:
    from tests.support.games import client_for

    yield client_for(staff["director"]), staff["club"]


# Settings the API and the import must refuse alike (h-input's ranges land in the
# checks both share: league.services.tournament_fields and the create serializer).
SETTINGS = [
    ("bye_points", "1e5000"),
    ("bye_points", "1/3"),
    ("placement_points", ["1e5000", 0, 0]),
    ("placement_points", [3, 2, 1, 0] * 5),
    ("min_games", 10**6),
    ("rounds", 0),
    ("options", {"hands": 10**9}),
    ("seating_params", {"swap_budget": 10**9}),
    ("seating_params", {"shuffle": True}),
    ("tiebreaks", ["wins", "wins"]),
    ("seed", "s" * 65),
]


@pytest.mark.parametrize(("field", "value"), SETTINGS, ids=[f"{f}={str(v)[:20]}" for f, v in SETTINGS])
def test_the_import_refuses_what_the_api_refuses(
    corpus: dict[str, Archive], api_director: Any, field: str, value: Any
) -> None:
    client, club = api_director
    archived = corpus["cards"]["tournament"]
    body = {
        key: archived[key]
        for key in ("name", "kind", "preset", "options", "mode", "seating", "rounds", "seed")
    }
    body.update(
        table_size={"min": archived["table_min"], "max": archived["table_max"]}, scoring=archived["scoring"]
    )
    body["placement_points"] = archived["placement_points"]
    response = client.post(f"/api/v1/clubs/{club.pk}/tournaments", {**body, field: value}, format="json")
    assert response.status_code in (201, 400), response.content
    archive = copy.deepcopy(corpus["cards"])
    archive["tournament"][field] = value
    refused = [p for p in verify(archive) if p.where.startswith("tournament")]
    assert bool(refused) == (response.status_code == 400), (response.json(), refused)


def test_the_commands_say_what_is_wrong(corpus: dict[str, Archive], tmp_path: Path) -> None:
    archive = copy.deepcopy(corpus["cards"])
    change_scores(archive)
    reseal(archive)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(archive))
    out = StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("verify_archive", str(path), stdout=out)
    assert str(failed.value) == "1 problem(s): the archive does not verify"
    (line,) = out.getvalue().splitlines()
    # which seats: the first two of the stored points, in PostgreSQL's key order or SQLite's
    assert re.match(
        r"PROBLEM games\[1\]\.events\[2\]: HandScored is not what the rules give: points\.\d: ", line
    )
    assert line.endswith("(rescored)")
    err = StringIO()
    before = counts()
    with pytest.raises(CommandError) as refused:
        call_command("import_archive", str(path), stdout=StringIO(), stderr=err)
    assert str(refused.value).endswith("(rescored); nothing was imported")
    assert err.getvalue() == f"{line}\n"
    assert counts() == before


def test_random_damage_is_reported_never_a_crash(corpus: dict[str, Archive]) -> None:
    """Any value anywhere (the card cup's logs included) gives problems, never an
    exception; an import of such an archive is refused or loads, and never crashes."""
    rng = random.Random(24)
    values = [None, "x", "", [], {}, -1, 0, 2, 10**30, 3.5, True, "1/0", "AS", ["AS"], [[1]], {"a": 1}]
    archive = corpus["cards"]
    every = paths(archive)
    before = counts()
    for n, path in enumerate(rng.sample(every, 150)):
        damaged = mutated(archive, path, rng.choice(values))
        assert all(p.code and p.where and p.message for p in verify(damaged)), path
        if n % 10 == 0:
            try:
                with transaction.atomic():
                    import_archive({**damaged, "club": {"slug": "elsewhere", "name": "Elsewhere"}})
                    transaction.set_rollback(True)
            except ArchiveError as exc:
                assert exc.code and exc.problems, path
    assert counts() == before
