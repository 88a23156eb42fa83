"""manage.py verify_games and replay_game."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games import services
from games.models import Game, GameEvent, Source
from tests.support.games import new_game

pytestmark = pytest.mark.django_db


def run(*args: Any) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def finished_game(owner: Any) -> Game:
    bots = [services.SeatSpec("Gus", bot="greedy"), services.SeatSpec("Rex", bot="random")]
    game = new_game(owner, bots, hands=2).game
    # One task plays at most BOT_MOVES_PER_TASK moves, and the next task's outbox row is
    # sent on commit, which a test transaction never reaches: play task after task.
    while game.status != "finished":
        assert services.run_bot_turns(game_id=game.pk, expected_version=game.version) > 0
        game.refresh_from_db()
    return game


def test_verify_games_passes_sound_games(duel: services.SubmitResult, owner: Any) -> None:
    new_game(owner, [services.SeatSpec("A"), services.SeatSpec("B")], mode="physical")
    assert "2 game(s) replay and match their snapshots" in run("verify_games")


def test_verify_games_reports_a_snapshot_that_differs(duel: services.SubmitResult) -> None:
    Game.objects.filter(pk=duel.game.pk).update(snapshot={"version": 2})
    with pytest.raises(CommandError, match="1 problem"):
        call_command("verify_games", stdout=StringIO())
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("verify_games", str(duel.game.pk), stdout=out)
    assert f"game {duel.game.pk}: the cached snapshot at version 2 differs from the replay" in out.getvalue()


def test_verify_games_reports_a_log_that_no_longer_replays(duel: services.SubmitResult) -> None:
    GameEvent.objects.create(
        game_id=duel.game.pk,
        seq=3,
        position=999,
        type="Shuffled",
        schema_version=1,
        data={},
        source=Source.SYSTEM,
        idempotency_key="x",
        command_digest="",
    )
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("verify_games", stdout=out)
    assert "no longer replays: unknown event type 'Shuffled'" in out.getvalue()


def test_verify_games_reports_a_version_the_log_does_not_reach(duel: services.SubmitResult) -> None:
    Game.objects.filter(pk=duel.game.pk).update(version=7)
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("verify_games", stdout=out)
    assert "replays to version 2, the game says 7" in out.getvalue()


def test_replay_game_prints_the_game_hand_by_hand(finished_game: Game) -> None:
    text = run("replay_game", str(finished_game.pk))
    assert text.startswith(f"Game {finished_game.pk}: knock-rummy, digital, Gus, Rex")
    assert "\n     1 GameStarted: knock-rummy, digital, first dealer Rex, stake 0\n" in text
    assert "\nHand 1 (dealer Rex)" in text and "\nHand 2 (dealer Gus)" in text
    assert "scores: Gus " in text and "draws from the" in text and " discards " in text
    assert f"\nfinished at version {finished_game.version}\n" in text
    assert text.rstrip().splitlines()[-1].startswith("result: ")


def test_replay_game_of_an_unknown_game_fails() -> None:
    with pytest.raises(CommandError, match="there is no game 424242"):
        call_command("replay_game", "424242", stdout=StringIO())


def test_verify_games_reports_a_bot_this_server_cannot_run(
    finished_game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.bots import BOTS

    monkeypatch.delitem(BOTS, "random")  # the log was written by a server that had it
    out = StringIO()
    with pytest.raises(CommandError, match="1 problem"):
        call_command("verify_games", stdout=out)
    assert (
        f"game {finished_game.pk}: the log seats a bot this server cannot run: "
        "event 0, seat 1: there is no bot 'random' (bots: expert, greedy, steady)"
    ) in out.getvalue()
