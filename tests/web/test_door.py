"""Registration at the door (web.desk.door, issue 27 §3): a pasted list or a CSV previewed, then
registered at once; "Check in now" stays ticked; a drop-out and a close with rounds
unplayed are confirmed first; only directors may do any of it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from league import limits, services
from league.models import Club, Membership, Player, Registration, Round
from tests.web.test_desk_views import client_of, key, make_tournament, text
from web.models import FormPost

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return Club.objects.create(name="Riverside Knock Rummy Club", slug="riverside")


@pytest.fixture
def people(club: Club, make_user: Callable[..., Any]) -> dict[str, Any]:
    found = {}
    for role in ("director", "scorekeeper", "player"):
        user = make_user(role)
        Membership.objects.create(club=club, user=user, role=role)
        found[role] = user
    other = Club.objects.create(name="Hilltop", slug="hilltop")
    found["other"] = make_user("other-director")
    Membership.objects.create(club=other, user=found["other"], role=Membership.Role.DIRECTOR)
    return found


@pytest.fixture
def director(people: dict[str, Any]) -> Client:
    return client_of(people["director"])


PASTED = "Zoé Lefèvre\n\nalice\nBo\n  bo  \n" + "X" * (limits.PLAYER_NAME_LENGTH + 1) + "\nCy\n"


def test_the_preview_says_new_existing_and_why_not_and_writes_nothing(
    club: Club, people: dict[str, Any], director: Client
) -> None:
    tournament = make_tournament(club, people["director"])
    Player.objects.create(club=club, name="Alice")
    zoe = Player.objects.create(club=club, name="Zoe Lefevre")
    services.register(tournament, player=zoe)
    response = director.post(
        f"/tournaments/{tournament.pk}/desk/door/preview", {"names": PASTED, "check_in": "on"}
    )
    assert response.status_code == 200
    page = text(response)
    verdicts = response.context["preview"].names
    assert [(n.line, n.name, n.verdict) for n in verdicts] == [
        (1, "Zoé Lefèvre", "registered"),
        (3, "alice", "existing"),
        (4, "Bo", "new"),
        (5, "bo", "duplicate"),
        (6, "X" * (limits.PLAYER_NAME_LENGTH + 1), "too_long"),
        (7, "Cy", "new"),
    ]
    assert response.context["preview"].blank_lines == 1
    assert "3 players will be registered" in page
    assert "the club&#x27;s Alice" in page
    assert "Zoe Lefevre is registered already" in page
    assert "the same name as line 4" in page
    assert f"longer than {limits.PLAYER_NAME_LENGTH} characters" in page
    assert "1 blank line skipped." in page
    # the confirm form carries the names that register, and nothing was written
    assert response.context["to_register"] == "alice\nBo\nCy"
    assert Player.objects.filter(club=club).count() == 2
    assert tournament.registrations.count() == 1


@pytest.mark.both_databases
def test_a_line_with_a_control_character_is_no_name_and_never_reaches_the_database(
    club: Club, people: dict[str, Any], director: Client
) -> None:
    """PostgreSQL's text refuses a NUL outright: such a line was looked up and answered 500."""
    tournament = make_tournament(club, people["director"])
    response = director.post(
        f"/tournaments/{tournament.pk}/desk/door/preview", {"names": "Ann\nB\x00o\nC\x07y"}
    )
    assert response.status_code == 200
    verdicts = [(n.line, n.verdict) for n in response.context["preview"].names]
    assert verdicts == [(1, "new"), (2, "not_a_name"), (3, "not_a_name")]


def test_confirm_registers_them_all_once_checked_in(
    club: Club, people: dict[str, Any], director: Client
) -> None:
    tournament = make_tournament(club, people["director"])
    alice = Player.objects.create(club=club, name="Alice")
    url = f"/tournaments/{tournament.pk}/desk/door/confirm"
    body = {"names": "alice\r\nBo\r\nCy", "check_in": "on", "idempotency_key": key("door")}
    response = director.post(url, body, follow=True)
    assert response.status_code == 200
    assert "3 players registered and checked in (2 new to the club)." in text(response)
    rows = {r.player.name: r.status for r in tournament.registrations.select_related("player")}
    assert rows == {"Alice": "checked_in", "Bo": "checked_in", "Cy": "checked_in"}
    assert tournament.registrations.get(player=alice)
    # the same form sent again: nothing more, the same words
    again = director.post(url, body, follow=True)
    assert "3 players registered and checked in (2 new to the club)." in text(again)
    assert tournament.registrations.count() == 3
    assert Player.objects.filter(club=club).count() == 3
    assert FormPost.objects.count() == 1
    # a new form with the same list registers nobody twice
    director.post(url, {**body, "idempotency_key": key("door2")}, follow=True)
    assert tournament.registrations.count() == 3


