"""The demo's tournaments: a knock-rummy cup with two rounds played, a director's
correction on round 2 and round 3 in draft, a gin Swiss with a live round; seeding
twice changes nothing; every round regenerates the same; the archive verifies."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import Q
from django.test import Client, override_settings

from games.models import Game, GameEvent
from league import projection
from league.archive_check import verify
from league.demo_tournaments import PENALTY, RETRACT_REASON, corrected_table
from league.management.commands.seed_demo import live_table
from league.models import Player, Round, Tournament
from league.services import regenerate
from tests.support.worlds import FAST_HASHERS, shared_world

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_hasher(settings: Any) -> None:
    settings.PASSWORD_HASHERS = FAST_HASHERS


@dataclass(frozen=True)
class Demo:
    out: str  # what seed_demo printed
    seconds: float  # how long it took


@pytest.fixture(scope="module", autouse=True)
def demo(django_db_setup: None, django_db_blocker: Any) -> Iterator[Demo]:
    """The demo, seeded once for the module (tests/support/worlds.py): each test starts
    from its rows, in a savepoint rolled back after it."""
    with shared_world(django_db_blocker), override_settings(PASSWORD_HASHERS=FAST_HASHERS, BOT_MOVE_DELAY=0):
        out = StringIO()
        started = time.monotonic()
        call_command("seed_demo", password="demo-pass-123", stdout=out)
        yield Demo(out.getvalue(), time.monotonic() - started)


def test_the_demo_tournaments(demo: Demo) -> None:
    assert demo.seconds < 20
    cup = Tournament.objects.get(name="Riverside Autumn Cup")
    assert (cup.preset, cup.table_min, cup.table_max, cup.registrations.count()) == ("knock-rummy", 3, 4, 11)
    assert [(r.number, r.status) for r in cup.round_set.order_by("number")] == [
        (1, "complete"),
        (2, "complete"),
        (3, "draft"),
    ]
    for round_ in cup.round_set.exclude(status="draft"):
        assert sorted(t.seats.count() for t in round_.tables.all()) == [3, 4, 4]
        for table in round_.tables.all():
            game = Game.objects.get(pk=table.game_id)
            assert (game.mode, game.status) == ("physical", "finished")
    swiss = Tournament.objects.get(name="Riverside Gin Swiss")
    assert (swiss.preset, swiss.seating, swiss.registrations.count()) == ("gin-rummy", "swiss", 8)
    assert [(r.number, r.status) for r in swiss.round_set.order_by("number")] == [
        (1, "complete"),
        (2, "published"),
    ]
    assert "Riverside Autumn Cup" in demo.out

    counts = (Round.objects.count(), Game.objects.count())
    call_command("seed_demo", password="demo-pass-123")
    assert (Round.objects.count(), Game.objects.count()) == counts
    for round_ in Round.objects.all():
        assert regenerate(round_).same


def test_the_league_follows_its_games_and_no_free_game() -> None:
    """Every game a club or a tournament holds is followed (its writes carry the league's
    outbox rows); the exhibition games no club holds are not."""
    linked = Q(club_link__isnull=False) | Q(league_table__isnull=False)
    held, free = Game.objects.filter(linked).distinct(), Game.objects.exclude(linked)
    assert held.count() > 10 and free.exists()
    assert sorted(set(held.values_list("followed", flat=True))) == [True]
    assert sorted(set(free.values_list("followed", flat=True))) == [False]


def test_the_cup_shows_a_directors_correction(client: Client) -> None:
    cup = Tournament.objects.get(name="Riverside Autumn Cup")
    table = corrected_table(cup)
    assert table is not None and table.round.status == "complete"
    game = Game.objects.get(pk=table.game_id)
    assert game.status == "finished"
    events = list(GameEvent.objects.filter(game=game).order_by("seq"))
    types = [e.type for e in events]
    assert types.count("Retracted") == 1 and types.count("ScoreAdjusted") == 1
    director = get_user_model().objects.get(username="director")
    retracted = next(e for e in events if e.type == "Retracted")
    adjusted = next(e for e in events if e.type == "ScoreAdjusted")
    assert (retracted.actor_id, retracted.data["reason"]) == (director.pk, RETRACT_REASON)
    assert (adjusted.actor_id, adjusted.data["reason"]) == (director.pk, PENALTY["reason"])
    # made once round 2 was complete and before round 3 was generated
    round_3 = cup.round_set.get(number=3)
    assert table.round.completed_at is not None and table.round.completed_at < retracted.recorded_at
    assert retracted.recorded_at < round_3.created_at

    (change,) = client.get(f"/api/v1/tournaments/{cup.pk}/standings/changes").json()["changes"]
    assert (change["type"], change["reason"], change["by"]["username"]) == (
        "Retracted",
        RETRACT_REASON,
        "director",
    )
    assert [c["type"] for c in change["corrections"]] == ["Retracted", "ScoreAdjusted"]
    assert any(row["changed"] for row in change["rows"])
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert RETRACT_REASON in page and PENALTY["reason"] in page
    # the demo's projections are current without a worker: standings and ratings
    assert not projection.stale(cup.pk)
    rows = client.get(f"/api/v1/tournaments/{cup.pk}/standings").json()["rows"]
    assert all(row["rating"]["ordinal"] is not None for row in rows)

    call_command("seed_demo", password="demo-pass-123")  # nothing corrected twice
    assert GameEvent.objects.filter(game=game).count() == len(events)


def test_a_live_table_for_the_scorekeeper_to_record(client: Client) -> None:
    swiss = Tournament.objects.get(name="Riverside Gin Swiss")
    table = live_table(swiss)
    assert table is not None and (table.round.number, table.round.status) == (2, "published")
    game = Game.objects.get(pk=table.game_id)
    assert game.mode == "physical" and game.status not in ("finished", "abandoned")
    assert client.login(username="scorekeeper", password="demo-pass-123")
    page = client.get(f"/tables/{table.pk}/record")
    assert page.status_code == 200
    assert all(seat["name"] in page.content.decode() for seat in game.seats)
    assert live_table(Tournament.objects.get(name="Riverside Autumn Cup")) is None  # round 3 is a draft


def test_the_demo_cup_archive_verifies(tmp_path: Any) -> None:
    """export_archive then verify_archive on the demo's cup, its correction included."""
    cup = Tournament.objects.get(name="Riverside Autumn Cup")
    path = tmp_path / "cup.json"
    call_command("export_archive", str(cup.pk), "-o", str(path), stdout=StringIO())
    document = json.loads(path.read_text())
    assert any(event["type"] == "ScoreAdjusted" for game in document["games"] for event in game["events"]), (
        "the correction is in the archive"
    )
    assert verify(document) == []
    out = StringIO()
    call_command("verify_archive", str(path), stdout=out)
    assert out.getvalue().startswith("OK: 3 round(s) seated again identically, 6 game log(s) audited")


