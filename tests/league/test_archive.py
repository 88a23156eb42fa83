"""Tournament archives: the export, verify_archive and import_archive (a round trip)."""

from __future__ import annotations

import copy
import json
import random
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from django.utils import timezone

import engine
from games.models import Game
from league import archive as archives
from league import projection
from league.archive_check import verify
from league.archive_import import import_archive
from league.models import (
    Club,
    ClubGame,
    Player,
    RatingEntry,
    Registration,
    Round,
    Table,
    TableSeat,
    Tournament,
)
from league.seating import Entrant, PastRound, PastTable, Request, input_digest, make_seating
from tests.support.archive_corpus import mutated, paths
from tests.support.games import client_for
from tests.support.rated import club_with, open_club_game, record_hand

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bea", "Cy", "Dot", "Eve", "Fay", "Gus"]
# Deadwood per seat of each table, by round: places follow it (lowest knocks and wins).
DEADWOOD = {1: [[2, 9, 30, 14], [5, 5, 22, 11]], 2: [[30, 1, 8, 12], [3, 20, 20, 6]]}


def seat_round(tournament: Tournament, number: int, history: tuple[PastRound, ...]) -> Round:
    """A round seated by the balanced method from a stored request, as League I stores it."""
    entrants = tuple(
        Entrant(r.player_id, r.player.name) for r in tournament.registrations.select_related("player")
    )
    request = Request(entrants, 3, 3, number, tournament.seed, history, total_rounds=2)
    seating = make_seating("balanced", request)
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        status=Round.Status.PUBLISHED,
        method="balanced",
        seed=tournament.seed,
        input_digest=input_digest(request, "balanced"),
        request=request.to_dict(),
        generated=seating.to_dict(),
        byes=list(seating.byes),
        notes=[n.to_dict() for n in seating.notes],
        published_at=timezone.now(),
    )
    for t, table_seating in enumerate(seating.tables, start=1):
        table = Table.objects.create(round=round_, number=t, notes=[n.to_dict() for n in table_seating.notes])
        for position, player in enumerate(table_seating.seats):
            TableSeat.objects.create(table=table, position=position, player_id=player)
    return round_


def play_round(round_: Round, club: Club) -> PastRound:
    """Open every table's game under the club, record one hand to its end."""
    tables = []
    for table, deadwood in zip(round_.tables.order_by("number"), DEADWOOD[round_.number], strict=True):
        seats = list(table.seats.select_related("player").order_by("position"))
        game = open_club_game(club, [s.player.name for s in seats])
        Table.objects.filter(pk=table.pk).update(game=game)
        counts = deadwood[: len(seats)]
        record_hand(game, counts, counts.index(min(counts)))
        tables.append(PastTable(tuple(s.player_id for s in seats)))
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.COMPLETE, completed_at=timezone.now())
    return PastRound(round_.number, tuple(tables), tuple(round_.byes))


@pytest.fixture
def cup() -> Tournament:
    club, players = club_with(NAMES)
    tournament = Tournament.objects.create(
        club=club,
        name="Spring cup",
        slug="spring",
        preset="knock-rummy",
        # as the tables' games are opened (tests.support.rated.open_club_game)
        options=engine.get_ruleset("knock-rummy", hands=1).to_dict()["options"],
        stake="0",
        table_min=3,
        table_max=3,
        rounds=2,
        seed="archive-seed",
        scoring="placement",
        placement_points=[3, 2, 1, 0],
        tiebreaks=["wins", "average_placement"],
        status=Tournament.Status.FINISHED,
    )
    for name in NAMES:
        Registration.objects.create(tournament=tournament, player=players[name])
    first = play_round(seat_round(tournament, 1, ()), club)
    play_round(seat_round(tournament, 2, (first,)), club)
    return tournament


def by_name(rows: list[dict[str, Any]], names: dict[int, str]) -> list[dict[str, Any]]:
    """Standings rows with the player's name for its id (ids differ between instances)."""
    return [{**row, "player": names[row["player"]]} for row in rows]


def names_of(archive: dict[str, Any]) -> dict[int, str]:
    return {p["id"]: p["name"] for p in archive["players"]}


def test_the_archive_holds_everything_and_verifies(cup: Tournament) -> None:
    response = client_for(None).get(f"/api/v1/tournaments/{cup.pk}/archive")
    assert response.status_code == 200, response.json()
    archive = response.json()
    assert (archive["format"], archive["format_version"]) == ("knockrummy-tournament-archive", 2)
    assert archive["tournament"]["seed"] == "archive-seed"
    assert archive["tournament"]["placement_points"] == [3, 2, 1, 0]
    assert [r["player"] for r in archive["registrations"]] == list(
        cup.registrations.values_list("player_id", flat=True)
    )
    assert [r["number"] for r in archive["rounds"]] == [1, 2]
    first = archive["rounds"][0]
    assert first["request"] == Round.objects.get(tournament=cup, number=1).request
    assert {"seed", "method", "input_digest", "generated", "byes", "tables"} <= first.keys()
    assert [len(t["seats"]) for t in first["tables"]] == [3, 3]
    assert len(first["byes"]) == 1  # seven players at tables of three: one bye a round
    game_ids = [t["game"] for r in archive["rounds"] for t in r["tables"]]
    assert [g["game"]["id"] for g in archive["games"]] == game_ids
    exported = client_for(None).get(f"/api/v1/games/{game_ids[0]}/export").json()
    assert archive["games"][0] == exported  # each log exactly as the games' export gives it

    # The standings section is what the standings projection shows.
    projection.rebuild(cup.pk)
    assert archive["standings"] == json.loads(json.dumps(cup.standings_state.rows))
    assert verify(archive) == []


