"""The print pages and the per-table link (docs/paper-and-screen.md): pairings two ways,
standings, table slips with the table's QR code, score sheets per preset; who may open
each; a bad query is a clear 400 that reads nothing more."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from typing import Any

import pytest
from django.test import Client

from league.models import Club, Membership, Round, Table, Tournament
from tests.support.celery import eager_tasks
from tests.support.public import Cup, autumn_cup
from tests.support.tournaments import add_round, make_tournament, players

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(owner: Any, django_capture_on_commit_callbacks: Any) -> Iterator[Cup]:
    with eager_tasks():
        with django_capture_on_commit_callbacks(execute=True):
            made = autumn_cup(owner)
        yield made


@pytest.fixture
def director(cup: Cup, make_user: Any) -> Client:
    user = make_user("dana")
    Membership.objects.create(club=cup.club, user=user, role=Membership.Role.DIRECTOR)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def scorekeeper(cup: Cup, make_user: Any) -> Client:
    user = make_user("sam")
    Membership.objects.create(club=cup.club, user=user, role=Membership.Role.SCOREKEEPER)
    client = Client()
    client.force_login(user)
    return client


def text(html: str) -> str:
    """The page's words, tags dropped and spaces collapsed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


# --- pairings ------------------------------------------------------------------------------


def test_the_pairings_by_table_list_seats_in_order_and_who_deals_first(cup: Cup) -> None:
    response = Client().get(f"/tournaments/{cup.tournament.pk}/print/pairings")
    assert response.status_code == 200
    words = text(response.content.decode())
    # the latest round: Ann, Cy and a bot at table 1, Bo on a bye
    assert "Round 2 — tables" in words
    assert "Table 1 1 Ann — deals first 2 Cy 3 greedy (bot)" in words
    assert "Bye: Bo" in words
    round1 = text(Client().get(f"/tournaments/{cup.tournament.pk}/print/pairings?round=1").content.decode())
    assert "Table 1 1 Ann — deals first 2 Bo Table 2 1 Cy — deals first 2 Di" in round1


def test_the_pairings_by_player_are_alphabetical_with_table_and_seat(cup: Cup) -> None:
    Table.objects.filter(round=cup.round1, number=2).get().seats.filter(position=0).update(player=cup.di)
    Table.objects.filter(round=cup.round1, number=2).get().seats.filter(position=1).update(player=cup.cy)
    response = Client().get(f"/tournaments/{cup.tournament.pk}/print/pairings?round=1&by=player")
    assert response.status_code == 200
    rows = re.findall(
        r'<li><span class="name">([^<]+?)(?: <span[^>]*>\(deals first\)</span>)?</span> '
        r'<span class="where">table (\d+), seat (\d+)</span></li>',
        response.content.decode(),
    )
    assert rows == [("Ann", "1", "1"), ("Bo", "1", "2"), ("Cy", "2", "2"), ("Di", "2", "1")]
    assert "Di (deals first)" in text(response.content.decode())


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("round=9", "Round 9 has not been published."),
        ("round=x", "The round must be a whole number from 1 to 100."),
        ("round=0", "The round must be a whole number from 1 to 100."),
        ("round=" + "9" * 400, "The round must be a whole number from 1 to 100."),
        ("by=seat", "by must be one of table, player."),
    ],
)
def test_a_bad_pairings_query_is_a_400_that_says_why(cup: Cup, query: str, said: str) -> None:
    response = Client().get(f"/tournaments/{cup.tournament.pk}/print/pairings?{query}")
    assert response.status_code == 400
    assert said in text(response.content.decode())


def test_a_draft_round_and_a_draft_tournament_are_not_printed(cup: Cup, director: Client) -> None:
    Round.objects.filter(pk=cup.round2.pk).update(status=Round.Status.DRAFT)
    for client in (Client(), director):
        words = text(client.get(f"/tournaments/{cup.tournament.pk}/print/pairings?round=2").content.decode())
        assert "Round 2 has not been published." in words
    Tournament.objects.filter(pk=cup.tournament.pk).update(status=Tournament.Status.DRAFT)
    assert Client().get(f"/tournaments/{cup.tournament.pk}/print/pairings?round=1").status_code == 404


