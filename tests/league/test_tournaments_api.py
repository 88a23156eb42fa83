"""The league API end to end: a director creates a tournament, registers and checks in
players, generates, edits and publishes rounds; the rounds complete as their games
finish; every round regenerates to the same tables."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.models import LeagueWrite, Round, Tournament
from league.services import regenerate
from tests.support.games import client_for
from tests.support.league import ELEVEN, create_tournament, record_to_the_end, register_and_check_in, write

pytestmark = pytest.mark.django_db


def test_done_when_eleven_players_at_three_to_four(
    staff: dict[str, Any], eager_celery: None, django_capture_on_commit_callbacks: Any
) -> None:
    director = client_for(staff["director"])
    scorekeeper = client_for(staff["scorekeeper"])
    tournament = create_tournament(director, staff["club"].pk)
    assert tournament["status"] == "registration"
    assert tournament["options"]["hands"] == 1 and "knocker_penalty" in tournament["options"]  # resolved
    t = tournament["id"]
    players = register_and_check_in(director, t, ELEVEN)
    assert len(players) == 11

    for number in (1, 2):
        response = write(director, "POST", f"/api/v1/tournaments/{t}/rounds")
        assert response.status_code == 201, response.json()
        round_ = response.json()
        assert (round_["number"], round_["status"], round_["method"]) == (number, "draft", "balanced")
        assert sorted(len(table["seats"]) for table in round_["tables"]) == [3, 4, 4]
        seated = sorted(seat["player"] for table in round_["tables"] for seat in table["seats"])
        assert seated == sorted(players) and round_["byes"] == []
        assert all(seat["name"] for table in round_["tables"] for seat in table["seats"])

        # an edit: swap two players of different tables; publishing then needs a reason
        a = round_["tables"][0]["seats"][0]["player"]
        b = round_["tables"][1]["seats"][0]["player"]
        edited = write(director, "PATCH", f"/api/v1/tournaments/{t}/rounds/{number}", {"swap": [a, b]})
        assert edited.status_code == 200, edited.json()
        assert edited.json()["edited"] is True
        assert edited.json()["tables"][0]["seats"][0]["player"] == b
        assert "edited by the director" in edited.json()["tables"][0]["notes"]
        refused = write(director, "POST", f"/api/v1/tournaments/{t}/rounds/{number}/publish")
        assert (refused.status_code, refused.json()["code"]) == (400, "edit_reason_required")

        published = write(
            director,
            "POST",
            f"/api/v1/tournaments/{t}/rounds/{number}/publish",
            {"edit_reason": "Ann and Bo came together"},
        )
        assert published.status_code == 201, published.json()
        body = published.json()
        assert body["status"] == "published" and body["edit_reason"] == "Ann and Bo came together"
        games = [table["game"] for table in body["tables"]]
        assert all(isinstance(g, int) for g in games)
        assert Tournament.objects.get(pk=t).status == "running"

        # the next round waits for this one
        early = write(director, "POST", f"/api/v1/tournaments/{t}/rounds")
        assert (early.status_code, early.json()["code"]) == (409, "round_not_complete")

        # the club's scorekeeper records the games; the round completes with the last
        for n, game in enumerate(games):
            with django_capture_on_commit_callbacks(execute=True):
                record_to_the_end(scorekeeper, game)
            state = client_for(None).get(f"/api/v1/tournaments/{t}/rounds/{number}").json()["status"]
            assert state == ("complete" if n == len(games) - 1 else "published")

    # round 3 as a draft, visible to staff only
    assert write(director, "POST", f"/api/v1/tournaments/{t}/rounds").status_code == 201
    assert client_for(None).get(f"/api/v1/tournaments/{t}/rounds/3").status_code == 404
    assert client_for(staff["scorekeeper"]).get(f"/api/v1/tournaments/{t}/rounds/3").status_code == 200
    listed = client_for(None).get(f"/api/v1/tournaments/{t}/rounds").json()
    assert listed == [{"number": 1, "status": "complete"}, {"number": 2, "status": "complete"}]

    # every round regenerates to the same tables, from the API's stored inputs alone
    for round_row in Round.objects.filter(tournament_id=t):
        assert regenerate(round_row).same
        call_command("regenerate_round", str(t), str(round_row.number), "--check")
    # a round 2 seated knowing round 1: the history is in its request
    assert len(Round.objects.get(tournament_id=t, number=2).request["history"]) == 1


def test_a_retried_write_is_answered_from_the_original(staff: dict[str, Any]) -> None:
    director = client_for(staff["director"])
    url = f"/api/v1/clubs/{staff['club'].pk}/players"
    first = write(director, "POST", url, {"name": "Zed"}, key="same")
    again = write(director, "POST", url, {"name": "Zed"}, key="same")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert staff["club"].players.filter(name="Zed").count() == 1
    other = write(director, "POST", url, {"name": "Yan"}, key="same")
    assert (other.status_code, other.json()["code"]) == (422, "idempotency_key_reused")
    assert LeagueWrite.objects.count() == 1
    # a second plain write of the same player is a conflict, with a stable code
    duplicate = write(director, "POST", url, {"name": "Zed"})
    assert (duplicate.status_code, duplicate.json()["code"]) == (409, "player_exists")


def test_a_bad_idempotency_key_is_refused(staff: dict[str, Any]) -> None:
    director = client_for(staff["director"])
    url = f"/api/v1/clubs/{staff['club'].pk}/players"
    response = write(director, "POST", url, {"name": "Zed"}, key="no spaces allowed")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_idempotency_key")
    assert not staff["club"].players.exists()


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"table_size": {"min": 3, "max": 6}}, "invalid_table_size"),
        ({"table_size": {"min": 4, "max": 3}}, "invalid_table_size"),
        ({"preset": "no-such-game"}, "invalid_ruleset"),
        ({"options": {"no_such_option": 1}}, "invalid_ruleset"),
        ({"seating": "lottery"}, "invalid_request"),
        ({"bots": True}, "invalid_bots"),
        ({"mode": "digital", "bots": True, "bot": "cheater"}, "unknown_bot"),
        ({"rounds": None}, "invalid_request"),
        ({"seating_params": {"swap_budget": "lots"}}, "invalid_request"),
        ({"seating_params": {"colour": 1}}, "invalid_request"),
    ],
)
def test_a_bad_tournament_is_refused_with_a_code(
    staff: dict[str, Any], change: dict[str, Any], code: str
) -> None:
    director = client_for(staff["director"])
    body = {
        "name": "Cup",
        "preset": "knock-rummy",
        "mode": "physical",
        "table_size": {"min": 3, "max": 4},
        "seating": "balanced",
        "rounds": 2,
        **change,
    }
    response = write(director, "POST", f"/api/v1/clubs/{staff['club'].pk}/tournaments", body)
    assert (response.status_code, response.json()["code"]) == (400, code), response.json()
    assert not Tournament.objects.exists()


def test_the_seed_is_drawn_when_absent_and_the_slug_is_unique(staff: dict[str, Any]) -> None:
    director = client_for(staff["director"])
    first = create_tournament(director, staff["club"].pk, seed=None)
    second = create_tournament(director, staff["club"].pk, seed=None)
    assert len(first["seed"]) == 16 and first["seed"] != second["seed"]
    assert (first["slug"], second["slug"]) == ("spring-cup", "spring-cup-2")


def test_settings_freeze_once_a_round_exists(staff: dict[str, Any]) -> None:
    director = client_for(staff["director"])
    t = create_tournament(director, staff["club"].pk)["id"]
    register_and_check_in(director, t, ELEVEN[:6])
    renamed = write(director, "PATCH", f"/api/v1/tournaments/{t}", {"table_size": {"min": 2, "max": 3}})
    assert renamed.status_code == 200 and renamed.json()["table_size"] == {"min": 2, "max": 3}
    assert write(director, "POST", f"/api/v1/tournaments/{t}/rounds").status_code == 201
    frozen = write(director, "PATCH", f"/api/v1/tournaments/{t}", {"seating": "swiss"})
    assert (frozen.status_code, frozen.json()["code"]) == (409, "tournament_started")
    assert write(director, "PATCH", f"/api/v1/tournaments/{t}", {"name": "Autumn"}).json()["name"] == "Autumn"
    open_ended = write(director, "PATCH", f"/api/v1/tournaments/{t}", {"rounds": None})
    assert (open_ended.status_code, open_ended.json()["code"]) == (400, "invalid_request")
    below = write(director, "PATCH", f"/api/v1/tournaments/{t}", {"rounds": 1})
    assert below.status_code == 200 and below.json()["rounds"] == 1  # one round exists: 1 is allowed


def test_registration_rules(staff: dict[str, Any]) -> None:
    director = client_for(staff["director"])
    t = create_tournament(director, staff["club"].pk)["id"]
    url = f"/api/v1/tournaments/{t}/registrations"
    ann = write(director, "POST", url, {"name": "Ann"}).json()["player"]
    again = write(director, "POST", url, {"player": ann})
    assert (again.status_code, again.json()["code"]) == (409, "already_registered")
    both = write(director, "POST", url, {"player": ann, "name": "Ann"})
    assert (both.status_code, both.json()["code"]) == (400, "invalid_request")
    foreign = staff["other"].players.create(name="Olga")
    missing = write(director, "POST", url, {"player": foreign.pk})
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    unknown = write(director, "PATCH", f"{url}/{foreign.pk}", {"status": "checked_in"})
    assert unknown.status_code == 404
    bad = write(director, "PATCH", f"{url}/{ann}", {"status": "asleep"})
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid_request")
    dropped = write(director, "PATCH", f"{url}/{ann}", {"status": "dropped"})
    assert dropped.json()["status"] == "dropped" and dropped.json()["dropped_after"] == 0
    listed = client_for(None).get(url).json()
    assert [r["name"] for r in listed] == ["Ann"]


def test_too_few_players_and_the_rounds_limit(staff: dict[str, Any]) -> None:
    director = client_for(staff["director"])
    t = create_tournament(director, staff["club"].pk, rounds=1)["id"]
    register_and_check_in(director, t, ELEVEN[:2])
    # two players at tables of 3-4: nobody can sit; both have a bye
    first = write(director, "POST", f"/api/v1/tournaments/{t}/rounds").json()
    assert (
        first["tables"] == [] and sorted(first["byes"]) == sorted(first["byes"]) and len(first["byes"]) == 2
    )
    published = write(director, "POST", f"/api/v1/tournaments/{t}/rounds/1/publish").json()
    assert published["status"] == "complete"  # no table to wait for
    assert Tournament.objects.get(pk=t).status == "finished"
    beyond = write(director, "POST", f"/api/v1/tournaments/{t}/rounds")
    assert beyond.status_code == 409


def test_forcing_the_next_round_records_the_reason(staff: dict[str, Any]) -> None:
    director = client_for(staff["director"])
    t = create_tournament(director, staff["club"].pk)["id"]
    register_and_check_in(director, t, ELEVEN[:8])
    write(director, "POST", f"/api/v1/tournaments/{t}/rounds")
    in_draft = write(director, "POST", f"/api/v1/tournaments/{t}/rounds")
    assert (in_draft.status_code, in_draft.json()["code"]) == (409, "round_in_draft")
    write(director, "POST", f"/api/v1/tournaments/{t}/rounds/1/publish")
    forced = write(director, "POST", f"/api/v1/tournaments/{t}/rounds", {"force_reason": "table 2 is slow"})
    assert forced.status_code == 201, forced.json()
    assert "generated before round 1 was complete: table 2 is slow" in forced.json()["notes"]


def test_moves_and_bad_edits(staff: dict[str, Any]) -> None:
    director = client_for(staff["director"])
    t = create_tournament(director, staff["club"].pk)["id"]
    ids = register_and_check_in(director, t, ELEVEN[:8])
    url = f"/api/v1/tournaments/{t}/rounds/1"
    round_ = write(director, "POST", f"/api/v1/tournaments/{t}/rounds").json()
    mover = round_["tables"][0]["seats"][0]["player"]
    # 8 at 3-4 is 4+4: moving one makes 3+5, beyond the bounds
    too_big = write(director, "PATCH", url, {"move": {"player": mover, "table": 2}})
    assert (too_big.status_code, too_big.json()["code"]) == (400, "invalid_seating")
    unknown = write(director, "PATCH", url, {"swap": [mover, 999999]})
    assert unknown.status_code == 400
    # reorder a table's seats: still a departure, needing a reason at publish
    tables = [[s["player"] for s in table["seats"]] for table in round_["tables"]]
    tables[0].reverse()
    reordered = write(director, "PATCH", url, {"tables": tables, "edit_reason": "Ann deals first"})
    assert reordered.status_code == 200 and reordered.json()["edited"]
    assert [s["player"] for s in reordered.json()["tables"][0]["seats"]] == tables[0]
    # back to the generated order: no reason needed any more
    tables[0].reverse()
    back = write(director, "PATCH", url, {"tables": tables, "edit_reason": ""})
    assert back.json()["edited"] is False
    missing = write(director, "PATCH", url, {"tables": tables[:1]})
    assert missing.status_code == 400 and "neither seated" in missing.json()["message"]
    published = write(director, "POST", f"{url}/publish")
    assert published.status_code == 201
    late = write(director, "PATCH", url, {"swap": ids[:2]})
    assert (late.status_code, late.json()["code"]) == (409, "round_not_draft")


def test_closing_a_tournament(staff: dict[str, Any]) -> None:
    director = client_for(staff["director"])
    t = create_tournament(director, staff["club"].pk)["id"]
    closed = write(director, "PATCH", f"/api/v1/tournaments/{t}", {"status": "finished"})
    assert closed.json()["status"] == "finished"
    after = write(director, "POST", f"/api/v1/tournaments/{t}/registrations", {"name": "Late"})
    assert (after.status_code, after.json()["code"]) == (409, "tournament_finished")


def test_a_bye_given_by_the_director_is_noted_and_taken_back(staff: dict[str, Any]) -> None:
    director = client_for(staff["director"])
    t = create_tournament(director, staff["club"].pk)["id"]
    register_and_check_in(director, t, ELEVEN[:7])
    url = f"/api/v1/tournaments/{t}/rounds/1"
    round_ = write(director, "POST", f"/api/v1/tournaments/{t}/rounds").json()
    assert sorted(len(table["seats"]) for table in round_["tables"]) == [3, 4]
    big = next(table for table in round_["tables"] if len(table["seats"]) == 4)
    player, name = big["seats"][1]["player"], big["seats"][1]["name"]
    out = write(director, "PATCH", url, {"move": {"player": player, "table": None}}).json()
    assert out["byes"] == [player]
    assert f"bye: {name} (given by the director)" in out["notes"]
    back = write(director, "PATCH", url, {"move": {"player": player, "table": big["number"], "position": 1}})
    body = back.json()
    assert body["byes"] == [] and not any(n.startswith("bye: ") for n in body["notes"])
    assert body["edited"] is False  # back where the method put them
    # the tables of a balanced tournament are the method's: a manual seating is refused
    other = create_tournament(director, staff["club"].pk, name="Other")["id"]
    manual = write(director, "POST", f"/api/v1/tournaments/{other}/rounds", {"tables": [[1, 2, 3]]})
    assert (manual.status_code, manual.json()["code"]) == (400, "invalid_request")
    assert not Round.objects.filter(tournament_id=other).exists()


def test_the_create_body_sets_scoring_and_tiebreaks_checked_by_the_standings(
    staff: dict[str, Any],
) -> None:
    client, club = client_for(staff["director"]), staff["club"]
    url = f"/api/v1/clubs/{club.pk}/tournaments"
    body = {
        "name": "Placement night",
        "preset": "knock-rummy",
        "table_size": {"min": 3, "max": 4},
        "rounds": 3,
        "scoring": "placement",
        "placement_points": [3, 2, 1, 0],
        "tiebreaks": ["wins", "buchholz", "random"],
    }
    created = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="scoring-1")
    assert created.status_code == 201, created.json()
    data = created.json()
    assert data["scoring"] == "placement" and data["placement_points"] == [3, 2, 1, 0]
    assert data["tiebreaks"] == ["wins", "buchholz", "random"]
    # none named: the preset's defaults are shown
    plain = client.post(url, {**body, "name": "Plain", "scoring": "points", "tiebreaks": []}, format="json")
    assert plain.status_code == 201 and plain.json()["tiebreaks"]
    refused = client.post(url, {**body, "name": "Bad", "tiebreaks": ["wins", "wins"]}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "duplicate_tiebreak"
    changed = client.patch(
        f"/api/v1/tournaments/{data['id']}",
        {"tiebreaks": ["played"]},
        format="json",
        HTTP_IDEMPOTENCY_KEY="s-2",
    )
    assert changed.status_code == 200 and changed.json()["tiebreaks"] == ["played"]


def test_the_club_list_counts_each_tournaments_rounds_in_one_query(staff: dict[str, Any]) -> None:
    director, club = client_for(staff["director"]), staff["club"]
    url = f"/api/v1/clubs/{club.pk}/tournaments"
    first = create_tournament(director, club.pk)["id"]
    register_and_check_in(director, first, ELEVEN)
    assert write(director, "POST", f"/api/v1/tournaments/{first}/rounds").status_code == 201
    with CaptureQueriesContext(connection) as one:
        listed = director.get(url)
    assert [t["rounds_generated"] for t in listed.json()] == [1]
    create_tournament(director, club.pk, name="Second")
    create_tournament(director, club.pk, name="Third")
    with CaptureQueriesContext(connection) as three:
        listed = director.get(url)
    assert sorted(t["rounds_generated"] for t in listed.json()) == [0, 0, 1]
    assert len(three) == len(one)
    detail = director.get(f"/api/v1/tournaments/{first}").json()
    assert detail["rounds_generated"] == 1