def test_verify_archive_reports_every_problem_and_fails(cup: Tournament, tmp_path: Path) -> None:
    archive = archives.build_archive(cup)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(archive))
    out = StringIO()
    call_command("verify_archive", str(good), stdout=out)
    assert out.getvalue().startswith("OK: 2 round(s) seated again identically, 4 game log(s) audited")

    bad = copy.deepcopy(archive)
    bad["rounds"][0]["request"]["seed"] = "another seed"  # the input changed: digest and seed
    generated = bad["rounds"][1]["generated"]["tables"]
    generated[0]["seats"], generated[1]["seats"] = generated[1]["seats"], generated[0]["seats"]
    bad["games"][0]["events"][1]["data"]["knocker"] = 7  # a log that no longer replays
    problems = verify(bad)
    found = {(p.code, p.where) for p in problems}
    assert ("digest_mismatch", "rounds[0].input_digest") in found
    assert ("seed_mismatch", "rounds[0].request.seed") in found
    assert ("seating_mismatch", "rounds[1].generated.tables") in found
    assert ("forged_seat", "games[0].events[1]") in found
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    out = StringIO()
    with pytest.raises(CommandError, match=r"problem\(s\): the archive does not verify"):
        call_command("verify_archive", str(path), stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == len(problems) >= 4
    problem = "games[0].events[1]: HandResultRecorded: there is no seat 7 in this game (forged_seat)"
    assert f"PROBLEM {problem}" in lines

    standings = copy.deepcopy(archive)
    standings["standings"][0]["points"] = "99"
    computed = archive["standings"][0]["points"]
    assert [str(p) for p in verify(standings)] == [
        f"standings[0].points: archive '99' != computed {computed!r} (standings_mismatch)"
    ]
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    with pytest.raises(CommandError, match="not JSON"):
        call_command("verify_archive", str(junk), stdout=StringIO())
    assert [str(p) for p in verify({"format": "something else"})] == [
        "format: not a tournament archive (format is not 'knockrummy-tournament-archive') (not_an_archive)"
    ]


def test_an_import_elsewhere_has_identical_standings(cup: Tournament, tmp_path: Path) -> None:
    archive = archives.build_archive(cup)
    archive["club"]["slug"] = "elsewhere"  # another instance: the club is not there yet
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(archive))
    out = StringIO()
    call_command("import_archive", str(path), stdout=out)
    assert "imported tournament" in out.getvalue()

    copy_ = Tournament.objects.get(club__slug="elsewhere")
    assert copy_.pk != cup.pk and copy_.club_id != cup.club_id
    imported = Game.objects.filter(league_table__round__tournament=copy_)
    assert imported.count() == len(archive["games"]) and all(game.followed for game in imported)
    assert Player.objects.filter(club=copy_.club).count() == len(NAMES)
    again = archives.build_archive(copy_)
    assert verify(again) == []
    # Identical standings, player for player (by name: the ids are new).
    assert by_name(again["standings"], names_of(again)) == by_name(archive["standings"], names_of(archive))
    projection.rebuild(copy_.pk)
    projection.rebuild(cup.pk)
    imported_rows = projection.read_standings(copy_)["rows"]
    original_rows = projection.read_standings(cup)["rows"]

    def strip(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**row, "player": row["player"]["name"]} for row in rows]

    assert strip(imported_rows) == strip(original_rows)
    # Rounds keep their archived seating input; tables and seats name the new players.
    for old, new in zip(archive["rounds"], again["rounds"], strict=True):
        assert (new["request"], new["generated"], new["input_digest"]) == (
            old["request"],
            old["generated"],
            old["input_digest"],
        )
        old_names = [[names_of(archive)[s["player"]] for s in t["seats"]] for t in old["tables"]]
        new_names = [[names_of(again)[s["player"]] for s in t["seats"]] for t in new["tables"]]
        assert new_names == old_names
    # The games are new games with the same events, linked to the new club.
    for old, new in zip(archive["games"], again["games"], strict=True):
        assert new["game"]["id"] != old["game"]["id"]
        assert [(e["type"], e["data"]) for e in new["events"]] == [
            (e["type"], e["data"]) for e in old["events"]
        ]
        assert ClubGame.objects.get(game_id=new["game"]["id"]).club == copy_.club
    # Their ratings follow in the new club, from the outbox or a rebuild.
    call_command("rebuild_ratings", "elsewhere", stdout=StringIO())
    assert RatingEntry.objects.filter(club=copy_.club).values("game").distinct().count() == 4