def test_the_demo_shows_results_that_stay_and_a_running_clock(client: Client) -> None:
    from league import clock

    summer = Tournament.objects.get(name="Riverside Summer Cup")
    assert summer.status == Tournament.Status.FINISHED
    club_page = client.get(f"/clubs/{summer.club.slug}/").content.decode()
    assert "Riverside Summer Cup</a>" in club_page.split('id="results"')[1] and "Winner" in club_page
    swiss = Tournament.objects.get(name="Riverside Gin Swiss")
    shown = clock.tournament_clock(swiss)
    assert shown is not None and shown.state == clock.RUNNING and shown.round_number == 2
    assert "round-clock" in client.get(f"/tournaments/{swiss.pk}/projector").content.decode()
    call_command("seed_demo", password="demo-pass-123", stdout=StringIO())  # again: the same clock
    again = clock.tournament_clock(swiss)
    assert again is not None and again.started_at == shown.started_at


def test_the_demo_shows_an_open_invitation_an_assigned_scorekeeper_and_alices_seat(client: Client) -> None:
    from league import people
    from league.models import Invitation, Player, TableScorekeeper

    call_command("seed_demo", password="demo-pass-123", stdout=StringIO())  # again: still one open invitation
    ines = Player.objects.get(name="Ines")
    states = [people.invitation_state(i) for i in Invitation.objects.filter(player=ines)]
    assert sorted(states) == ["open", "withdrawn"]
    keeper = TableScorekeeper.objects.select_related("table__round__tournament", "user").get()
    assert keeper.user.username == "scorekeeper" and keeper.table.round.status == "published"
    assert keeper.table.round.tournament.name == "Riverside Gin Swiss"
    client.login(username="scorekeeper", password="demo-pass-123")
    tables = client.get("/mine/tables").content.decode()
    first = re.search(r'<li class="my-table( mine)?[^"]*" data-table="(\d+)"', tables)
    assert first is not None and first.groups() == (" mine", str(keeper.table.pk))  # theirs first
    client.login(username="alice", password="demo-pass-123")
    home = client.get("/").content.decode()
    assert "Where you sit now" in home and "Riverside Gin Swiss" in home
    assert re.search(r"Round 2: table \d+, seat \d, (you deal|\w+ deals) first", home)


def test_the_swiss_was_registered_from_a_pasted_list_and_one_table_plays() -> None:
    swiss = Tournament.objects.get(name="Riverside Gin Swiss")
    # "alice", "BRUNO", … are the club's Alice, Bruno, …: no second player of a name
    names = sorted(swiss.registrations.values_list("player__name", flat=True))
    assert names == ["Alice", "Bruno", "Chiara", "Dmitri", "Esther", "Farid", "Greta", "Hiro"]
    assert not Player.objects.filter(name__in=["alice", "BRUNO", "HIRO"]).exists()
    client = Client()
    assert client.login(username="director", password="demo-pass-123")
    desk = client.get(f"/tournaments/{swiss.pk}/desk").content.decode()
    assert "0 of 4 tables done" in desk
    assert "Table 4</strong> — playing for 0 min" in desk
    assert "Table 1</strong> — nothing entered yet" in desk
