"""A director's correction of an earlier hand (``CorrectHand``) through the game API, and
what follows from it in the league: who may send it, the standings and their changes
list, the ratings, the outbox, and the finished results the projections read."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from games.models import Game, OutboxMessage
from games.selectors import final_results
from games.services import SeatSpec, run_bot_turns
from league import projection, ratings
from league.models import ClubGame, RatingEntry
from tests.support.games import client_for, new_game, play
from tests.support.league import write
from tests.support.rated import club_with, open_club_game, record, record_hand
from tests.support.tournaments import add_round, make_tournament, players

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "player", "scorekeeper", "director", "foreign")
# Only the club's director; a scorekeeper records every other entry but not this one.
EXPECTED = {
    "anonymous": (401, "not_authenticated"),
    "outsider": (403, "permission_denied"),
    "player": (403, "permission_denied"),
    "scorekeeper": (403, "director_only"),
    "director": (201, None),
    "foreign": (403, "permission_denied"),
}


def correction(number: int = 1, knocker: int = 1, **deadwood: int) -> dict[str, Any]:
    counts = {key.lstrip("s"): value for key, value in deadwood.items()} or {"0": 30, "1": 2}
    return {"type": "CorrectHand", "hand_number": number, "knocker": knocker, "deadwood": counts,
            "reason": "Bo knocked, not Ann"}  # fmt: skip


def send(client: Any, game: Game, command: dict[str, Any]) -> Any:
    current = Game.objects.get(pk=game.pk)
    body = {"expected_version": current.version, "command": command}
    return write(client, "POST", f"/api/v1/games/{game.pk}/commands", body)


@pytest.mark.parametrize("role", ROLES)
def test_only_the_clubs_director_corrects_a_hand(staff: dict[str, Any], role: str) -> None:
    game = open_club_game(staff["club"], ["Ann", "Bo"])
    record_hand(game, [2, 30])  # Ann knocks and wins: the game (one hand) is over
    before = Game.objects.get(pk=game.pk).version
    client = client_for(None if role == "anonymous" else staff[role])
    response = send(client, game, correction())
    status, code = EXPECTED[role]
    assert response.status_code == status, response.json()
    after = Game.objects.get(pk=game.pk)
    if code is not None:
        assert response.json()["code"] == code
        assert after.version == before
        return
    events = response.json()["events"]
    assert [e["type"] for e in events] == ["HandCorrected", "HandScored", "GameFinished"]
    # the corrected hand is over: its cards and counts are public, shown whole
    assert events[0]["redacted"] is False and events[0]["data"]["deadwood"] == {"0": 30, "1": 2}
    assert events[0]["data"]["was_knocker"] == 0 and events[0]["actor"] == staff["director"].pk
    assert after.status == "finished" and after.version == before + 3


def test_a_scorekeeper_still_undoes_the_last_entry(staff: dict[str, Any]) -> None:
    game = open_club_game(staff["club"], ["Ann", "Bo"], hands=2)
    record_hand(game, [2, 30])
    response = send(client_for(staff["scorekeeper"]), game, {"type": "Retract", "count": 2, "reason": "oops"})
    assert response.status_code == 201, response.json()


def test_a_game_of_no_club_is_corrected_by_its_owner(owner: Any, ann: Any) -> None:
    game = new_game(owner, [SeatSpec(name="Ann"), SeatSpec(name="Bo")], mode="physical", hands=1).game
    play(game.pk, owner, {"type": "RecordHandResult", "knocker": 0, "deadwood": {"0": 2, "1": 30}})
    refused = send(client_for(ann), game, correction())
    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
    done = send(client_for(owner), game, correction())
    assert done.status_code == 201, done.json()
    again = send(client_for(owner), game, correction())  # the same result again: nothing to correct
    assert again.status_code == 400 and again.json()["code"] == "correction_unchanged"


def test_a_digital_game_is_adjusted_once_over_never_corrected(staff: dict[str, Any]) -> None:
    director = staff["director"]
    game = new_game(director, [SeatSpec(bot="greedy"), SeatSpec(bot="greedy")], hands=1).game
    ClubGame.objects.create(club=staff["club"], game=game)
    while game.status != "finished":
        assert run_bot_turns(game_id=game.pk, expected_version=game.version) > 0
        game.refresh_from_db()
    assert game.status == "finished"
    refused = send(client_for(director), game, correction(knocker=0, s0=0, s1=10))
    assert refused.status_code == 400 and refused.json()["code"] == "wrong_mode"
    adjusted = send(client_for(director), game, {"type": "AdjustScore", "seat": 1, "points": "-5",
                                                 "reason": "slow play"})  # fmt: skip
    assert adjusted.status_code == 201, adjusted.json()
    assert [e["type"] for e in adjusted.json()["events"]] == ["ScoreAdjusted", "GameFinished"]
    assert Game.objects.get(pk=game.pk).status == "finished"


# --- what the league makes of it ----------------------------------------------------------


def test_final_results_follow_a_reopened_and_an_adjusted_game() -> None:
    club, _ = club_with(["Ann", "Bea"])
    reopened = open_club_game(club, ["Ann", "Bea"], preset="knock-rummy-hoyle")
    record_hand(reopened, [0, 30])  # Ann's rum: 55
    record_hand(reopened, [0, 30])  # 110: over
    adjusted = open_club_game(club, ["Ann", "Bea"])
    record_hand(adjusted, [2, 30])
    assert {f.game_id for f in final_results([reopened.pk, adjusted.pk])} == {reopened.pk, adjusted.pk}
    record(reopened, {**correction(2, knocker=0, s0=20, s1=30), "reason": "counted wrong"})
    assert Game.objects.get(pk=reopened.pk).status == "awaiting_deal"
    record(adjusted, {"type": "AdjustScore", "seat": 0, "points": "-60", "reason": "penalty"})
    finals = final_results([reopened.pk, adjusted.pk])
    assert [(f.game_id, f.places) for f in finals] == [(adjusted.pk, (2, 1))]
    latest = Game.objects.get(pk=adjusted.pk).events.filter(type="GameFinished").order_by("-seq").first()
    assert latest is not None and finals[0].position == latest.position


def test_the_ratings_follow_a_correction_that_changes_places_or_reopens(staff: dict[str, Any]) -> None:
    club, _ = club_with(["Ann", "Bea"], slug="rated")
    game = open_club_game(club, ["Ann", "Bea"], hands=2)
    record_hand(game, [2, 30])
    record_hand(game, [5, 20])  # Ann wins both hands
    assert ratings.refresh_game(game.pk) == "rated"
    assert dict(RatingEntry.objects.filter(game=game).values_list("player__name", "place")) == {
        "Ann": 1,
        "Bea": 2,
    }
    record(game, {**correction(1, knocker=1, s0=60, s1=0), "reason": "Bea had gin rummy"})
    assert ratings.refresh_game(game.pk) == "replayed"
    assert dict(RatingEntry.objects.filter(game=game).values_list("player__name", "place")) == {
        "Ann": 2,
        "Bea": 1,
    }
    incremental = list(RatingEntry.objects.order_by("pk").values_list("player_id", "place", "mu", "sigma"))
    call_command("rebuild_ratings", "rated", stdout=StringIO())
    assert (
        list(RatingEntry.objects.order_by("pk").values_list("player_id", "place", "mu", "sigma"))
        == incremental
    )


def test_the_outbox_queues_the_projections_for_a_correction_that_reopens(
    staff: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    game = open_club_game(staff["club"], ["Ann", "Bo"], preset="knock-rummy-hoyle")
    record_hand(game, [0, 30])
    record_hand(game, [0, 30])
    OutboxMessage.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=False):
        record(game, {**correction(2, knocker=0, s0=20, s1=30), "reason": "counted wrong"})
    topics = sorted(OutboxMessage.objects.values_list("topic", flat=True))
    assert topics == ["league.tasks.refresh_ratings", "league.tasks.refresh_standings"]


def test_the_standings_and_their_changes_list_follow_a_correction(owner: Any) -> None:
    club, _ = club_with([], slug="corner")
    ann, bo, cy = players(club, "Ann", "Bo", "Cy")
    tournament = make_tournament(club, scoring="points")
    table = add_round(tournament, 1, [[ann, bo, cy]]).tables.get()
    game = new_game(owner, [SeatSpec(name=n) for n in ("Ann", "Bo", "Cy")], mode="physical", hands=3).game
    table.game = game
    table.save(update_fields=["game"])
    for knocker, counts in ((0, [5, 10, 20]), (2, [8, 12, 3]), (0, [2, 9, 6])):
        play(game.pk, owner, {"type": "RecordHandResult", "knocker": knocker,
                              "deadwood": {str(s): c for s, c in enumerate(counts)}})  # fmt: skip
    projection.refresh(tournament.pk)
    before = {r["player"]["name"]: r["rank"] for r in projection.read_standings(tournament)["rows"]}
    assert before == {"Ann": 1, "Cy": 2, "Bo": 3}
    fixed = {"0": 5, "1": 3, "2": 20}
    play(game.pk, owner, {"type": "CorrectHand", "hand_number": 1, "knocker": 1, "deadwood": fixed,
                          "reason": "Bo knocked, not Ann"})  # fmt: skip
    projection.refresh(tournament.pk)
    after = {
        r["player"]["name"]: (r["points"], r["rank"]) for r in projection.read_standings(tournament)["rows"]
    }
    assert after == {"Ann": ("4", 1), "Bo": ("3", 2), "Cy": ("-7", 3)}
    changes = projection.standings_changes(tournament)
    assert len(changes) == 1
    change = changes[0]
    assert (change["game"], change["hand"], change["type"], change["reason"]) == (
        game.pk,
        1,
        "HandCorrected",
        "Bo knocked, not Ann",
    )
    assert change["by"] == {"id": owner.pk, "username": owner.username}
    moved = {
        r["player"]["name"]: (r["points_before"], r["points_after"]) for r in change["rows"] if r["changed"]
    }
    assert moved == {"Ann": ("26", "4"), "Bo": ("-21", "3"), "Cy": ("-5", "-7")}
    rebuilt = projection.rebuild(tournament.pk)
    assert rebuilt.position > 0
    assert projection.standings_changes(tournament) == changes


def test_a_corrected_hands_cards_are_public_the_next_hands_stay_hidden(staff: dict[str, Any]) -> None:
    """The replacement's final hands belong to a hand that is over: shown to everyone, like
    its original reveal. The next hand's cards the scorekeeper entered are not."""
    game = open_club_game(staff["club"], ["Ann", "Bo"], hands=3)
    record_hand(game, [2, 30])
    hands = {"0": "AS 2S 3S 4S 5S 6S 7S 8S 9S KD", "1": "AH 2H 3H 4H 5H 6H 7H 8H 9H KC"}
    command = {"type": "CorrectHand", "hand_number": 1, "knocker": 1, "hands": hands, "reason": "the hands"}
    assert send(client_for(staff["director"]), game, command).status_code == 201
    record(game, {"type": "DealHand", "upcard": "QD", "hands": {"0": "AC 2C 3C 4C 5C 6C 7C 8C 9C TC"}})
    events = client_for(None).get(f"/api/v1/games/{game.pk}/events").json()["events"]
    corrected = next(e for e in events if e["type"] == "HandCorrected")
    assert corrected["redacted"] is False and corrected["data"]["hands"]["1"][0] == "AH"
    dealt = [e for e in events if e["type"] == "HandDealt"][-1]
    assert dealt["redacted"] is True and dealt["data"]["hands"] == {}
    seated = client_for(staff["director"]).get(f"/api/v1/games/{game.pk}").json()
    assert "9C" not in str(seated["view"])
