"""No false alarm: tournaments run through the services with every seating method, a
director's edits (with a reason, and undone), a round generated before the last was
complete, a correction after a later round read the results, and bots at digital tables
— each exported archive verifies, and so does its copy loaded elsewhere."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from games.models import Game
from league import services
from league.archive import build_archive
from league.archive_check import verify
from league.archive_import import import_archive
from league.models import Club, Registration, Round, Tournament
from tests.support.archive_corpus import correct, record_hands

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Bea", "Cy", "Dot", "Eve", "Fay", "Gus", "Hal")


def exported(tournament: Tournament) -> dict[str, Any]:
    return json.loads(json.dumps(build_archive(Tournament.objects.get(pk=tournament.pk))))


def checks_out(tournament: Tournament) -> None:
    archive = exported(tournament)
    assert [str(p) for p in verify(archive)] == []
    copy = import_archive({**archive, "club": {"slug": "elsewhere", "name": "Elsewhere"}})
    assert [str(p) for p in verify(exported(copy))] == []


def started(club: Club, names: tuple[str, ...], **settings: Any) -> Tournament:
    body = {
        "name": f"Cup {Tournament.objects.count() + 1}",
        "preset": "knock-rummy",
        "options": {"hands": 1},
        "mode": "physical",
        "table_size": {"min": 2, "max": 4},
        "rounds": 3,
        "seed": "methods",
        **settings,
    }
    tournament = services.create_tournament(club, body, None)
    for name in names:
        services.set_registration_status(
            services.register(tournament, name=name), Registration.Status.CHECKED_IN
        )
    return tournament


def play_round(tournament: Tournament, rng: random.Random, **generate: Any) -> Round:
    round_ = services.publish_round(services.generate_round(tournament, None, **generate), None)
    for table in round_.tables.order_by("number"):
        assert table.game_id is not None
        record_hands(table.game_id, rng)
    services.check_round_complete(round_)
    return Round.objects.get(pk=round_.pk)


@pytest.fixture
def club() -> Club:
    return Club.objects.create(name="Methods", slug="methods")


@pytest.mark.parametrize(
    ("method", "body"),
    [
        ("balanced", {"table_size": {"min": 3, "max": 4}}),
        ("swiss", {"table_size": {"min": 2, "max": 2}, "scoring": "match"}),
        ("round_robin", {"table_size": {"min": 2, "max": 2}}),
        ("knockout", {"table_size": {"min": 2, "max": 2}, "rounds": None}),
    ],
)
def test_every_seating_method_verifies(club: Club, method: str, body: dict[str, Any]) -> None:
    rng = random.Random(method)
    tournament = started(club, NAMES, seating=method, **body)
    for _ in range(2):
        play_round(tournament, rng)
    services.generate_round(tournament, None)  # and the next round in draft
    checks_out(tournament)


def test_a_manual_seating_and_edits_verify(club: Club) -> None:
    rng = random.Random(1)
    tournament = started(club, NAMES[:6], seating="manual", table_size={"min": 3, "max": 3})
    ids = list(tournament.registrations.order_by("id").values_list("player_id", flat=True))
    play_round(tournament, rng, manual={"tables": [ids[:3], ids[3:]], "byes": []})
    checks_out(tournament)

    balanced = started(club, NAMES[:7], table_size={"min": 3, "max": 4})
    draft = services.generate_round(balanced, None)
    first, second = (
        list(t.seats.values_list("player_id", flat=True)) for t in draft.tables.order_by("number")
    )
    services.edit_draft(draft, {"swap": [first[0], second[0]], "edit_reason": "Ann and Bea asked"}, None)
    services.publish_round(draft, None)
    for table in draft.tables.order_by("number"):
        assert table.game_id is not None
        record_hands(table.game_id, rng)
    services.check_round_complete(draft)
    undone = services.generate_round(balanced, None)  # swapped, and swapped back
    first, second = (
        list(t.seats.values_list("player_id", flat=True)) for t in undone.tables.order_by("number")
    )
    services.edit_draft(undone, {"swap": [first[0], second[0]]}, None)
    services.edit_draft(undone, {"swap": [first[0], second[0]]}, None)
    checks_out(balanced)


def test_early_rounds_and_late_corrections_verify(club: Club) -> None:
    """Round 2 generated while round 1 is played; round 1 corrected after round 3 read
    its results."""
    rng = random.Random(2)
    tournament = started(club, NAMES[:6], seating="swiss", table_size={"min": 2, "max": 2}, rounds=4)
    first = services.publish_round(services.generate_round(tournament, None), None)
    services.publish_round(
        services.generate_round(tournament, None, force_reason="the hall closes early"), None
    )
    for round_ in Round.objects.filter(tournament=tournament).order_by("number"):
        for table in round_.tables.order_by("number"):
            assert table.game_id is not None
            record_hands(table.game_id, rng)
        services.check_round_complete(round_)
    play_round(tournament, rng)
    late: Callable[[int, random.Random], None] = correct
    table = first.tables.order_by("number").first()
    assert table is not None and table.game_id is not None
    late(table.game_id, rng)
    checks_out(tournament)


def test_bots_at_digital_tables_verify(club: Club, make_user: Callable[..., Any]) -> None:
    tournament = started(
        club, (), mode="digital", bots=True, bot="greedy", table_size={"min": 4, "max": 4}, seating="balanced"
    )
    for name in NAMES[:3]:
        player = services.add_player(club, name, make_user(name.lower()))
        services.set_registration_status(
            services.register(tournament, player=player), Registration.Status.CHECKED_IN
        )
    round_ = services.publish_round(services.generate_round(tournament, None), None)
    table = round_.tables.get()
    assert [s.bot for s in table.seats.order_by("position")] == ["", "", "", "greedy"]
    assert Game.objects.get(pk=table.game_id).seats[3]["bot"] == "greedy"
    checks_out(tournament)
