"""The club's people (league.people): players, invitations, roles, logins linked to
player records, a table's scorekeeper; and what a player and a scorekeeper read of the
rounds being played (league.tables.seats_now, tables_to_record). Every refusal has its
code, and writes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from league import access, codes, people
from league.models import Invitation, Membership, Player, Round, TableScorekeeper, Tournament
from league.services import LeagueError
from league.tables import seats_now, tables_to_record
from tests.support.tournaments import add_round, make_tournament, players

pytestmark = pytest.mark.django_db
User = get_user_model()


def refused(code: str) -> Any:
    """``pytest.raises`` for a LeagueError, checked for its code once it is raised."""
    return pytest.raises(LeagueError, check=lambda exc: exc.code == code)


def new_login(username: str) -> Any:
    user = User(username=username)
    user.set_password("a-long-pass-123")
    return user


# --- players ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["alice", "ALICE ", "Alicé", "  alice  "])
def test_a_player_whose_name_reads_the_same_is_refused(staff: dict[str, Any], name: str) -> None:
    people.add_player(staff["club"], "Alice")
    with refused("player_exists"):
        people.add_player(staff["club"], name)
    assert Player.objects.filter(club=staff["club"]).count() == 1


def test_another_club_may_have_a_player_of_the_same_name(staff: dict[str, Any]) -> None:
    people.add_player(staff["club"], "Alice")
    assert people.add_player(staff["other"], "alice").name == "alice"


# --- invitations --------------------------------------------------------------------------


def test_a_new_login_claims_a_player_record_through_an_invitation(staff: dict[str, Any]) -> None:
    club = staff["club"]
    ann = people.add_player(club, "Ann")
    issued = people.invite(club, role="player", player=ann, by=staff["director"])
    invitation = Invitation.objects.get()
    # the code is not stored: only its digest
    assert len(issued.code) == people.INVITATION_CODE_LENGTH
    stored = [str(v) for v in Invitation.objects.values().get().values()]
    assert issued.code not in " ".join(stored) and invitation.code_digest == codes.digest(issued.code)
    assert people.invitation_state(invitation) == "open"

    typed = codes.grouped(issued.code).lower()  # as typed from paper: any case, with dashes
    claimed = people.claim(typed, new_login("ann"))
    user = User.objects.get(username="ann")
    assert claimed.claimed_by == user and people.invitation_state(Invitation.objects.get()) == "used"
    assert Player.objects.get(pk=ann.pk).user == user
    assert access.roles_in(user, club.pk) == {"player"}
    # single use
    with refused("invitation_used"):
        people.claim(issued.code, new_login("ann2"))
    assert not User.objects.filter(username="ann2").exists()


def test_a_scorekeepers_invitation_needs_no_player_record(staff: dict[str, Any]) -> None:
    issued = people.invite(staff["club"], role="scorekeeper", player=None, by=staff["director"])
    people.claim(issued.code, new_login("sam"))
    assert access.roles_in(User.objects.get(username="sam"), staff["club"].pk) == {"scorekeeper"}


def test_a_signed_in_login_takes_an_invitation_with_itself(staff: dict[str, Any]) -> None:
    club = staff["club"]
    bo = people.add_player(club, "Bo")
    issued = people.invite(club, role="player", player=bo, by=staff["director"])
    people.claim(issued.code, staff["outsider"])
    assert Player.objects.get(pk=bo.pk).user == staff["outsider"]
    assert "player" in access.roles_in(staff["outsider"], club.pk)


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"expires_at": timezone.now() - timedelta(seconds=1)}, "invitation_expired"),
        ({"withdrawn_at": timezone.now()}, "invitation_withdrawn"),
    ],
)
def test_an_expired_or_withdrawn_invitation_is_refused(
    staff: dict[str, Any], change: dict[str, Any], code: str
) -> None:
    issued = people.invite(staff["club"], role="scorekeeper", player=None, by=staff["director"])
    Invitation.objects.update(**change)
    with refused(code):
        people.claim(issued.code, new_login("late"))
    assert not User.objects.filter(username="late").exists()


@pytest.mark.parametrize("code", ["", "ABCD", "0" * 12, "x" * 500, "ÄÖÜ-1234-5678", None])
def test_an_unknown_code_is_refused(staff: dict[str, Any], code: Any) -> None:
    people.invite(staff["club"], role="scorekeeper", player=None, by=staff["director"])
    with refused("invitation_unknown"):
        people.find_invitation(code)


def test_a_taken_username_refuses_the_claim_and_leaves_the_invitation_open(staff: dict[str, Any]) -> None:
    issued = people.invite(staff["club"], role="scorekeeper", player=None, by=staff["director"])
    with refused("username_taken"):
        people.claim(issued.code, new_login("director"))
    assert people.invitation_state(Invitation.objects.get()) == "open"
    assert Membership.objects.filter(role="scorekeeper").count() == 1  # the staff fixture's only


def test_a_claim_refused_halfway_makes_no_login(staff: dict[str, Any]) -> None:
    """The player got a login another way after the invitation was made: the new login is
    not made either (one transaction)."""
    club = staff["club"]
    cy = people.add_player(club, "Cy")
    issued = people.invite(club, role="player", player=cy, by=staff["director"])
    people.link_login(cy, staff["outsider"])
    with refused("player_has_login"):
        people.claim(issued.code, new_login("cy"))
    assert not User.objects.filter(username="cy").exists()
    assert people.invitation_state(Invitation.objects.get()) == "open"


def test_what_an_invitation_may_name(staff: dict[str, Any]) -> None:
    club, director = staff["club"], staff["director"]
    with refused("invitation_needs_player"):
        people.invite(club, role="player", player=None, by=director)
    with refused("invalid_role"):
        people.invite(club, role="admin", player=None, by=director)
    foreign = people.add_player(staff["other"], "Fay")
    with refused("not_found"):
        people.invite(club, role="player", player=foreign, by=director)
    linked = people.add_player(club, "Lin")
    people.link_login(linked, staff["player"])
    with refused("player_has_login"):
        people.invite(club, role="player", player=linked, by=director)
    assert not Invitation.objects.exists()


def test_a_withdrawn_invitation_cannot_be_withdrawn_again(staff: dict[str, Any]) -> None:
    issued = people.invite(staff["club"], role="director", player=None, by=staff["director"])
    people.withdraw(issued.invitation, staff["director"])
    with refused("invitation_withdrawn"):
        people.withdraw(issued.invitation, staff["director"])


# --- roles and logins ---------------------------------------------------------------------


def test_a_club_keeps_its_last_director(staff: dict[str, Any]) -> None:
    club, director = staff["club"], staff["director"]
    with refused("last_director"):
        people.revoke_role(club, director, "director")
    assert access.roles_in(director, club.pk) == {"director"}
    assert people.grant_role(club, staff["scorekeeper"], "director") is True
    assert people.grant_role(club, staff["scorekeeper"], "director") is False  # had it already
    assert people.revoke_role(club, director, "director") is True
    with refused("last_director"):
        people.revoke_role(club, staff["scorekeeper"], "director")


def test_the_player_role_comes_with_a_player_record(staff: dict[str, Any]) -> None:
    club = staff["club"]
    with refused("invalid_role"):
        people.grant_role(club, staff["outsider"], "player")
    di = people.add_player(club, "Di")
    people.link_login(di, staff["outsider"])
    assert access.roles_in(staff["outsider"], club.pk) == {"player"}
    people.revoke_role(club, staff["outsider"], "player")
    assert Player.objects.get(pk=di.pk).user is None and not access.roles_in(staff["outsider"], club.pk)


def test_a_login_is_one_players_and_a_player_has_one_login(staff: dict[str, Any]) -> None:
    club = staff["club"]
    ed, flo = people.add_player(club, "Ed"), people.add_player(club, "Flo")
    people.link_login(ed, staff["outsider"])
    people.link_login(ed, staff["outsider"])  # the same pair again: nothing changes
    with refused("login_has_player"):
        people.link_login(flo, staff["outsider"])
    with refused("player_has_login"):
        people.link_login(ed, staff["player"])
    people.unlink_login(ed)
    assert Player.objects.get(pk=ed.pk).user is None
    assert not Membership.objects.filter(user=staff["outsider"], club=club).exists()


def test_a_login_is_found_by_its_username_case_aside(staff: dict[str, Any]) -> None:
    assert people.login_named(" DIRECTOR ") == staff["director"]
    for typed in ("", "nobody", "x" * 151, None):
        with refused("no_such_login"):
            people.login_named(typed)


def test_members_lists_every_login_with_its_roles_and_record(staff: dict[str, Any]) -> None:
    club = staff["club"]
    people.link_login(people.add_player(club, "Gus"), staff["outsider"])
    people.grant_role(club, staff["scorekeeper"], "director")
    listed = {m.username: (m.roles, m.player_name) for m in access.members(club)}
    assert listed == {
        "director": (("director",), ""),
        "outsider": (("player",), "Gus"),
        "player": (("player",), ""),
        "scorekeeper": (("director", "scorekeeper"), ""),
    }


# --- seats and tables ---------------------------------------------------------------------


@pytest.fixture
def night(staff: dict[str, Any]) -> dict[str, Any]:
    """Round 3 of a running tournament: Bo deals at table 1 (Bo, Ann, Cy), Di and Ed sit
    at table 2 with a bot, Flo has a bye; round 2 is complete."""
    club = staff["club"]
    tournament = make_tournament(club, name="Club night")
    ann, bo, cy, di, ed, flo = players(club, "Ann", "Bo", "Cy", "Di", "Ed", "Flo")
    done = add_round(tournament, 2, [[ann, bo], [cy, di]])
    Round.objects.filter(pk=done.pk).update(status=Round.Status.COMPLETE)
    for p in (ann, bo, cy, di, ed, flo):
        tournament.registrations.create(player=p, status="checked_in")
    add_round(tournament, 3, [[bo, ann, cy], [di, ed, "greedy"]], byes=[flo])
    return {**staff, "tournament": tournament, "ann": ann, "bo": bo, "flo": flo, "ed": ed}


def test_a_players_seat_now_names_the_first_dealer(night: dict[str, Any]) -> None:
    [seat] = seats_now(night["ann"].pk)
    assert (seat.round_number, seat.table, seat.seat, seat.dealer, seat.bye) == (3, 1, 2, "Bo", False)
    [dealing] = seats_now(night["bo"].pk)
    assert (dealing.seat, dealing.dealer) == (1, "")
    [bye] = seats_now(night["flo"].pk)
    assert bye.bye and bye.round_number == 3
    Tournament.objects.filter(pk=night["tournament"].pk).update(status=Tournament.Status.FINISHED)
    assert seats_now(night["ann"].pk) == []


def test_tables_to_record_list_the_assigned_ones_first(night: dict[str, Any]) -> None:
    round_3 = Round.objects.get(tournament=night["tournament"], number=3)
    table_2 = round_3.tables.get(number=2)
    keeper = night["scorekeeper"]
    people.assign_scorekeeper(table_2, keeper.pk, night["director"])
    club_ids = access.recorder_club_ids(keeper)
    tables = tables_to_record(club_ids, keeper.pk)
    assert [(t.number, t.mine, t.scorekeeper) for t in tables] == [(2, True, "scorekeeper"), (1, False, "")]
    assert tables[0].names == ("Di", "Ed", "greedy bot")
    # to the director, table 2 is the scorekeeper's; no table is theirs
    seen = tables_to_record(access.recorder_club_ids(night["director"]), night["director"].pk)
    assert [(t.number, t.mine) for t in seen] == [(1, False), (2, False)]
    assert access.recorder_club_ids(night["player"]) == []


def test_only_the_clubs_recorders_are_assigned_and_not_to_a_complete_round(night: dict[str, Any]) -> None:
    round_3 = Round.objects.get(tournament=night["tournament"], number=3)
    table = round_3.tables.get(number=1)
    with refused("not_a_scorekeeper"):
        people.assign_scorekeeper(table, night["player"].pk, night["director"])
    with refused("not_a_scorekeeper"):
        people.assign_scorekeeper(table, night["foreign"].pk, night["director"])
    people.assign_scorekeeper(table, night["director"].pk, night["director"])
    people.assign_scorekeeper(table, None, night["director"])
    assert not TableScorekeeper.objects.exists()
    done = Round.objects.get(tournament=night["tournament"], number=2).tables.get(number=1)
    with refused("round_complete"):
        people.assign_scorekeeper(done, night["scorekeeper"].pk, night["director"])
