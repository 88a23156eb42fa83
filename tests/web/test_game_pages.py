"""The game page (replay viewer), the play page and its poll, and practice games, for
each kind of visitor: the seated player, another player, a spectator, a club director."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

import engine
from engine.bots import get_bot
from engine.scoring import score_counts
from games import store
from games.models import Game
from tests.support.web_games import LiveTable, finished_game, live_table
from web import replay
from web.words import points_text


@pytest.fixture
def table(owner: Any, ann: Any, bob: Any, make_user: Any) -> LiveTable:
    return live_table(owner, ann, bob, make_user("dina"))


def signed_in(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


# --- the replay viewer -------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_replay_steps_through_the_log(owner: Any, ann: Any) -> None:
    game = finished_game(owner, ann, hands=2)
    client = Client()
    first = client.get(f"/games/{game.pk}/?step=1").content.decode()
    assert "Step 1 of" in first and "The game started: ann, Bo and Cy play knock-rummy." in first
    second = client.get(f"/games/{game.pk}/?step=2").content.decode()
    assert "Step 2 of" in second and "Hand 1:" in second and " dealt" in second
    latest = client.get(f"/games/{game.pk}/").content.decode()
    assert f"Step {game.version} of {game.version}" in latest
    assert "The game is over" in latest
    for junk in ("abc", "0", "99999999", "-3", "²"):
        page = client.get(f"/games/{game.pk}/", {"step": junk})
        assert page.status_code == 200
    assert "Step 1 of" in client.get(f"/games/{game.pk}/?step=0").content.decode()
    assert f"Step {game.version} of" in client.get(f"/games/{game.pk}/?step=99999999").content.decode()


@pytest.mark.django_db
def test_jumping_to_a_hand_opens_its_deal(owner: Any, ann: Any) -> None:
    game = finished_game(owner, ann, hands=2)
    html = Client().get(f"/games/{game.pk}/?hand=2").content.decode()
    assert "Hand 2: " in html.split('id="move-text"')[1].split("</p>")[0]
    assert '<option value="2" selected>' in html


@pytest.mark.django_db
def test_a_finished_game_shows_every_face_its_showdowns_and_its_export(owner: Any, ann: Any) -> None:
    game = finished_game(owner, ann, hands=2)
    html = Client().get(f"/games/{game.pk}/").content.decode()
    assert "face-down card" not in html.split("Stock")[0]  # every hand face up
    assert "How it was settled" in html
    assert "Score sheet" in html and '<th scope="row"><a href="?hand=2">2</a></th>' in html
    assert f'href="/api/v1/games/{game.pk}/export"' in html
    export = Client().get(f"/api/v1/games/{game.pk}/export")
    assert export.status_code == 200 and export.json()["game"]["id"] == game.pk


@pytest.mark.django_db
def test_a_live_game_offers_no_export_and_hides_other_hands(table: LiveTable) -> None:
    html = Client().get(f"/games/{table.game.pk}/").content.decode()
    assert "/export" not in html
    assert "can be downloaded once the game is over" in html
    assert html.count('aria-label="face-down card"') >= 21  # three hands of 7 or 8, face down


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["ann", "bob", "director", "owner", None])
def test_everyone_may_open_the_game_page(table: LiveTable, who: str | None) -> None:
    user = table.users[who] if who else None
    response = signed_in(user).get(f"/games/{table.game.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert ("Play your seat" in html) == (who in ("ann", "bob"))


@pytest.mark.django_db
def test_an_unknown_game_is_a_404_page(client: Client) -> None:
    assert client.get("/games/987654/").status_code == 404
    assert client.get("/games/987654/play/state?v=1").status_code in (403, 404)


# --- settlements in words -----------------------------------------------------------------------


def scored(preset: str, deadwood: dict[int, int], knocker: int | None) -> dict[str, Any]:
    counted = score_counts(engine.get_ruleset(preset), deadwood, knocker)
    return {
        "hand_number": 1,
        "outcome": counted.outcome,
        "knocker": knocker,
        "deadwood": {str(s): d for s, d in deadwood.items()},
        "points": {str(s): str(p) for s, p in counted.points.items()},
    }


NAMES = ["Ann", "Bo", "Cy", "Di"]


def test_a_tied_knock_is_explained() -> None:
    lines = replay.explain(
        engine.get_ruleset("knock-rummy"), scored("knock-rummy", {2: 4, 0: 4, 1: 10}, 2), NAMES
    )
    assert lines == [
        "Cy knocked with 4.",
        "Ann ties the knocker at 4 → Cy steps aside, neither paying nor receiving.",
        "Bo pays 10 \u2212 4 = 6.",
        "Ann receives 6.",
    ]


def test_a_lost_knock_pays_the_penalty() -> None:
    lines = replay.explain(
        engine.get_ruleset("knock-rummy"), scored("knock-rummy", {2: 8, 0: 4, 1: 10}, 2), NAMES
    )
    assert "Cy pays 8 \u2212 4 + 10 penalty for a lost knock = 14." in lines
    assert lines[-1] == "Ann receives 20."


def test_seed_000s_worked_example_is_explained() -> None:
    data = scored("knock-rummy", {0: 12, 1: 28, 2: 21, 3: 10}, 0)
    lines = replay.explain(engine.get_ruleset("knock-rummy"), data, NAMES)
    assert lines[1] == "The lowest count is 10: Di."
    assert lines[-1] == "Di receives 41."


def test_a_rum_and_a_gin_are_explained() -> None:
    rum = replay.explain(
        engine.get_ruleset("knock-rummy"), scored("knock-rummy", {0: 0, 1: 7, 2: 3}, 0), NAMES
    )
    assert rum[1:] == ["Bo pays 7 + 25 rum bonus = 32 to Ann.", "Cy pays 3 + 25 rum bonus = 28 to Ann."]
    gin = replay.explain(engine.get_ruleset("gin-rummy"), scored("gin-rummy", {0: 0, 1: 12}, 0), NAMES)
    assert gin == ["Ann went gin.", "Bo has 12 → Ann scores 12 + 25 gin bonus = 37."]
    undercut = replay.explain(engine.get_ruleset("gin-rummy"), scored("gin-rummy", {0: 6, 1: 4}, 0), NAMES)
    assert undercut[-1] == "Bo has 4, undercutting Ann → Bo scores 6 \u2212 4 + 25 undercut bonus = 27."


def test_points_that_do_not_add_up_are_listed_not_explained() -> None:
    data = scored("knock-rummy", {0: 4, 1: 10}, 0)
    data["points"] = {"0": "5", "1": "-5"}
    assert replay.explain(engine.get_ruleset("knock-rummy"), data, NAMES) == ["Points: Ann +5, Bo -5."]


@pytest.mark.parametrize("preset", ["knock-rummy", "knock-rummy-hoyle", "knock-rami", "gin-rummy"])
def test_every_scored_hand_is_explained_with_the_engines_own_sums(preset: str) -> None:
    """Thousands of random showdowns: the words' sums are always the engine's points."""
    rules = engine.get_ruleset(preset)
    rng = random.Random(preset)
    for _ in range(2000):
        seats = rng.randint(2, 4)
        deadwood = {s: rng.choice([0, 0, rng.randint(0, 12), rng.randint(0, 60)]) for s in range(seats)}
        knocker = rng.choice([None, *range(seats)]) if rules.scoring != "gin" else rng.randrange(seats)
        if knocker is not None and rules.knock_max_deadwood is not None:
            deadwood[knocker] = min(deadwood[knocker], rules.knock_max_deadwood)
        lines = replay.explain(rules, scored(preset, deadwood, knocker), NAMES)
        assert lines and not lines[0].startswith("Points:"), (deadwood, knocker, lines)


def test_points_are_written_with_their_sign() -> None:
    assert [points_text(v) for v in (Fraction(20, 3), Fraction(-12), 0)] == ["+20/3", "-12", "0"]


# --- the play page ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_only_the_seated_player_may_open_the_play_page(table: LiveTable, make_user: Any) -> None:
    url = f"/games/{table.game.pk}/play"
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/login/")
    outsider = make_user("carl")  # a player of the club, not seated in this game
    for user in (table.users["director"], table.users["owner"], outsider):
        refused = signed_in(user).get(url)
        assert refused.status_code == 403
        assert "Only the players seated in this game may play it." in refused.content.decode()
    assert signed_in(table.users["ann"]).get(url).status_code == 200
    assert signed_in(table.users["bob"]).get(url).status_code == 200


@pytest.mark.django_db
def test_a_physical_game_is_not_played_here(owner: Any, ann: Any) -> None:
    from games.services import SeatSpec
    from tests.support.games import new_game

    created = new_game(owner, [SeatSpec(user_id=ann.pk), SeatSpec(name="Bo")], mode="physical")
    assert signed_in(ann).get(f"/games/{created.game.pk}/play").status_code == 403


def post_move(client: Client, game: Game, move: str, *, version: int | None = None, **extra: Any) -> Any:
    current = Game.objects.get(pk=game.pk).version
    data = {"move": move, "version": str(current if version is None else version), **extra}
    return client.post(
        f"/games/{game.pk}/play", data, **{k: v for k, v in extra.items() if k.startswith("HTTP_")}
    )


@pytest.mark.django_db
def test_only_legal_moves_are_offered_and_accepted(owner: Any, ann: Any, bob: Any) -> None:
    from games.services import SeatSpec
    from tests.support.games import new_game

    created = new_game(owner, [SeatSpec(user_id=ann.pk), SeatSpec(user_id=bob.pk)], first_dealer=1)
    game, client = created.game, signed_in(ann)
    html = client.get(f"/games/{game.pk}/play").content.decode()
    assert 'value="DrawFromStock"' in html and 'value="DrawFromDiscard"' in html
    assert 'value="Discard:' not in html  # nothing to discard before drawing
    version = Game.objects.get(pk=game.pk).version
    hand = store.load_state(game).hand
    assert hand is not None
    a_card = engine.Card.parse(next(iter(c.code for c in engine.view(store.load_state(game), 0).hand or ())))
    refused = post_move(client, game, f"Discard:{a_card.code}")
    assert refused.status_code == 400 and "That move is not open to you now." in refused.content.decode()
    for junk in ("", "Discard:ZZ", "Explode", "Knock:"):
        assert post_move(client, game, junk).status_code == 400
    assert post_move(client, game, "DrawFromStock", version=-1).status_code == 400
    assert Game.objects.get(pk=game.pk).version == version  # nothing was written
    drawn = post_move(client, game, "DrawFromStock", idempotency_key="k" * 20)
    assert drawn.status_code == 302 and drawn["Location"] == f"/games/{game.pk}/play"
    assert Game.objects.get(pk=game.pk).version == version + 1
    html = client.get(f"/games/{game.pk}/play").content.decode()
    held = engine.view(store.load_state(Game.objects.get(pk=game.pk)), 0).hand or ()
    assert len(held) == 11  # ten dealt to each of two players, and the card drawn
    assert html.count('name="move" value="Discard:') == len(held)
    # bob may not act for ann, and a stale form is answered with the table as it is now
    assert "not open to you" in post_move(signed_in(bob), game, "DrawFromStock").content.decode()
    stale = post_move(client, game, "DrawFromStock", version=version)
    assert "The game moved on" in stale.content.decode()


@pytest.mark.django_db
def test_a_double_post_of_one_form_plays_once(owner: Any, ann: Any, bob: Any) -> None:
    from games.services import SeatSpec
    from tests.support.games import new_game

    created = new_game(owner, [SeatSpec(user_id=ann.pk), SeatSpec(user_id=bob.pk)], first_dealer=1)
    client = signed_in(ann)
    version = created.game.version
    for _ in range(2):
        post_move(client, created.game, "DrawFromStock", version=version, idempotency_key="same-form-key")
    assert Game.objects.get(pk=created.game.pk).version == version + 1


@pytest.mark.django_db
def test_an_htmx_move_gets_the_table_back_and_the_bots_answer(
    owner: Any, ann: Any, eager_celery: None, django_capture_on_commit_callbacks: Any
) -> None:
    from games.services import SeatSpec
    from tests.support.games import new_game

    with django_capture_on_commit_callbacks(execute=True):
        created = new_game(owner, [SeatSpec(user_id=ann.pk), SeatSpec(bot="greedy")], first_dealer=1)
    game, client = created.game, signed_in(ann)
    post_move(client, game, "DrawFromStock")
    hand = engine.view(store.load_state(Game.objects.get(pk=game.pk)), 0).hand
    assert hand is not None
    with django_capture_on_commit_callbacks(execute=True):
        response = post_move(client, game, f"Discard:{hand[0].code}", HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and html.startswith('<div id="play"')
    assert 'data-version="4"' in html  # started, dealt, drawn, discarded
    # (the bots' turn runs once the write commits: in a test, when the capture ends)
    state = store.load_state(Game.objects.get(pk=game.pk))
    assert state.version > 4 and (state.to_move == 0 or state.status != "playing")


@pytest.mark.django_db
def test_an_unchanged_poll_is_a_304_at_one_query_for_the_game(table: LiveTable) -> None:
    client = signed_in(table.users["ann"])
    game = Game.objects.get(pk=table.game.pk)
    url = f"/games/{game.pk}/play/state"
    changed = client.get(url, {"v": game.version - 1})
    assert changed.status_code == 200 and changed["ETag"] == f'"game-{game.pk}-v{game.version}"'
    assert changed["Cache-Control"] == "no-store"
    assert 'hx-trigger="every 1s"' in changed.content.decode()  # ann waits for Cy: keep polling
    with CaptureQueriesContext(connection) as queries:
        unchanged = client.get(url, {"v": game.version})
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert len(queries) <= 3  # the session, the user, the game row
    by_etag = client.get(url, HTTP_IF_NONE_MATCH=changed["ETag"])
    assert by_etag.status_code == 304
    assert Client().get(url, {"v": game.version}).status_code == 403
    assert signed_in(table.users["director"]).get(url, {"v": 0}).status_code == 403


# --- practice games ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_home_page_offers_practice_to_signed_in_players(ann: Any) -> None:
    assert "Start a practice game" not in Client().get("/").content.decode()
    html = signed_in(ann).get("/").content.decode()
    assert "Start a practice game" in html and '<option value="gin-rummy">' in html


@pytest.mark.django_db
@pytest.mark.parametrize(("preset", "seats"), [("gin-rummy", 2), ("knock-rummy", 3)])
def test_a_practice_game_seats_the_player_against_bots(
    ann: Any, preset: str, seats: int, eager_celery: None, django_capture_on_commit_callbacks: Any
) -> None:
    client = signed_in(ann)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/games/practice/", {"preset": preset, "pace": "fast", "idempotency_key": "p" * 16}
        )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/play"
    assert len(game.seats) == seats and game.seats[0]["user"] == ann.pk
    assert all(seat["bot"] == "steady" for seat in game.seats[1:])  # the normal level
    assert (game.owner_id, game.bot_delay) == (ann.pk, 0.0)
    assert store.load_state(game).to_move == 0
    assert f'href="/games/{game.pk}/play"' in client.get("/").content.decode()  # listed in play
    client.post("/games/practice/", {"preset": preset, "pace": "fast", "idempotency_key": "p" * 16})
    assert Game.objects.count() == 1  # the same form posted twice starts one game


@pytest.mark.django_db
@pytest.mark.parametrize(
    "form",
    [
        {"preset": "chess"},
        {"preset": "gin-rummy", "pace": "warp"},
        {"preset": "gin-rummy", "opponents": "9"},  # refused, never read as the rules' suggestion
        {"preset": "gin-rummy", "level": "greedy"},  # a level, not a bot's name
    ],
)
def test_a_bad_practice_form_says_why_and_starts_nothing(ann: Any, form: dict[str, str]) -> None:
    response = signed_in(ann).post("/games/practice/", form, follow=True)
    html = response.content.decode()
    assert Game.objects.count() == 0
    assert "Choose" in html


@pytest.mark.django_db
@pytest.mark.parametrize(("level", "bot"), [("easy", "greedy"), ("normal", "steady"), ("expert", "expert")])
def test_the_practice_form_offers_each_level_with_how_it_plays(ann: Any, level: str, bot: str) -> None:
    client = signed_in(ann)
    html = client.get("/").content.decode()
    assert f'<option value="{level}"' in html
    assert '<option value="normal" selected>' in html
    assert "guesses your hand" in html  # each level says how it plays
    client.post("/games/practice/", {"preset": "gin-rummy", "level": level, "idempotency_key": "l" * 16})
    assert [seat["bot"] for seat in Game.objects.get().seats] == [None, bot]


@pytest.mark.django_db
def test_practice_needs_a_signed_in_player_and_a_post(ann: Any) -> None:
    assert Client().post("/games/practice/", {"preset": "gin-rummy"})["Location"].startswith("/login/")
    assert signed_in(ann).get("/games/practice/").status_code == 405
    assert Game.objects.count() == 0


def _until_ann_may_knock(game: Game, owner: Any) -> engine.Knock:
    """Play both seats greedily (seat 1 never knocks) until Ann, at seat 0, may knock;
    her first knock then."""
    from games import services

    rng = random.Random(7)
    for _ in range(600):
        fresh = Game.objects.get(pk=game.pk)
        state = store.load_state(fresh)
        seat = engine.view(state, 0).to_move
        view = engine.view(state, seat)
        knocks = [c for c in view.legal_commands if isinstance(c, engine.Knock) and c.card is not None]
        if seat == 0 and knocks:
            return knocks[0]
        command = get_bot("greedy")(view, rng)
        if isinstance(command, engine.Knock):  # nobody knocks on the way
            command = (
                engine.Discard(seat, command.card) if command.card is not None else view.legal_commands[0]
            )
        services.submit_command(
            game=fresh,
            command=engine.command_to_dict(command),
            actor=owner,
            source=services.Source.API,
            expected_version=fresh.version,
        )
    raise AssertionError("Ann never could knock")


@pytest.mark.django_db
def test_a_knock_is_asked_once_more_before_it_is_sent(owner: Any, ann: Any, bob: Any) -> None:
    """Issue 27 §6: a digital knock ends the hand for everyone, so the play page asks."""
    from games.services import SeatSpec
    from tests.support.games import new_game

    game = new_game(owner, [SeatSpec(user_id=ann.pk), SeatSpec(user_id=bob.pk)], first_dealer=1).game
    knock = _until_ann_may_knock(game, owner)
    assert knock.card is not None
    client, version = signed_in(ann), Game.objects.get(pk=game.pk).version
    move = f"Knock:{knock.card.code}"
    asked = client.post(f"/games/{game.pk}/play", {"move": move, "version": version, "idempotency_key": "k1"})
    html = asked.content.decode()
    assert asked.status_code == 200 and 'id="act-knock-confirm"' in html
    assert "face down?" in html and 'name="confirmed" value="yes"' in html
    assert Game.objects.get(pk=game.pk).version == version  # nothing sent yet
    sent = client.post(
        f"/games/{game.pk}/play",
        {"move": move, "version": version, "confirmed": "yes", "idempotency_key": "k2"},
    )
    assert sent.status_code == 302 and Game.objects.get(pk=game.pk).version > version
    # Bob's page now says at the top that Ann knocked
    page = signed_in(bob).get(f"/games/{game.pk}/play").content.decode()
    news = page.index('id="knock-news"')
    assert "ann knocked and ended hand 1." in page, page[news : news + 300]
    assert news < page.index('class="showdown"')
    assert 'id="knock-news"' not in signed_in(ann).get(f"/games/{game.pk}/play").content.decode()


@pytest.mark.django_db
def test_a_knock_not_open_is_refused_not_asked(owner: Any, ann: Any, bob: Any) -> None:
    from games.services import SeatSpec
    from tests.support.games import new_game

    game = new_game(owner, [SeatSpec(user_id=ann.pk), SeatSpec(user_id=bob.pk)], first_dealer=1).game
    version = Game.objects.get(pk=game.pk).version
    refused = signed_in(ann).post(f"/games/{game.pk}/play", {"move": "Knock:AS", "version": version})
    assert refused.status_code == 400 and 'id="act-knock-confirm"' not in refused.content.decode()
