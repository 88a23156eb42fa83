"""The demo's tournaments: a knock-rummy cup with two rounds played and round 3 in
draft, a gin Swiss; seeding twice changes nothing; every round regenerates the same."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.core.management import call_command

from games.models import Game
from league.models import Round, Tournament
from league.services import regenerate

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_hasher(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_the_demo_tournaments(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.monotonic()
    call_command("seed_demo", password="demo-pass-123")
    assert time.monotonic() - started < 20
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
    assert "Riverside Autumn Cup" in capsys.readouterr().out

    counts = (Round.objects.count(), Game.objects.count())
    call_command("seed_demo", password="demo-pass-123")
    assert (Round.objects.count(), Game.objects.count()) == counts
    for round_ in Round.objects.all():
        assert regenerate(round_).same