def test_a_refused_list_registers_nobody(club: Club, people: dict[str, Any], director: Client) -> None:
    tournament = make_tournament(club, people["director"], rounds=3)
    for name in ("Ann", "Bo", "Cy"):
        services.set_registration_status(services.register(tournament, name=name), "checked_in")
    services.generate_round(tournament, people["director"])
    # a late entry in a round that exists already: the whole list is refused
    response = director.post(
        f"/tournaments/{tournament.pk}/desk/door/confirm",
        {"names": "Di\nEd", "from_round": "1", "idempotency_key": key("late")},
        follow=True,
    )
    assert "round 1 already exists" in text(response)
    assert not Player.objects.filter(name__in=["Di", "Ed"]).exists()
    assert not FormPost.objects.exists()


def test_a_csv_reads_its_name_column_and_says_what_it_ignored(
    club: Club, people: dict[str, Any], director: Client
) -> None:
    tournament = make_tournament(club, people["director"])
    csv = b"Email;NAME;Rating\nann@example.org;Ann;1500\nbo@example.org;Bo;\n;;\n"
    upload = SimpleUploadedFile("players.csv", b"\xef\xbb\xbf" + csv, content_type="text/csv")
    response = director.post(f"/tournaments/{tournament.pk}/desk/door/preview", {"names": "", "file": upload})
    assert response.status_code == 200
    assert [(n.line, n.name) for n in response.context["preview"].names] == [(2, "Ann"), (3, "Bo")]
    assert "these were ignored: Email, Rating." in text(response)


@pytest.mark.parametrize(
    ("body", "status", "said"),
    [
        ({"names": "\n \n"}, 400, "Type or paste at least one name"),
        ({"names": "x\n" * (limits.MAX_LISTED_NAMES + 1)}, 400, "That list is too long."),
        ({"file": b"email,club\na@b.c,x\n"}, 400, "It has: email, club."),
        ({"file": b"name\n\xff\xfe\n"}, 400, "save the file as CSV in UTF-8"),
        ({"names": "Ann", "from_round": "many"}, 400, "The first round must be a whole number"),
    ],
)
def test_a_bad_list_is_said_and_changes_nothing(
    club: Club, people: dict[str, Any], director: Client, body: dict[str, Any], status: int, said: str
) -> None:
    tournament = make_tournament(club, people["director"])
    if "file" in body:
        body = {"file": SimpleUploadedFile("list.csv", body["file"], content_type="text/csv")}
    response = director.post(f"/tournaments/{tournament.pk}/desk/door/preview", body)
    assert response.status_code == status
    assert said in text(response)
    assert not Player.objects.exists()


@pytest.mark.parametrize("role", ["scorekeeper", "player", "other", None])
def test_only_the_clubs_directors_register_a_list(
    club: Club, people: dict[str, Any], role: str | None
) -> None:
    tournament = make_tournament(club, people["director"])
    client = client_of(people[role] if role else None)
    base = f"/tournaments/{tournament.pk}/desk/door"
    for response in (
        client.get(base),
        client.post(base + "/preview", {"names": "Ann"}),
        client.post(base + "/confirm", {"names": "Ann", "idempotency_key": key("x")}),
    ):
        assert response.status_code in ((302,) if role is None else (403,))
    assert not Player.objects.exists()


def test_the_door_page_offers_paste_and_file(club: Club, people: dict[str, Any], director: Client) -> None:
    tournament = make_tournament(club, people["director"])
    desk = text(director.get(f"/tournaments/{tournament.pk}/desk"))
    assert f'href="/tournaments/{tournament.pk}/desk/door"' in desk
    page = director.get(f"/tournaments/{tournament.pk}/desk/door")
    assert page.status_code == 200
    assert 'name="names"' in text(page) and 'type="file"' in text(page)
    assert 'id="door-check-in" checked' in text(page)


