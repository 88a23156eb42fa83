"""The game API names what is due next (engine.due_entries) beside the legal commands."""

from __future__ import annotations

from typing import Any

import pytest

from games.services import SeatSpec
from league.models import Club, ClubGame, Membership
from tests.support.games import client_for, new_game, play

pytestmark = pytest.mark.django_db


def test_a_recorder_is_told_what_is_due_where_no_command_is_listed(owner: Any, ann: Any, bob: Any) -> None:
    created = new_game(owner, [SeatSpec("Ann"), SeatSpec("Bo"), SeatSpec("Cy")], mode="physical")
    game_id = created.game.pk
    club = Club.objects.create(name="C", slug="c")
    ClubGame.objects.create(club=club, game=created.game)
    Membership.objects.create(club=club, user=ann, role=Membership.Role.SCOREKEEPER)

    body = client_for(ann).get(f"/api/v1/games/{game_id}").json()
    assert body["viewer"]["role"] == "scorekeeper"
    assert body["view"]["legal_commands"] == []
    due = body["view"]["due"]
    assert [d["kind"] for d in due] == ["deal", "hand_result"]
    assert due[0] == {
        "kind": "deal",
        "command": "DealHand",
        "by": "recorder",
        "hand_number": 1,
        "seats": [2, 0, 1],
        "dealer": 1,
        "cards_each": 7,
    }

    play(game_id, owner, {"type": "DealHand", "upcard": "7H"})
    play(game_id, owner, {"type": "DrawFromDiscard", "seat": 2})
    play(game_id, owner, {"type": "Discard", "seat": 2, "card": "QS"})
    version = play(game_id, owner, {"type": "DrawFromStock", "seat": 0}).version
    answer = client_for(ann).post(
        f"/api/v1/games/{game_id}/commands",
        {"expected_version": version, "command": {"type": "Knock", "seat": 0, "card": None}},
        format="json",
    )
    assert answer.status_code == 201
    recorder_due = answer.json()["state"]["view"]["due"]
    assert [d["kind"] for d in recorder_due] == ["reveal", "hand_result"]
    assert recorder_due[0]["seats"] == [2, 0, 1] and recorder_due[0]["knocker"] == 0
    assert recorder_due[0]["known"] == {"0": [], "1": [], "2": ["7H"]}
    # someone who neither records nor plays learns who reveals, not what a hand holds
    public = client_for(bob).get(f"/api/v1/games/{game_id}").json()["view"]["due"]
    assert public[0]["known"] == {} and public[0]["sizes"] == {"0": 7, "1": 7, "2": 7}
