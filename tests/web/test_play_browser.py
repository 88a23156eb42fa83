"""Playing in a real browser: a signed-in player starts a practice game from the home page
and plays whole hands against the bots with the keyboard and the mouse — a knock-rummy
hand against two bots and a gin hand against one — through to the showdown.

The bots are Celery bot seats; here Celery runs eagerly inside the live server, with no
delay between bot moves (settings.BOT_MOVE_DELAY is 0 in tests)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from games import store
from games.models import Game
from tests.support.browser import shoot, sign_in

pytestmark = pytest.mark.browser


def version(page: Any) -> str:
    return str(page.get_attribute("#play", "data-version"))


def act(page: Any) -> str:
    """One move of the player's, by keyboard where the page offers a key: knock when
    possible, else draw from the stock (S) or pass the upcard (P), else discard the
    highest card of the deadwood (Tab to it, Enter). Returns what was done."""
    before = version(page)
    if page.locator("#act-knock").count():
        page.keyboard.press("k")  # K focuses the first knock button
        page.keyboard.press("Enter")
        # a knock is asked once more; the confirmation takes the keyboard's focus
        page.wait_for_selector("#act-knock-confirm:focus")
        shoot(page, "play-knock-confirm")
        page.keyboard.press("Enter")
        done = "knock"
    elif page.locator("#act-stock").count():
        page.keyboard.press("s")
        done = "draw"
    elif page.locator("#act-pass").count():
        page.keyboard.press("p")
        done = "pass"
    elif page.locator("#act-decline").count():
        page.click("#act-decline")
        done = "decline"
    elif page.locator("#act-restock").count():
        page.click("#act-restock")
        done = "restock"
    else:
        enabled = page.locator("#play .deadwood button.card-button")
        if not enabled.count():
            enabled = page.locator("#play button.card-button")
        card = enabled.last
        card.focus()
        page.keyboard.press("Enter")
        done = "discard"
    page.wait_for_function("v => document.querySelector('#play').dataset.version !== v", arg=before)
    return done


def play_to_the_showdown(page: Any, max_moves: int = 200) -> list[str]:
    moves: list[str] = []
    while not page.locator("#play .showdown").count():
        assert len(moves) < max_moves, f"no showdown after {moves}"
        assert page.locator("#play .notice").count() == 0, page.locator("#play .notice").inner_text()
        status = page.locator("#status-line").inner_text()
        assert status.startswith("Your turn"), status  # the bots have answered at once
        moves.append(act(page))
    return moves


def start_practice(page: Any, live_server: Any, preset: str, bots: str) -> Game:
    page.goto(live_server.url + "/")
    page.select_option("#practice-preset", preset)
    page.select_option("#practice-opponents", bots)
    page.click("text=Start a practice game")
    page.wait_for_url("**/play")
    return Game.objects.get(pk=int(page.url.rstrip("/").split("/")[-2]))


@pytest.mark.parametrize(("preset", "bots"), [("knock-rummy", "2"), ("gin-rummy", "1")])
def test_a_player_plays_a_whole_hand_against_bots(
    games_db: None, live_server: Any, page: Any, ann: Any, eager_celery: None, preset: str, bots: str
) -> None:
    sign_in(page, live_server.url, ann)
    game = start_practice(page, live_server, preset, bots)
    assert [seat["bot"] for seat in game.seats] == [None] + ["steady"] * int(bots)  # the normal level
    assert page.locator("#status-line").inner_text().startswith("Your turn")
    # Only legal moves are offered: before drawing, no card can be discarded.
    assert page.locator("#play button.card-button").count() == 0
    hand = page.locator(".play-hand .card")
    assert hand.count() == (7 if preset == "knock-rummy" else 10)
    assert hand.first.get_attribute("aria-label").count(" of ") == 1  # "seven of hearts"
    shoot(page, f"play-{preset}-start")
    moves = play_to_the_showdown(page)
    if moves == ["pass"]:
        # Gin opens with the upcard: the bot may take the one the player passed and knock
        # at once, before the player has drawn (a random deal does that now and then).
        assert preset == "gin-rummy"
        assert "(a bot) knocked and ended hand 1" in page.locator("#knock-news").inner_text()
    else:
        assert "discard" in moves or "knock" in moves, moves
    showdown = page.locator("#play .showdown")
    assert "How it was settled" in showdown.inner_text()
    # The next deal follows the showdown: the player holds a new hand, or the game is over.
    state = store.load_state(Game.objects.get(pk=game.pk), use_cache=False)
    assert state.tally.results, "no hand was scored"
    if state.status != "finished":
        assert state.hand is not None and state.hand.number == len(state.tally.results) + 1
        assert page.locator(".play-hand .card").count() >= (7 if preset == "knock-rummy" else 10)
    shoot(page, f"play-{preset}-showdown")


def test_another_players_move_arrives_without_a_reload(
    games_db: None, live_server: Any, page: Any, owner: Any, ann: Any, bob: Any
) -> None:
    """While ann waits, her page polls; unchanged polls are 304s and leave the page as it
    is, and bob's move (sent from elsewhere) shows up within seconds, without a reload."""
    from games.services import SeatSpec
    from tests.support.games import new_game, play

    created = new_game(owner, [SeatSpec(user_id=ann.pk), SeatSpec(user_id=bob.pk)], first_dealer=0)
    game_id = created.game.pk
    polls: list[int] = []
    page.on("response", lambda r: polls.append(r.status) if "/play/state" in r.url else None)
    sign_in(page, live_server.url, ann)
    page.goto(f"{live_server.url}/games/{game_id}/play")
    assert page.locator("#status-line").inner_text() == "Waiting for bob…"
    page.wait_for_timeout(2500)
    assert polls and set(polls) == {304}
    assert page.locator("#status-line").inner_text() == "Waiting for bob…"  # a 304 swaps nothing
    page.evaluate("window.notReloaded = true")
    drawn = play(game_id, bob, {"type": "DrawFromStock", "seat": 1}).state
    hand = engine.view(drawn, 1).hand
    assert hand is not None
    play(game_id, bob, {"type": "Discard", "seat": 1, "card": hand[0].code})
    page.wait_for_function(
        "() => document.querySelector('#status-line').textContent.startsWith('Your turn')", timeout=5000
    )
    assert page.evaluate("window.notReloaded") is True
    assert 200 in polls


def test_the_practice_form_offers_bot_levels(games_db: None, live_server: Any, page: Any, ann: Any) -> None:
    sign_in(page, live_server.url, ann)
    page.goto(live_server.url + "/")
    levels = page.locator("#practice-level option")
    assert levels.all_inner_texts() == ["Easy", "Normal", "Expert"]
    assert page.locator("#practice-level").input_value() == "normal"
    said = page.locator("#practice-levels li").all_inner_texts()
    assert len(said) == 3 and said[2].startswith("Expert: Also reads what you take")
    page.select_option("#practice-preset", "gin-rummy")
    page.select_option("#practice-level", "expert")
    shoot(page, "practice-levels")
    page.click("text=Start a practice game")
    page.wait_for_url("**/play")
    game = Game.objects.get(pk=int(page.url.rstrip("/").split("/")[-2]))
    assert [seat["bot"] for seat in game.seats] == [None, "expert"]
