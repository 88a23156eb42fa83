"""A club's player names are unique case and accents aside (issue 27, bug 4): every path
that makes a player — the API, the desk's registration, the people page, the archive
import, the demo — reuses or refuses, and the migration keeps old duplicates."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from league import people, services
from league.archive import ArchiveError, build_archive
from league.archive_import import import_archive
from league.models import Club, Player
from tests.support.league import checked_in_tournament, write

pytestmark = pytest.mark.django_db


def test_registering_alice_reuses_the_clubs_alice(staff: dict[str, Any]) -> None:
    alice = Player.objects.create(club=staff["club"], name="Alice")
    tournament = checked_in_tournament(staff, [])
    registration = services.register(tournament, name="alice")
    assert registration.player == alice
    assert Player.objects.filter(club=staff["club"]).count() == 1
    # accents and spaces aside too
    zoe = Player.objects.create(club=staff["club"], name="Zoé Lefèvre")
    assert services.register(tournament, name="  ZOE   lefevre ").player == zoe


def test_adding_a_player_whose_name_reads_the_same_is_refused(staff: dict[str, Any]) -> None:
    Player.objects.create(club=staff["club"], name="Alice")
    for add in (services.add_player, people.add_player):
        with pytest.raises(services.LeagueError) as refused:
            add(staff["club"], "ALİCE".replace("İ", "I"))
        assert refused.value.code == "player_exists"
        assert refused.value.field == "name"
        assert refused.value.params == {"name": "Alice"}
        assert refused.value.message == "the club already has a player named 'Alice'"
    assert list(Player.objects.values_list("name", flat=True)) == ["Alice"]
    # another club may have its own Alice
    assert services.add_player(staff["other"], "alice").name == "alice"


def test_the_database_refuses_a_second_key(staff: dict[str, Any]) -> None:
    Player.objects.create(club=staff["club"], name="Élise")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=staff["club"], name="elise")


def test_the_api_refuses_alice_twice(staff: dict[str, Any]) -> None:
    api_client = APIClient()
    api_client.force_authenticate(staff["director"])
    url = f"/api/v1/clubs/{staff['club'].pk}/players"
    assert write(api_client, "POST", url, {"name": "Alice"}).status_code == 201
    refused = write(api_client, "POST", url, {"name": "alice"})
    assert refused.status_code == 409
    assert refused.json()["code"] == "player_exists"
    assert Player.objects.filter(club=staff["club"]).count() == 1


def test_club_player_reuses_or_makes(staff: dict[str, Any]) -> None:
    made, new = services.club_player(staff["club"], "Bo")
    assert new
    again, new_again = services.club_player(staff["club"], "BO")
    assert (again, new_again) == (made, False)


def test_the_archive_import_finds_players_case_aside(staff: dict[str, Any]) -> None:
    tournament = checked_in_tournament(staff, ["Ann", "Bo", "Cy"])
    archive = build_archive(tournament)
    # the same club elsewhere has "ann" (its own spelling): the import takes her
    Player.objects.filter(name="Ann").update(name="ann", name_key="ann")
    copy = import_archive(archive)
    names = sorted(copy.registrations.values_list("player__name", flat=True))
    assert names == ["Bo", "Cy", "ann"]
    assert Player.objects.filter(club=staff["club"]).count() == 3


def test_an_archive_naming_two_players_alike_is_refused(staff: dict[str, Any]) -> None:
    tournament = checked_in_tournament(staff, ["Ann", "Bo", "Cy"])
    archive = build_archive(tournament)
    archive["players"][1]["name"] = "ANN"
    with pytest.raises(ArchiveError) as refused:
        import_archive(archive)
    assert refused.value.code == "duplicate_player"


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_old_duplicates_and_reports_them() -> None:
    executor = MigrationExecutor(connection)
    before = [("league", "0009_people")]
    after = [("league", "0010_player_name_key_unique")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    club_model = old.get_model("league", "Club")
    player_model = old.get_model("league", "Player")
    club = club_model.objects.create(name="Old club", slug="old")
    other = club_model.objects.create(name="Other club", slug="other")
    for owner, name, key in [
        (club, "Alice", "alice"),
        (club, "alice", "alice"),
        (club, "ALICE", "alice"),
        (club, "Bo", "bo"),
        (other, "alice", "alice"),
    ]:
        player_model.objects.create(club=owner, name=name, name_key=key)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    said = io.StringIO()
    with redirect_stdout(said):
        executor.migrate(after)
    new = executor.loader.project_state(after).apps
    rows = new.get_model("league", "Player").objects.order_by("pk").values_list("name", "duplicate_name")
    assert list(rows) == [("Alice", False), ("alice", True), ("ALICE", True), ("Bo", False), ("alice", False)]
    report = said.getvalue()
    assert "2 player name(s) read the same" in report
    assert "'alice' reads as player" in report and "'ALICE' reads as player" in report
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    # the oldest Alice is the one a name finds; the kept duplicates stay
    kept = Club.objects.get(slug="old")
    assert services.same_name(kept, "alice") == Player.objects.get(club=kept, name="Alice")
    assert Player.objects.filter(club=kept).count() == 4


def test_a_model_form_says_the_name_is_taken(staff: dict[str, Any]) -> None:
    """The admin's way (full_clean): a form error, not an IntegrityError."""
    from django.core.exceptions import ValidationError

    Player.objects.create(club=staff["club"], name="Alice")
    with pytest.raises(ValidationError) as refused:
        Player(club=staff["club"], name="ALICE").full_clean()
    assert refused.value.messages == [
        "The club has a player whose name reads the same (case and accents aside)."
    ]
    Player(club=staff["club"], name="Alicia").full_clean()


