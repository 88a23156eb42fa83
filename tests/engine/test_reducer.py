"""The reducer carries over every field of a hand that a move does not change."""

from __future__ import annotations

import dataclasses

from engine import (
    DealHand,
    Discard,
    DrawFromStock,
    StartGame,
    apply,
    decide,
    get_ruleset,
    replay,
    shuffled_deck,
)
from engine.cards import Card
from engine.state import GameState


def _move(state: GameState, command: DrawFromStock | Discard) -> GameState:
    for event in decide(state, command):
        state = apply(state, event)
    return state


def test_a_draw_and_a_discard_keep_the_hand_fields_they_do_not_name() -> None:
    rs = get_ruleset("knock-rummy")
    log = decide(None, StartGame(rs, ("Ann", "Bo")))
    log += decide(replay(log), DealHand(deck=shuffled_deck(rs, seed=4)))
    state = replay(log)
    assert state.hand is not None
    melds = ((Card.parse("AS"), Card.parse("2S"), Card.parse("3S")),)
    # Fields set earlier must survive the moves that do not concern them: the positional
    # HandState(...) calls of the draw and the discard once reset knocker_melds to None.
    state = dataclasses.replace(state, hand=dataclasses.replace(state.hand, knocker_melds=melds, restocks=1))
    seat = state.hand.to_move if state.hand is not None else -1
    drawn = _move(state, DrawFromStock(seat=seat))
    assert drawn.hand is not None
    assert (drawn.hand.knocker_melds, drawn.hand.restocks, drawn.hand.phase) == (melds, 1, "discard")
    card = drawn.hand.hand_cards(seat)[0]
    after = _move(drawn, Discard(seat=seat, card=card))
    assert after.hand is not None
    assert (after.hand.knocker_melds, after.hand.restocks, after.hand.turns) == (melds, 1, 1)