def test_check_in_now_stays_ticked_between_entries(
    club: Club, people: dict[str, Any], director: Client
) -> None:
    tournament = make_tournament(club, people["director"])
    url = f"/tournaments/{tournament.pk}/desk/register"
    ticked = director.post(url, {"name": "Ann", "check_in": "on", "idempotency_key": key(1)}, follow=True)
    assert 'id="add-check-in" checked' in text(ticked)
    refused = director.post(url, {"name": "", "check_in": "on", "idempotency_key": key(3)}, follow=True)
    assert "Type the player&#x27;s name." in text(refused)
    assert 'id="add-check-in" checked' in text(refused)  # a refusal keeps it too
    unticked = director.post(url, {"name": "Bo", "idempotency_key": key(2)}, follow=True)
    assert 'id="add-check-in" checked' not in text(unticked)
    assert dict(tournament.registrations.values_list("player__name", "status")) == {
        "Ann": "checked_in",
        "Bo": "registered",
    }


def test_a_drop_out_is_confirmed_first(club: Club, people: dict[str, Any], director: Client) -> None:
    tournament = make_tournament(club, people["director"])
    for name in ("Ann", "Bo", "Cy", "Di"):
        services.set_registration_status(services.register(tournament, name=name), "checked_in")
    round_ = services.generate_round(tournament, people["director"])
    services.publish_round(round_, people["director"])
    ann = tournament.registrations.get(player__name="Ann")
    desk = text(director.get(f"/tournaments/{tournament.pk}/desk"))
    assert f'action="/tournaments/{tournament.pk}/desk/registrations/{ann.pk}/drop"' in desk
    status_url = f"/tournaments/{tournament.pk}/desk/registrations/{ann.pk}"
    # the old one-click post is sent to the confirm step, nothing changed
    unconfirmed = director.post(status_url, {"status": "dropped", "idempotency_key": key("d1")})
    assert unconfirmed.status_code == 302
    assert unconfirmed["Location"] == f"{status_url}/drop"
    ann.refresh_from_db()
    assert ann.status == Registration.Status.CHECKED_IN
    confirm = director.get(f"{status_url}/drop")
    assert "Drop Ann out?" in text(confirm)
    assert "seated in no round after round 1" in text(confirm)
    done = director.post(status_url, {"status": "dropped", "confirmed": "yes", "idempotency_key": key("d2")})
    assert done.status_code == 302
    ann.refresh_from_db()
    assert (ann.status, ann.dropped_after) == (Registration.Status.DROPPED, 1)
    # a scorekeeper may not even see the step
    assert client_of(people["scorekeeper"]).get(f"{status_url}/drop").status_code == 403


def test_closing_with_rounds_unplayed_says_which(
    club: Club, people: dict[str, Any], director: Client
) -> None:
    tournament = make_tournament(club, people["director"], rounds=4)
    page = text(director.get(f"/tournaments/{tournament.pk}/desk/close"))
    assert "0 of 4 rounds have been played." in page
    assert "Rounds 1, 2, 3, 4 will never be played." in page
    assert Round.objects.count() == 0
    for name in ("Ann", "Bo", "Cy", "Di"):
        services.set_registration_status(services.register(tournament, name=name), "checked_in")
    dana = people["director"]
    round_ = services.publish_round(services.generate_round(tournament, dana), dana)
    in_play = text(director.get(f"/tournaments/{tournament.pk}/desk/close"))
    assert "A round is still being played" in in_play
    assert "Rounds 2, 3, 4 will never be played." in in_play
    round_.status = Round.Status.COMPLETE
    round_.save(update_fields=["status"])
    done = text(director.get(f"/tournaments/{tournament.pk}/desk/close"))
    assert "1 of 4 rounds have been played." in done
    assert "Rounds 2, 3, 4 will never be played: the final standings are those after round 1." in done
    assert "A round is still being played" not in done


def test_a_closed_tournament_registers_nobody_at_the_door(
    club: Club, people: dict[str, Any], director: Client
) -> None:
    tournament = make_tournament(club, people["director"])
    services.close_tournament(tournament, people["director"])
    page = director.get(f"/tournaments/{tournament.pk}/desk/door")
    assert page.status_code == 409
    assert "is closed: nobody can register any more." in text(page)
    assert 'name="names"' not in text(page)
    sent = director.post(
        f"/tournaments/{tournament.pk}/desk/door/confirm",
        {"names": "Ann", "idempotency_key": key("closed")},
        follow=True,
    )
    assert "The tournament is closed: nothing can change any more." in text(sent)
    assert not Player.objects.exists()
