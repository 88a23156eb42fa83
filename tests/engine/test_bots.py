"""Baseline bots: pure functions of one seat's view, always choosing a legal command."""

from __future__ import annotations

import random

import pytest

from engine import (
    Card,
    DealHand,
    DrawFromDiscard,
    DrawFromStock,
    Knock,
    PassUpcard,
    StartGame,
    apply,
    decide,
    get_ruleset,
    parse_cards,
    replay,
    shuffled_deck,
    view,
)
from engine.bots import BOTS, get_bot
from tests.support.table import Table

C = Card.parse


def test_registry() -> None:
    assert set(BOTS) == {"random", "greedy", "steady", "expert"}
    assert get_bot("greedy") is BOTS["greedy"]
    with pytest.raises(KeyError, match="no bot 'clever'; bots: expert, greedy, random, steady"):
        get_bot("clever")


@pytest.mark.parametrize("preset", ["knock-rummy", "hoyle", "rami", "gin"])
@pytest.mark.parametrize("name", ["random", "greedy", "steady", "expert"])
def test_bots_play_only_legal_commands(preset: str, name: str) -> None:
    bot = get_bot(name)
    rng = random.Random(1)
    ruleset = get_ruleset(preset)
    state = replay(decide(None, StartGame(ruleset, ("A", "B", "C"))))
    for _ in range(300):
        if state.status == "finished":
            break
        if state.needs_deal:
            events = decide(state, DealHand(deck=shuffled_deck(ruleset, rng.random())))
        else:
            seen = view(state, state.to_move)
            command = bot(seen, rng)
            assert command in seen.legal_commands
            events = decide(state, command)
        for event in events:
            state = apply(state, event)


@pytest.mark.parametrize("preset", ["knock-rummy", "hoyle", "rami", "gin"])
def test_greedy_bots_finish_a_game(preset: str) -> None:
    bot = get_bot("greedy")
    rng = random.Random(2)
    ruleset = get_ruleset(preset)
    state = replay(decide(None, StartGame(ruleset, ("A", {"name": "B", "bot": "greedy"}))))  # type: ignore[arg-type]
    steps = 0
    while state.status != "finished":
        steps += 1
        assert steps < 5000
        if state.needs_deal:
            command = DealHand(deck=shuffled_deck(ruleset, rng.random()))
        else:
            command = bot(view(state, state.to_move), rng)  # type: ignore[assignment]
        for event in decide(state, command):
            state = apply(state, event)
    assert state.result is not None


def test_greedy_takes_a_useful_discard_and_knocks_at_its_threshold() -> None:
    table = Table(get_ruleset("gin"), ["A", "B"])
    table.deal(["2C 3C 4C 5H 5D 5S 9D TD JD 8S", "7H 8H 9H KC KS KD 6C 6D 6H 4S"], "QD", "KH")
    greedy = get_bot("greedy")
    rng = random.Random(0)
    # QD extends 9-T-J of diamonds: seat 1 takes it.
    assert greedy(view(table.s, 1), rng) == DrawFromDiscard(1)
    table.do(PassUpcard(1))
    assert greedy(view(table.s, 0), rng) == PassUpcard(0)  # QD does not help seat 0
    table.do(PassUpcard(0))
    assert greedy(view(table.s, 1), rng) == DrawFromStock(1)
    table.do(DrawFromStock(1))
    # 8S + KH: discard KH, keep 8 deadwood, within gin's limit of 10: knock.
    assert greedy(view(table.s, 1), rng) == Knock(1, C("KH"))


def test_a_bot_sees_only_its_view() -> None:
    table = Table(get_ruleset("knock-rummy"), ["A", "B"])
    table.deal(["AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH"], "KD")
    seen = view(table.s, 1)
    assert seen.hand == parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S TS")
    assert "AH" not in str(seen.to_dict())
