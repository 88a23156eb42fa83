"""The home page and the demo data."""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client, override_settings

from league.models import Club, Membership, Player
from tests.support.worlds import FAST_HASHERS, shared_world


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    # seed_demo sets eleven passwords; the production hasher takes a third of a second each.
    settings.PASSWORD_HASHERS = FAST_HASHERS


@pytest.fixture(scope="module", autouse=True)
def demo_out(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    """The demo, seeded once for the module (tests/support/worlds.py), and what it
    printed: each test starts from its rows, in a savepoint rolled back after it."""
    with shared_world(django_db_blocker), override_settings(PASSWORD_HASHERS=FAST_HASHERS, BOT_MOVE_DELAY=0):
        out = StringIO()
        call_command("seed_demo", password="demo-pass-123", stdout=out)
        yield out.getvalue()


@pytest.mark.django_db
def test_home_page_says_what_the_site_is(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Run your Knock Rummy club" in html
    for preset in ("knock-rummy", "knock-rummy-hoyle", "knock-rami", "gin-rummy"):
        assert preset in html


@pytest.mark.django_db
def test_seed_demo_creates_a_club_players_and_logins(client: Client, demo_out: str) -> None:
    out = demo_out
    assert "admin / demo-pass-123" in out
    club = Club.objects.get(slug="riverside")
    # the 8 with logins, and 3 more who play in the demo cup (tests/league/test_demo.py)
    assert Player.objects.filter(club=club).count() == 11
    assert Membership.objects.filter(club=club, role="director").count() == 2
    assert client.login(username="admin", password="demo-pass-123")
    assert get_user_model().objects.get(username="admin").is_superuser
    assert "Riverside Knock Rummy Club" in client.get("/").content.decode()


@pytest.mark.django_db
def test_seed_demo_shows_games_of_every_kind(capsys: pytest.CaptureFixture[str]) -> None:
    """A finished bot game, a digital game waiting for Alice, a physical game recorded
    by the club's scorekeeper; seeding again opens no new game."""
    from games import store
    from games.models import Game
    from league.models import ClubGame

    single = Game.objects.filter(league_table__isnull=True).order_by("id")  # not a tournament's
    exhibition, table, recorded = single
    assert (exhibition.mode, exhibition.status) == ("digital", "finished")
    assert (table.mode, table.status) == ("digital", "playing")
    assert [seat["name"] for seat in table.seats] == ["Alice", "Steady bot", "Expert bot"]
    assert store.load_state(table).to_move == 0  # the bots have played up to Alice
    assert (recorded.mode, recorded.status, recorded.version) == ("physical", "finished", 6)
    assert ClubGame.objects.get(game=recorded).club.slug == "riverside"

    call_command("seed_demo", password="demo-pass-123")
    assert single.count() == 3

    home = Client().get("/").content.decode()
    assert f'href="/games/{table.pk}/"' in home  # each game links to its page, not to JSON
    assert "Alice, Steady bot, Expert bot" in home
    assert "Bruno, Chiara, Dmitri" in home
    out = capsys.readouterr().out
    assert f"http://127.0.0.1:8000/games/{table.pk}/" in out
    assert f"http://127.0.0.1:8000/games/{table.pk}/play  (alice)" in out


@pytest.mark.django_db
def test_seed_demo_points_at_the_pages_and_names_the_logins(capsys: pytest.CaptureFixture[str]) -> None:
    """The summary lists web pages, not API JSON: home, each tournament's page and desk,
    a live table's record page, the games, a player; and each login with its role. Every
    page it names answers."""
    import re

    from league.management.commands.seed_demo import live_table
    from league.models import Tournament

    call_command("seed_demo", password="demo-pass-123", base_url="http://demo.test:8000/")
    out = capsys.readouterr().out
    assert "/api/" not in out
    base = "http://demo.test:8000"
    assert f"Open {base}/ (the home page)" in out
    for tournament in Tournament.objects.all():
        assert f"{base}/tournaments/{tournament.pk}/\n" in out
        assert f"{base}/tournaments/{tournament.pk}/desk  (director)" in out
    swiss = Tournament.objects.get(name="Riverside Gin Swiss")
    live = live_table(swiss)
    assert live is not None and f"{base}/tables/{live.pk}/record  (scorekeeper" in out
    alice = Player.objects.get(name="Alice")
    assert f"{base}/players/{alice.pk}/" in out
    assert "admin / demo-pass-123  — site administrator" in out
    assert "director     — club director" in out and "scorekeeper  — records" in out
    assert "alice, bruno, chiara, dmitri, esther, farid, greta, hiro  — players" in out
    logins = {"(director)": "director", "(scorekeeper": "scorekeeper", "(alice)": "alice"}
    visited = []
    for url, after in re.findall(rf"{re.escape(base)}(/\S*)\s*(\S*)", out):
        if url.startswith("/admin"):
            continue
        client = Client()
        user = next((name for mark, name in logins.items() if after.startswith(mark)), None)
        if user is not None:
            assert client.login(username=user, password="demo-pass-123")
        assert client.get(url).status_code == 200, (url, user)
        visited.append(url)
    # home, 3 tournament pages and desks, the 2 running ones' projector and pairings, a
    # record page, the club's results, 3 games, a play page, a player; the people page,
    # My tables, My games and Ines's invitation
    assert len(visited) == 22, visited
    assert f"{base}/clubs/riverside/people/  (director)" in out
    assert f"{base}/mine/tables  (scorekeeper)" in out and f"{base}/mine/games  (alice)" in out
    assert re.search(rf"Ines's invitation to a login: +{re.escape(base)}/join/[0-9A-Z]{{12}}  \(or type", out)


@pytest.mark.django_db
def test_every_demo_game_has_a_page() -> None:
    """The demo's games — a finished bot game, a digital game waiting for Alice, a physical
    game recorded by its scorekeeper, the tournaments' games — each replay at every step,
    for anyone."""
    from games.models import Game

    alice = get_user_model().objects.get(username="alice")
    signed_in = Client()
    signed_in.force_login(alice)
    for game in Game.objects.order_by("id"):
        for client in (Client(), signed_in):
            for step in range(1, game.version + 1):
                assert client.get(f"/games/{game.pk}/?step={step}").status_code == 200
        if game.mode == "physical":
            html = Client().get(f"/games/{game.pk}/").content.decode()
            assert "How it was settled" in html or "Score sheet" in html
    waiting = Game.objects.get(mode="digital", status="playing", league_table__isnull=True)
    assert signed_in.get(f"/games/{waiting.pk}/play").status_code == 200


@pytest.mark.django_db
def test_seed_demo_is_idempotent() -> None:
    call_command("seed_demo", password="a-second-password", stdout=StringIO())
    assert Club.objects.count() == 1
    assert get_user_model().objects.get(username="alice").check_password("a-second-password")
    assert Player.objects.count() == 11


@pytest.mark.django_db
def test_api_schema_and_docs_are_served(client: Client) -> None:
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"openapi" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