def test_an_import_into_the_same_club_reuses_its_players(cup: Tournament) -> None:
    archive = archives.build_archive(cup)
    players = Player.objects.count()
    copy_ = import_archive(archive)
    assert copy_.club_id == cup.club_id and copy_.slug == "spring-2"
    assert Player.objects.count() == players
    again = archives.build_archive(copy_)
    assert again["standings"] == archive["standings"]  # the same players: the same ids


def test_a_bad_archive_imports_nothing(cup: Tournament, tmp_path: Path) -> None:
    archive = archives.build_archive(cup)
    archive["club"]["slug"] = "elsewhere"
    games, tournaments = Game.objects.count(), Tournament.objects.count()
    broken = copy.deepcopy(archive)
    broken["games"][-1]["events"][1]["data"]["knocker"] = 7
    with pytest.raises(archives.ArchiveError) as refused:
        import_archive(broken)
    assert (refused.value.code, refused.value.where) == ("forged_seat", "games[3].events[1]")
    unknown = copy.deepcopy(archive)
    unknown["registrations"][0]["player"] = 424242
    path = tmp_path / "unknown.json"
    path.write_text(json.dumps(unknown))
    err = StringIO()
    with pytest.raises(CommandError, match=r"is not in players \(unknown_player\); nothing was imported"):
        call_command("import_archive", str(path), stdout=StringIO(), stderr=err)
    problem = "registrations[0].player: player 424242 is not in players (unknown_player)"
    assert err.getvalue() == f"PROBLEM {problem}\n"
    with pytest.raises(archives.ArchiveError, match="format"):
        import_archive({"format": "knockrummy-game-log"})
    assert (Game.objects.count(), Tournament.objects.count()) == (games, tournaments)
    assert not Club.objects.filter(slug="elsewhere").exists()


def test_the_archive_waits_for_games_in_play(cup: Tournament, ann: Any) -> None:
    round_ = Round.objects.get(tournament=cup, number=2)
    table = Table.objects.create(round=round_, number=3)
    Table.objects.filter(pk=table.pk).update(game=open_club_game(cup.club, ["Ann", "Bea"]))
    response = client_for(None).get(f"/api/v1/tournaments/{cup.pk}/archive")
    assert (response.status_code, response.json()["code"]) == (403, "export_not_allowed")
    missing = client_for(None).get("/api/v1/tournaments/424242/archive")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")


def test_a_tampered_archive_of_any_shape_is_reported_never_a_crash(cup: Tournament) -> None:
    archive = archives.build_archive(cup)
    archive["club"]["slug"] = "elsewhere"
    rng = random.Random(18)
    every = paths(archive)
    values = [None, "x", [], {}, -1, 10**30, [[1]], {"a": 1}]
    counts = Game.objects.count(), Tournament.objects.count()
    for n, path in enumerate(rng.sample(every, 120)):
        bad = mutated(archive, path, rng.choice(values))
        found = verify(bad)
        assert all(p.code and p.where and p.message for p in found), path
        if n % 15 == 0:  # importing is slower: a sample
            try:
                with transaction.atomic():
                    imported = import_archive(bad)
                    transaction.set_rollback(True)  # leave the next import the same start
                assert imported.pk
            except archives.ArchiveError as exc:
                assert exc.code and exc.message, path
    assert (Game.objects.count(), Tournament.objects.count()) == counts


def test_a_corrected_hand_is_archived_verified_and_imported(cup: Tournament, tmp_path: Path) -> None:
    """A director's correction of a finished table (HandCorrected, the new score, the
    game's result given again) is in the archive's log: the archive re-decides it and
    the standings it recomputes are the corrected ones, here and after an import."""
    from tests.support.rated import record

    table = Table.objects.filter(round__tournament=cup, round__number=1, number=1).get()
    game = Game.objects.get(pk=table.game_id)
    projection.rebuild(cup.pk)
    before = projection.read_standings(cup)["rows"]
    # the hand was 2, 9, 30: the third seat announced 1 in fact, and knocked
    record(game, {"type": "CorrectHand", "hand_number": 1, "knocker": 2,
                  "deadwood": {"0": 2, "1": 9, "2": 1}, "reason": "misheard"})  # fmt: skip
    projection.rebuild(cup.pk)
    after = projection.read_standings(cup)["rows"]
    assert after != before
    archive = archives.build_archive(cup)
    assert verify(archive) == []
    assert archive["standings"] == json.loads(json.dumps(cup.standings_state.rows))
    archive["club"]["slug"] = "elsewhere"
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(archive))
    call_command("import_archive", str(path), stdout=StringIO())
    again = archives.build_archive(Tournament.objects.get(club__slug="elsewhere"))
    assert verify(again) == []
    assert by_name(again["standings"], names_of(again)) == by_name(archive["standings"], names_of(archive))
