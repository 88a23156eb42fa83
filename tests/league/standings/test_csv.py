"""The standings CSV for spreadsheets (docs/standings.md): decimal numbers, a status
column, no 20-digit draw; read back by Python's csv module, every number column is a
number. The decimal-comma form is ``;``-separated for French-language spreadsheets."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from league import projection
from league.models import Club, Registration
from tests.support.games import client_for
from tests.support.tournaments import add_round, make_tournament, open_game, players, record_hand

pytestmark = pytest.mark.django_db

NUMBER_COLUMNS = ("rank", "player_id", "points", "played", "byes", "abandoned", "replaced", "in_play")


@pytest.fixture
def cup(owner: Any) -> dict[str, Any]:
    """Ann knocks with 10 against three 4s: the three share her 16 — 16/3 each."""
    club = Club.objects.create(name="Corner club", slug="corner")
    ann, bo, cy, di = players(club, "Ann", "Bo", "Cy", "Di")
    tournament = make_tournament(club, tiebreaks=["average_placement", "buchholz", "random"])
    table = add_round(tournament, 1, [[ann, bo, cy, di]]).tables.get()
    record_hand(open_game(table, owner), owner, 0, [10, 4, 4, 4])
    statuses = {ann: "checked_in", bo: "dropped", cy: "withdrawn", di: "registered"}
    for player, status in statuses.items():
        Registration.objects.create(
            tournament=tournament,
            player=player,
            status=status,
            dropped_after=1 if status == "dropped" else None,
        )
    projection.refresh(tournament.pk)
    return {"t": tournament}


def rows(content: bytes, delimiter: str = ",") -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(content.decode()), delimiter=delimiter))


def test_every_number_column_reads_as_a_number(cup: dict[str, Any]) -> None:
    url = f"/api/v1/tournaments/{cup['t'].pk}/standings"
    response = client_for(None).get(f"{url}.csv")
    assert response.status_code == 200
    read = rows(response.content)
    assert list(read[0]) == [
        "rank", "player_id", "player", "status", "points", "played", "byes", "abandoned", "replaced",
        "in_play", "qualified", "rating_ordinal", "average_placement", "buchholz",
    ]  # fmt: skip
    numbers = [*NUMBER_COLUMNS, "average_placement", "buchholz"]
    for row in read:
        for column in numbers:
            float(row[column])  # raises on "16/3", "5⅓" or a date-like "3/2"
    points = {row["player"]: row["points"] for row in read}
    assert points == {"Bo": "5.33", "Cy": "5.33", "Di": "5.33", "Ann": "-16"}
    # the exact values stay in the JSON
    exact = {r["player"]["name"]: r["points"] for r in client_for(None).get(url).json()["rows"]}
    assert exact["Bo"] == "16/3" and "random" in client_for(None).get(url).json()["rows"][0]["tiebreaks"]


def test_the_status_column_says_where_each_player_stands(cup: dict[str, Any]) -> None:
    read = rows(client_for(None).get(f"/api/v1/tournaments/{cup['t'].pk}/standings.csv").content)
    assert {row["player"]: row["status"] for row in read} == {
        "Ann": "checked in",
        "Bo": "dropped after round 1",
        "Cy": "withdrawn",
        "Di": "registered",
    }


def test_the_decimal_comma_form_is_semicolon_separated(cup: dict[str, Any]) -> None:
    url = f"/api/v1/tournaments/{cup['t'].pk}/standings.csv"
    response = client_for(None).get(url, {"decimal": "comma", "after_round": "1"})
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('-standings-decimal-comma.csv"')
    read = rows(response.content, delimiter=";")
    assert {row["player"]: row["points"] for row in read}["Bo"] == "5,33"
    for row in read:
        for column in NUMBER_COLUMNS:
            float(row[column].replace(",", "."))
    refused = client_for(None).get(url, {"decimal": "dot"})
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_decimal"
    # the JSON takes no such parameter
    json_refused = client_for(None).get(url.removesuffix(".csv"), {"decimal": "comma"})
    assert json_refused.json()["code"] == "unknown_parameter"
