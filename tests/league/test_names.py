"""Names compared and searched case- and accent-insensitively (league.names, league.search):
the stored key follows every write of a name, the migration fills it for rows made
before it, and a search finds the same rows on SQLite and on PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from league.models import Club, Membership, Player, Tournament
from league.names import name_key
from league.search import search_club
from tests.support.tournaments import make_tournament

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Zoé Lefèvre", "zoe lefevre"),
        ("ÉLODIE", "elodie"),
        ("Straße", "STRASSE"),
        ("Ann  Marie", " ann marie "),
        ("Ǆemal", "dzemal"),
        ("İpek", "ipek"),
        ("Łukasz", "Łukasz"),  # no decomposition: kept, matched as itself
    ],
)
def test_names_people_would_not_tell_apart_have_one_key(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


def test_different_names_keep_different_keys() -> None:
    assert len({name_key(n) for n in ("Ann", "Anne", "Anna", "An n", "Łukasz", "Lukasz")}) == 6


@pytest.fixture
def club(db: None) -> Club:
    return Club.objects.create(name="Grenoble", slug="grenoble")


def test_the_key_follows_every_write_of_a_name(club: Club) -> None:
    zoe = Player.objects.create(club=club, name="Zoé Lefèvre")
    assert Player.objects.get(pk=zoe.pk).name_key == "zoe lefevre"
    zoe.name = "Zoë Martin"
    zoe.save(update_fields=["name"])  # a save of the name alone writes the key too
    assert Player.objects.get(pk=zoe.pk).name_key == "zoe martin"
    cup = make_tournament(club, name="Coupe d'Été")
    assert Tournament.objects.get(pk=cup.pk).name_key == "coupe d'ete"


def test_a_search_finds_names_whatever_their_case_and_accents(club: Club, owner: Any) -> None:
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    for name in ("Zoé Lefèvre", "ZOE ROUX", "Chloé", "Zoltan"):
        Player.objects.create(club=club, name=name)
    Player.objects.create(club=other, name="Zoé Other")
    make_tournament(club, name="Coupe d'Été 2026")
    make_tournament(club, name="Été draft", status=Tournament.Status.DRAFT, slug="draft")
    found = search_club(club, "zoé", user=owner)
    assert [p.name for p in found.players] == ["Zoé Lefèvre", "ZOE ROUX"]
    assert [p.name for p in search_club(club, "ZOE LEF", user=owner).players] == ["Zoé Lefèvre"]
    assert [p.name for p in search_club(club, "loe", user=owner).players] == ["Chloé"]
    # a draft is its club staff's only
    assert [t.name for t in search_club(club, "ETE", user=owner).tournaments] == ["Coupe d'Été 2026"]
    Membership.objects.create(club=club, user=owner, role=Membership.Role.DIRECTOR)
    assert len(search_club(club, "été", user=owner).tournaments) == 2
    # nothing to search for, LIKE's own characters are plain letters
    assert search_club(club, "  \u0301 ", user=owner).players == []
    assert search_club(club, "%", user=owner).players == []
    assert search_club(club, "_", user=owner).players == []


def test_a_search_on_postgresql_finds_the_same(postgres_required: None, club: Club, owner: Any) -> None:
    test_a_search_finds_names_whatever_their_case_and_accents(club, owner)


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_key_of_existing_rows() -> None:
    executor = MigrationExecutor(connection)
    before = [("league", "0007_projection_failures")]
    after = [("league", "0008_names_and_round_clock")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    club = old.get_model("league", "Club").objects.create(name="Old club", slug="old")
    old.get_model("league", "Player").objects.create(club=club, name="Élise Ärnström")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    assert list(new.get_model("league", "Player").objects.values_list("name_key", flat=True)) == [
        "elise arnstrom"
    ]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
