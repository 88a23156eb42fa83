"""The people's pages, page by page: the club's people page and its forms, an invitation
shown once and used at /join/, the header's links to each person's own pages, "My
tables", "My games", seats on the home and player pages, the public page's round by
player, the desk's scorekeeper and self check-in, and practice games under the player's
name. Refusals are said in words and change nothing; no input answers 500."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Game
from league import access, checkin, codes, people
from league.models import Club, Invitation, Membership, Player, Round, TableScorekeeper, Tournament
from tests.support.tournaments import add_round, make_tournament, players

pytestmark = pytest.mark.django_db
User = get_user_model()


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def client_of(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def follow(client: Client, url: str, data: dict[str, str]) -> str:
    return text(client.post(url, data, follow=True))


@pytest.fixture
def club(make_user: Any) -> dict[str, Any]:
    """Riverside: director dana, scorekeeper sam, ann (Ann's login); a club night whose
    round 1 is published: Bo deals at table 1 (Bo, Ann), Cy and Di at table 2."""
    riverside = Club.objects.create(name="Riverside", slug="riverside")
    users = {name: make_user(name) for name in ("dana", "sam", "ann", "stranger")}
    Membership.objects.create(club=riverside, user=users["dana"], role="director")
    Membership.objects.create(club=riverside, user=users["sam"], role="scorekeeper")
    ann, bo, cy, di = players(riverside, "Ann", "Bo", "Cy", "Di")
    people.link_login(ann, users["ann"])
    tournament = make_tournament(riverside, name="Club night")
    round_ = add_round(tournament, 1, [[bo, ann], [cy, di]])
    return {
        **users,
        "club": riverside,
        "tournament": tournament,
        "round": round_,
        "ann_player": ann,
        "bo": bo,
    }


# --- the people page ------------------------------------------------------------------------


def test_the_people_page_lists_players_logins_and_invitations(club: dict[str, Any]) -> None:
    people.invite(club["club"], role="player", player=club["bo"], by=club["dana"])
    page = text(client_of(club["dana"]).get("/clubs/riverside/people/"))
    assert 'Ann</a> <span class="badge ok">login: ann</span>' in page
    assert 'Bo</a> <span class="badge">no login</span>' in page
    assert 'aria-label="Remove dana\'s role: director"' in page  # a role held, removable
    assert 'aria-label="Make sam a director"' in page  # a role to give
    assert re.search(r'id="invitation-\d+">.*?Bo</a>, player <span class="badge warn">open</span>', page)
    # only players without a login are offered an invitation
    offered = re.search(r'<select id="invite-player".*?</select>', page, re.S)
    assert offered is not None and ">Bo<" in offered.group(0) and ">Ann<" not in offered.group(0)


def test_an_invitation_is_shown_once_and_only_its_digest_is_kept(club: dict[str, Any]) -> None:
    director = client_of(club["dana"])
    form = {"role": "player", "player": str(club["bo"].pk), "idempotency_key": "invite-bo-123"}
    shown = director.post("/clubs/riverside/people/invite", form)
    assert shown.status_code == 200 and shown["Cache-Control"] == "no-store"
    page = text(shown)
    link = re.search(r'value="http://testserver/join/([0-9A-Z]{12})"', page)
    assert link is not None
    code = link.group(1)
    assert f'id="invitation-code">{codes.grouped(code)}</p>' in page and 'class="qr"' in page
    invitation = Invitation.objects.get()
    assert invitation.code_digest == codes.digest(code) and code not in str(list(Invitation.objects.values()))
    # the same form again makes nothing and shows no code
    again = director.post("/clubs/riverside/people/invite", form, follow=True)
    assert Invitation.objects.count() == 1 and code not in text(again)
    assert "its code was shown then" in text(again)
    status = text(director.get(f"/clubs/riverside/people/invitations/{invitation.pk}"))
    assert "open" in status and code not in status and "Withdraw it" in status


def test_a_player_added_with_an_invitation(club: dict[str, Any]) -> None:
    page = follow(client_of(club["dana"]), "/clubs/riverside/people/players", {"name": "Zoé", "invite": "on"})
    assert "An invitation for Zoé, player" in page and "/join/" in page
    zoe = Player.objects.get(name="Zoé")
    assert Invitation.objects.get().player == zoe


@pytest.mark.parametrize(
    ("url", "form", "said"),
    [
        ("players", {"name": "ann"}, "The club already has a player of that name."),
        ("players", {"name": "ANN"}, "It is Ann, case and accents aside: one person, one player record."),
        ("players", {"name": ""}, "Type the player&#x27;s name."),
        ("players", {"name": "x" * 81}, "must be 0 to 80 characters"),
        ("invite", {"role": "player"}, "A player&#x27;s invitation is for one of the club&#x27;s players"),
        ("invite", {"role": "owner"}, "Choose a role offered"),
        ("invite", {"role": "player", "player": "abc"}, "The player must be a whole number"),
        (
            "roles",
            {"op": "remove", "role": "director", "username": "dana"},
            "A club keeps at least one director",
        ),
        ("roles", {"op": "grant", "role": "director", "username": "nobody"}, "No login has that username"),
        ("roles", {"op": "grant", "role": "player", "username": "stranger"}, "Choose a role offered"),
        (
            "roles",
            {"op": "toggle", "role": "director", "username": "sam"},
            "Choose whether to give or remove",
        ),
    ],
)
def test_a_refused_form_says_why_and_changes_nothing(
    club: dict[str, Any], url: str, form: dict[str, str], said: str
) -> None:
    before = (Player.objects.count(), Membership.objects.count(), Invitation.objects.count())
    page = follow(client_of(club["dana"]), f"/clubs/riverside/people/{url}", form)
    assert said in page
    assert (Player.objects.count(), Membership.objects.count(), Invitation.objects.count()) == before


def test_another_clubs_player_is_not_found(club: dict[str, Any]) -> None:
    [elsewhere] = players(Club.objects.create(name="Hilltop", slug="hilltop"), "Hal")
    director = client_of(club["dana"])
    assert (
        director.post(
            "/clubs/riverside/people/invite", {"role": "player", "player": elsewhere.pk}
        ).status_code
        == 404
    )
    assert (
        director.post(f"/clubs/riverside/people/players/{elsewhere.pk}/login", {"op": "unlink"}).status_code
        == 404
    )


def test_roles_and_logins_change_from_the_page(club: dict[str, Any]) -> None:
    director = client_of(club["dana"])
    made = follow(
        director, "/clubs/riverside/people/roles", {"op": "grant", "role": "director", "username": "SAM"}
    )
    assert "sam is now a director." in made
    assert access.roles_in(club["sam"], club["club"].pk) == {"director", "scorekeeper"}
    gone = follow(
        director, "/clubs/riverside/people/roles", {"op": "remove", "role": "director", "username": "dana"}
    )
    assert "dana is no longer a director." in gone
    cy = Player.objects.get(name="Cy")
    linked = follow(
        sam := client_of(club["sam"]),
        f"/clubs/riverside/people/players/{cy.pk}/login",
        {"op": "link", "username": "stranger"},
    )
    assert (
        "stranger is now Cy&#x27;s login." in linked and Player.objects.get(pk=cy.pk).user == club["stranger"]
    )
    unlinked = follow(sam, f"/clubs/riverside/people/players/{cy.pk}/login", {"op": "unlink"})
    assert "Cy no longer has a login." in unlinked and Player.objects.get(pk=cy.pk).user is None


# --- /join/ -----------------------------------------------------------------------------


def test_a_new_login_joins_through_the_link(club: dict[str, Any]) -> None:
    code = people.invite(club["club"], role="player", player=club["bo"], by=club["dana"]).code
    visitor = Client()
    form = text(visitor.get(f"/join/{code}"))
    assert "Join Riverside" in form and "You are invited as <strong>Bo</strong>" in form
    assert 'name="username"' in form and 'value="bo"' in form  # a username suggested
    bad = visitor.post(
        f"/join/{code}", {"username": "bo", "password1": "a-long-pass-123", "password2": "other-pass-456"}
    )
    assert bad.status_code == 400 and "password fields didn\N{RIGHT SINGLE QUOTATION MARK}t match" in text(
        bad
    )
    taken = visitor.post(
        f"/join/{code}", {"username": "Dana", "password1": "a-long-pass-123", "password2": "a-long-pass-123"}
    )
    assert taken.status_code == 400 and "already exists" in text(taken)
    assert not User.objects.filter(username="bo").exists()
    done = visitor.post(
        f"/join/{code}", {"username": "bo", "password1": "a-long-pass-123", "password2": "a-long-pass-123"}
    )
    assert done.status_code == 302 and done["Location"] == "/mine/games"
    welcome = text(visitor.get("/mine/games"))
    assert "Welcome, bo: you are a player of Riverside." in welcome
    assert "Round 1: table 1, seat 1, you deal first" in welcome  # Bo's seat, on the new login's page
    assert Player.objects.get(name="Bo").user == User.objects.get(username="bo")
    used = visitor.get(f"/join/{code}")
    assert used.status_code == 409 and "has been used already" in text(used)


def test_a_signed_in_login_joins_as_itself(club: dict[str, Any]) -> None:
    code = people.invite(club["club"], role="scorekeeper", player=None, by=club["dana"]).code
    stranger = client_of(club["stranger"])
    page = text(stranger.get(f"/join/{code.lower()}"))
    assert "Join as stranger" in page and 'name="password1"' not in page
    done = stranger.post(f"/join/{code.lower()}")
    assert done.status_code == 302 and done["Location"] == "/mine/tables"
    assert access.roles_in(club["stranger"], club["club"].pk) == {"scorekeeper"}


def test_the_code_typed_is_read_forgivingly_and_wrong_codes_are_throttled(club: dict[str, Any]) -> None:
    code = people.invite(club["club"], role="scorekeeper", player=None, by=club["dana"]).code
    visitor = Client()
    typed = visitor.get("/join/", {"code": f" {codes.grouped(code).lower()} "})
    assert typed.status_code == 302 and typed["Location"] == f"/join/{code}"
    assert visitor.get("/join/", {"code": "../../admin/"}).status_code == 302
    for _ in range(30):
        assert visitor.get("/join/NOTACODE0000").status_code == 404
    locked = visitor.get(f"/join/{code}")
    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0


# --- the header, home, player page, My tables, My games -------------------------------------


def nav(client: Client) -> str:
    page = text(client.get("/"))
    found = re.search(r'<nav aria-label="Site">(.*?)</nav>', page)
    assert found is not None
    return found.group(1)


def test_the_header_shows_each_person_what_is_theirs(club: dict[str, Any]) -> None:
    director = nav(client_of(club["dana"]))
    assert f'href="/tournaments/{club["tournament"].pk}/desk"' in director and "Desk: Club night" in director
    assert "My tables" not in director and "My games" not in director
    assert 'href="/password/"' in director  # no player record: the name leads to the password page
    scorekeeper = nav(client_of(club["sam"]))
    assert 'href="/mine/tables"' in scorekeeper and "Desk:" not in scorekeeper
    player = nav(client_of(club["ann"]))
    assert 'href="/mine/games"' in player and "My tables" not in player
    assert (
        f'href="/players/{club["ann_player"].pk}/" title="Your results and rating" class="me">ann</a>'
        in player
    )
    assert "My games" not in nav(Client()) and "Sign in" in nav(Client())


def test_a_player_sees_their_seat_on_the_home_and_player_pages(club: dict[str, Any]) -> None:
    ann = client_of(club["ann"])
    home = text(ann.get("/"))
    assert "Where you sit now" in home and "Round 1: table 1, seat 2, Bo deals first" in home
    assert "Play</a>" not in home  # a physical table: nothing to play in the browser
    public = text(Client().get(f"/players/{club['bo'].pk}/"))
    assert "Where Bo sits now" in public and "Round 1: table 1, seat 1, Bo deals first" in public
    own = text(client_of(club["ann"]).get(f"/players/{club['ann_player'].pk}/"))
    assert "Change my password" in own and "Where you sit now" in own


def test_a_digital_table_has_a_link_to_play(club: dict[str, Any]) -> None:
    from tests.support.games import new_game

    Tournament.objects.filter(pk=club["tournament"].pk).update(mode=Tournament.Mode.DIGITAL)
    from games import services

    created = new_game(
        club["dana"],
        [services.SeatSpec(name="Bo"), services.SeatSpec(user_id=club["ann"].pk, name="Ann")],
        mode="digital",
    )
    club["round"].tables.filter(number=1).update(game=created.game)
    home = text(client_of(club["ann"]).get("/"))
    assert f'href="/games/{created.game.pk}/play">Play</a>' in home
    assert "Play</a>" not in text(Client().get(f"/players/{club['ann_player'].pk}/"))  # for Ann only


def test_my_tables_lists_the_assigned_table_first(club: dict[str, Any]) -> None:
    table_2 = club["round"].tables.get(number=2)
    director = client_of(club["dana"])
    said = follow(
        director,
        f"/tournaments/{club['tournament'].pk}/desk/tables/{table_2.pk}/scorekeeper",
        {"user": str(club["sam"].pk)},
    )
    assert "Table 2: sam keeps the score." in said
    assert TableScorekeeper.objects.get().table == table_2
    page = text(client_of(club["sam"]).get("/mine/tables"))
    tables = re.findall(r'<li class="my-table( mine)?[^"]*" data-table="(\d+)"', page)
    assert tables == [(" mine", str(table_2.pk)), ("", str(club["round"].tables.get(number=1).pk))]
    assert f'href="/tables/{table_2.pk}/record" aria-label="Record table 2"' in page
    assert "Cy · Di" in page
    refused = client_of(club["ann"]).get("/mine/tables")
    assert refused.status_code == 403


def test_the_desk_offers_the_clubs_recorders_for_each_table(club: dict[str, Any]) -> None:
    page = text(client_of(club["dana"]).get(f"/tournaments/{club['tournament'].pk}/desk"))
    forms = re.findall(r'<form method="post" action="/tournaments/\d+/desk/tables/(\d+)/scorekeeper"', page)
    assert len(forms) == 2
    select = re.search(r'<select id="keeper-\d+" name="user">(.*?)</select>', page)
    assert select is not None and re.findall(r">(\w+)</option>", select.group(1)) == ["anyone", "dana", "sam"]
    bad = follow(
        client_of(club["dana"]),
        f"/tournaments/{club['tournament'].pk}/desk/tables/{forms[0]}/scorekeeper",
        {"user": str(club["ann"].pk)},
    )
    assert (
        "Choose one of the club&#x27;s scorekeepers or directors." in bad
        and not TableScorekeeper.objects.exists()
    )
    Round.objects.filter(pk=club["round"].pk).update(status=Round.Status.COMPLETE)
    done = follow(
        client_of(club["dana"]),
        f"/tournaments/{club['tournament'].pk}/desk/tables/{forms[0]}/scorekeeper",
        {"user": str(club["sam"].pk)},
    )
    assert "That round is complete" in done and not TableScorekeeper.objects.exists()


def test_my_games_for_a_login_with_no_player_record(club: dict[str, Any]) -> None:
    page = text(client_of(club["stranger"]).get("/mine/games"))
    assert "Your login is not a club player's yet" in page and "Change my password" in page


# --- the public page: a round by player -------------------------------------------------------


def test_the_public_page_lists_the_round_by_player_alphabetically(club: dict[str, Any]) -> None:
    riverside, tournament = club["club"], club["tournament"]
    zoe, alvaro, bea = players(riverside, "Zoe", "Álvaro", "bea")
    add_round(tournament, 2, [[zoe, alvaro, "greedy"], [bea, club["bo"]]])
    page = text(Client().get(f"/tournaments/{tournament.pk}/"))
    listed = re.search(r'aria-label="Round 2 by player">(.*?)</ol>', page)
    assert listed is not None
    lines = re.findall(r'>([^<>]+)</a> <span class="where">([^<]+)</span>', listed.group(1))
    assert lines == [
        ("Álvaro", "table 1, seat 2"),
        ("bea", "table 2, seat 1 · deals first"),
        ("Bo", "table 2, seat 2"),
        ("Zoe", "table 1, seat 1 · deals first"),
    ]


# --- self check-in on the desk ------------------------------------------------------------


def test_the_desk_opens_self_check_in_and_shows_its_code(club: dict[str, Any]) -> None:
    tournament = club["tournament"]
    director = client_of(club["dana"])
    closed = text(director.get(f"/tournaments/{tournament.pk}/desk"))
    assert "Let players check themselves in" in closed
    opened = follow(director, f"/tournaments/{tournament.pk}/desk/check-in", {"op": "open"})
    code = checkin.open_code(tournament)
    assert code is not None and "Self check-in is open" in opened
    assert f'id="check-in-code">{code}</p>' in opened and 'class="qr"' in opened
    big = text(director.get(f"/tournaments/{tournament.pk}/desk/check-in/code"))
    assert f"/tournaments/{tournament.pk}/check-in?code={code}" in big
    shut = follow(director, f"/tournaments/{tournament.pk}/desk/check-in", {"op": "close"})
    assert "Self check-in is closed" in shut and checkin.open_code(tournament) is None
    junk = follow(director, f"/tournaments/{tournament.pk}/desk/check-in", {"op": "toggle"})
    assert "Choose whether to open or close" in junk


# --- practice games -----------------------------------------------------------------------


@pytest.mark.parametrize(("who", "seated_as"), [("ann", "Ann"), ("stranger", "stranger")])
def test_a_practice_game_seats_the_player_under_their_player_name(
    club: dict[str, Any], who: str, seated_as: str
) -> None:
    Player.objects.filter(pk=club["ann_player"].pk).update(name="Ann")
    response = client_of(club[who]).post(
        "/games/practice/", {"preset": "gin-rummy", "pace": "fast", "idempotency_key": "practice-1"}
    )
    assert response.status_code == 302
    game = Game.objects.get(owner=club[who])
    assert game.seats[0]["name"] == seated_as and game.seats[0]["user"] == club[who].pk


def test_my_games_offers_an_open_self_check_in_until_the_player_is_checked_in(club: dict[str, Any]) -> None:
    tournament = club["tournament"]
    registration = tournament.registrations.create(player=club["ann_player"])
    other = make_tournament(club["club"], name="Other night")
    other.registrations.create(player=club["bo"], status="checked_in")  # someone else checked in there
    ann = client_of(club["ann"])
    assert "Check in for" not in text(ann.get("/mine/games"))
    for night in (tournament, other):
        checkin.open_self_check_in(night, club["dana"])
    page = text(ann.get("/mine/games"))
    assert f'href="/tournaments/{tournament.pk}/check-in">Check in for Club night' in page
    assert f'href="/tournaments/{other.pk}/check-in">Check in for Other night' in page
    registration.status = "checked_in"
    registration.save()
    page = text(ann.get("/mine/games"))
    assert "Check in for Club night" not in page and "Check in for Other night" in page