def test_no_round_yet_is_said(cup: Cup) -> None:
    empty = make_tournament(cup.club, name="Winter cup", status=Tournament.Status.REGISTRATION)
    response = Client().get(f"/tournaments/{empty.pk}/print/pairings")
    assert response.status_code == 400
    assert "No round has been published yet" in text(response.content.decode())


# --- standings -----------------------------------------------------------------------------


def test_the_standings_sheet_names_its_tiebreaks_and_shows_decimals(cup: Cup) -> None:
    response = Client().get(f"/tournaments/{cup.tournament.pk}/print/standings")
    assert response.status_code == 200
    words = text(response.content.decode())
    assert "Standings" in words and "Final standings" not in words
    assert "Ties are broken by, in order:" in words
    assert "Wins — " in words and "then a draw reproducible from the tournament seed" in words
    url = f"/tournaments/{cup.tournament.pk}/print/standings"
    after = text(Client().get(f"{url}?after_round=1").content.decode())
    assert "Standings after round 1" in after
    bad = Client().get(f"/tournaments/{cup.tournament.pk}/print/standings?after_round=x")
    assert bad.status_code == 400 and "After round must be a round number" in text(bad.content.decode())


def test_a_closed_tournament_prints_its_final_standings(cup: Cup) -> None:
    Tournament.objects.filter(pk=cup.tournament.pk).update(status=Tournament.Status.FINISHED)
    words = text(Client().get(f"/tournaments/{cup.tournament.pk}/print/standings").content.decode())
    assert "Final standings" in words


# --- table slips and score sheets: the club's staff -------------------------------------------


@pytest.mark.parametrize("page", ["slips", "score-sheets"])
def test_slips_and_score_sheets_are_the_staffs(
    cup: Cup, page: str, make_user: Any, scorekeeper: Client
) -> None:
    url = f"/tournaments/{cup.tournament.pk}/print/{page}"
    assert Client().get(url).status_code == 302  # to sign in
    stranger = Client()
    stranger.force_login(make_user("stu"))
    assert stranger.get(url).status_code == 403
    assert scorekeeper.get(url).status_code == 200


def test_a_slip_carries_the_tables_address_and_its_qr_code(cup: Cup, director: Client) -> None:
    response = director.get(f"/tournaments/{cup.tournament.pk}/print/slips?round=1")
    assert response.status_code == 200
    html = response.content.decode()
    tables = list(cup.round1.tables.order_by("number"))
    for table in tables:
        assert f"http://testserver/t/{table.pk}" in html
    assert html.count('<svg viewBox="0 0') == 2 and html.count('class="slip"') == 2
    assert "<title>Table 1: its page</title>" in html
    assert html.count('class="slip-sheet"') == 1  # four to a sheet
    words = text(html)
    assert "Autumn cup · Round 1 Table 1 1 Ann — deals first 2 Bo" in words
    a6 = director.get(f"/tournaments/{cup.tournament.pk}/print/slips?round=1&layout=a6").content.decode()
    assert a6.count('class="slip-sheet"') == 2  # one per card
    assert director.get(f"/tournaments/{cup.tournament.pk}/print/slips?layout=a5").status_code == 400


def test_the_qr_code_reads_back_as_the_tables_address() -> None:
    """The SVG's modules are the QR code of the address: segno's own decoding-free check,
    its matrix, drawn again from the path, equals the code made for the address."""
    import segno

    from web.paper.qr import qr_svg

    address = "http://club.example/t/42"
    svg = qr_svg(address, "Table 1")
    code = segno.make(address, error="m", micro=False)
    assert f'viewBox="0 0 {code.symbol_size(scale=1, border=2)[0]}' in svg
    drawn = _modules_of(svg, border=2)
    assert drawn == {(x, y) for y, row in enumerate(code.matrix) for x, dark in enumerate(row) if dark}


