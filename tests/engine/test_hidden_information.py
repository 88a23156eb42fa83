"""No view shows a card its viewer may not know: random games of every preset, both modes."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine import (
    DealHand,
    GameState,
    StartGame,
    apply,
    decide,
    full_deck,
    get_ruleset,
    legal_commands,
    shuffled_deck,
    view,
)
from engine.cards import ALL_CARDS, mask_to_cards
from engine.rules import PRESETS
from tests.support.json_values import strings_in

# The previous hand, public once scored.
PUBLIC_ONCE_SCORED = ("last_hand",)


def _hidden_from(state: GameState, viewer: int | None, face_up: set[int]) -> set[str]:
    """Codes of the cards ``viewer`` may not know: other seats' hands and the stock order,
    but for the cards the table saw face up this hand (``face_up``: every card that lay on
    the discard pile, taken or turned over since)."""
    hand = state.hand
    if state.status != "playing" or hand is None:
        return set()
    public = set(hand.pile) | face_up
    for mask in hand.revealed:
        if mask >= 0:
            public.update(c.index for c in mask_to_cards(mask))
    hidden = {i for i in hand.stock if i >= 0} if state.mode == "digital" else set()
    for seat, mask in enumerate(hand.hands):
        if seat != viewer:
            hidden.update(c.index for c in mask_to_cards(mask))
    return {ALL_CARDS[i].code for i in hidden - public}


def _deal(state: GameState, rng: random.Random) -> DealHand:
    rs = state.ruleset
    if state.mode == "digital":
        return DealHand(deck=shuffled_deck(rs, seed=rng.randrange(10**6)))
    # The scorekeeper knows every hand: the case where leaking them would matter.
    deck = list(full_deck(rs.jokers))
    rng.shuffle(deck)
    seats = [s for s, out in enumerate(state.tally.eliminated) if not out]
    size = rs.cards_per_player(len(seats))
    hands = {s: tuple(deck[i * size : (i + 1) * size]) for i, s in enumerate(seats)}
    return DealHand(upcard=deck[len(seats) * size], hands=hands)


def _play(preset: str, mode: str, seed: int) -> Iterator[GameState]:
    rng = random.Random(f"{preset}:{mode}:{seed}")
    rs = get_ruleset(preset)
    players = rng.randint(rs.min_players, rs.max_players)
    state: GameState | None = None
    for event in decide(None, StartGame(rs, tuple(f"P{i}" for i in range(players)), mode)):
        state = apply(state, event)
    assert state is not None
    for _ in range(120):
        yield state
        if state.status == "awaiting_deal":
            command: Any = _deal(state, rng)
        else:
            options = legal_commands(state)
            if not options:
                return
            command = rng.choice(options)
        for event in decide(state, command):
            state = apply(state, event)


@pytest.mark.parametrize("mode", ["digital", "physical"])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_no_view_holds_a_card_its_viewer_may_not_know(preset: str, mode: str) -> None:
    checked = 0
    for seed in range(3):
        face_up: dict[int, set[int]] = {}
        for state in _play(preset, mode, seed):
            seen = face_up.setdefault(state.hand.number, set()) if state.hand is not None else set()
            seen.update(state.hand.pile if state.hand is not None else ())
            for viewer in (None, *range(len(state.seats))):
                hidden = _hidden_from(state, viewer, seen)
                shown = view(state, viewer)
                leaked = hidden & set(strings_in(shown.to_dict(), skip=PUBLIC_ONCE_SCORED))
                assert not leaked, (viewer, sorted(leaked))
                assert not hidden & {str(card) for card in _cards_in(repr(shown.legal_commands))}
                checked += bool(hidden)
    assert checked > 20  # the games really had hidden cards to leak


def _cards_in(text: str) -> set[str]:
    return {token for token in text.replace("'", " ").replace("(", " ").split() if token in _CODES}


_CODES = {card.code for card in ALL_CARDS}


def test_a_physical_recorder_still_gets_every_legal_command() -> None:
    for state in _play("knock-rummy", "physical", 1):
        full = tuple(legal_commands(state))
        assert view(state, None, recorder=True).legal_commands == full
        if state.status == "playing" and len(full) > 2:
            assert len(view(state, None).legal_commands) < len(full)
            json.dumps(view(state, None, recorder=True).to_dict())
            return
    raise AssertionError("no physical turn with choices was reached")