@pytest.mark.usefixtures("postgres_required")
@pytest.mark.django_db(transaction=True)
def test_two_desks_registering_alice_and_alice_at_once_make_one_player(staff: dict[str, Any]) -> None:
    """The constraint holds under a race: both registrations find the one player made."""
    from tests.league.test_people_races import _together

    tournaments = [checked_in_tournament(staff, [], name=f"Cup {n}") for n in range(2)]
    for number in range(10):
        spelled = (f"Ann {number}", f"ANN {number}")
        pairs = zip(tournaments, spelled, strict=True)
        answers = _together(*[lambda t=t, name=name: services.register(t, name=name) for t, name in pairs])
        assert all(not isinstance(a, Exception) for a in answers), answers
        assert answers[0].player_id == answers[1].player_id
        assert Player.objects.filter(name_key=f"ann {number}").count() == 1


def test_a_list_registered_meanwhile_falls_back_name_by_name(
    staff: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another desk registers Bo and makes Cy between the list's preview and its insert:
    the insert is refused by the database, and the list goes name by name, reusing them."""
    from league.services import registration_lists

    tournament = checked_in_tournament(staff, [])
    lines = services.names_from_text("Ann\nBo\nCy")
    stale = services.preview_list(tournament, lines)
    services.register(tournament, name="bo")
    Player.objects.create(club=staff["club"], name="CY")
    monkeypatch.setattr(registration_lists, "preview_list", lambda *args: stale)
    result = services.register_list(tournament, lines, check_in=True)
    assert sorted(r.player.name for r in result.registrations) == ["Ann", "CY"]
    rows = dict(tournament.registrations.values_list("player__name", "status"))
    assert rows == {"Ann": "checked_in", "bo": "registered", "CY": "checked_in"}
    assert Player.objects.filter(club=staff["club"]).count() == 3


def test_a_list_is_two_inserts_however_long(staff: dict[str, Any], django_assert_num_queries: Any) -> None:
    """The last round, the preview's two reads, one insert of the new players, one of the
    registrations (and the savepoints around them): 9 statements for 60 names or 500."""
    tournament = checked_in_tournament(staff, [])
    for n in range(0, 60, 2):
        services.add_player(staff["club"], f"Player {n}")
    lines = services.names_from_text("\n".join(f"player {n}" for n in range(60)))
    with django_assert_num_queries(9):
        result = services.register_list(tournament, lines, check_in=True)
    assert len(result.registrations) == 60 and result.new_players == 30
    assert tournament.registrations.filter(status="checked_in").count() == 60
    assert Player.objects.filter(club=staff["club"]).count() == 60