def _modules_of(svg: str, border: int) -> set[tuple[int, int]]:
    """The dark modules an SVG path of horizontal runs draws (segno's ``M x y h n m dx dy``)."""
    path = re.search(r' d="([^"]+)"', svg)
    assert path is not None
    x = y = 0.0
    dark: set[tuple[int, int]] = set()
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", path.group(1)):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            for step in range(int(a)):
                dark.add((int(x) + step - border, int(y - 0.5) - border))
            x += float(a)
    return dark


@pytest.mark.parametrize(
    ("preset", "reminders"),
    [
        ("knock-rummy", ["pays 10 more to the winners", "count + 25", "The game is 10 hands."]),
        ("knock-rummy-hoyle", ["pays 10 to each player with a lower count", "ends when a total reaches 100"]),
        ("knock-rami", ["no deadwood scores -10 instead", "At 100 or more a player is out", "out at 100"]),
        ("gin-rummy", ["Knock with 10 or less", "each hand won is a box worth 25", "Boxes (hands won)"]),
    ],
)
def test_a_score_sheet_has_a_row_per_hand_and_its_presets_reminders(
    cup: Cup, director: Client, preset: str, reminders: list[str]
) -> None:
    tournament = make_tournament(cup.club, name=f"{preset} night", preset=preset)
    ann, bo, cy = players(cup.club, f"Ann {preset}", f"Bo {preset}", f"Cy {preset}")
    add_round(tournament, 1, [[ann, bo, cy]])
    response = director.get(f"/tournaments/{tournament.pk}/print/score-sheets")
    assert response.status_code == 200
    html = response.content.decode()
    words = text(html)
    for reminder in reminders:
        assert reminder in words, reminder
    rows = 12 if preset == "knock-rummy" else 16  # ten hands and two spare, or a page's worth
    assert len(re.findall(r'<tr><td class="num">\d+</td><td></td><td class="tick">', html)) == rows
    assert words.count("Count Score") == 3  # a count and a score for each of the three players
    assert f"1. Ann {preset} (deals first)" in words


def test_a_tournament_whose_rules_no_longer_read_says_so(cup: Cup, director: Client) -> None:
    Tournament.objects.filter(pk=cup.tournament.pk).update(options={"no_such_option": 1})
    response = director.get(f"/tournaments/{cup.tournament.pk}/print/score-sheets")
    assert response.status_code == 400
    assert "rules cannot be read" in text(response.content.decode())


# --- the per-table link ---------------------------------------------------------------------


def test_the_table_link_opens_the_record_page_for_the_staff_and_the_game_for_everyone_else(
    cup: Cup, director: Client, scorekeeper: Client, make_user: Any
) -> None:
    table = cup.round2.tables.get()
    for staff in (director, scorekeeper):
        assert staff.get(f"/t/{table.pk}")["Location"] == f"/tables/{table.pk}/record"
    stranger = Client()
    stranger.force_login(make_user("stu"))
    for client in (Client(), stranger):
        assert client.get(f"/t/{table.pk}")["Location"] == f"/games/{table.game_id}/"
    assert Client().get("/t/999999").status_code == 404
    assert Client().get("/t/99999999999999999999999").status_code == 404


def test_a_draft_tables_link_is_the_staffs_only(cup: Cup, director: Client) -> None:
    club: Club = cup.club
    tournament = make_tournament(club, name="Draft night")
    ann, bo = players(club, "Ann D", "Bo D")
    round_ = add_round(tournament, 1, [[ann, bo]])
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.DRAFT)
    table = round_.tables.get()
    assert Client().get(f"/t/{table.pk}").status_code == 404
    assert director.get(f"/t/{table.pk}")["Location"] == f"/tables/{table.pk}/record"


def test_a_seated_player_of_a_digital_table_is_sent_to_play(cup: Cup, make_user: Any) -> None:
    from games.models import Game

    ann = make_user("ann-player")
    table = cup.round2.tables.get()
    Tournament.objects.filter(pk=cup.tournament.pk).update(mode=Tournament.Mode.DIGITAL)
    game = Game.objects.get(pk=table.game_id)
    game.seats[0]["user"] = ann.pk
    Game.objects.filter(pk=game.pk).update(seats=game.seats)
    client = Client()
    client.force_login(ann)
    assert client.get(f"/t/{table.pk}")["Location"] == f"/games/{table.game_id}/play"
