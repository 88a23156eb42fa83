"""The engine tests' table: it decides, applies and checks replay. It imports the engine and
the standard library only, so the engine layer's tests stay free of Django."""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from engine import (
    Card,
    Command,
    DealHand,
    Discard,
    DrawFromStock,
    Event,
    GameState,
    StartGame,
    apply,
    decide,
    event_from_dict,
    event_to_dict,
    parse_cards,
    replay,
    stacked_deck,
)
from engine.rules import RuleSet


class Table:
    """A game under test: every command is decided, applied and checked against a replay
    of the whole log (live state == rebuilt state), and every event survives JSON."""

    def __init__(
        self,
        ruleset: RuleSet,
        seats: Sequence[Any],
        *,
        mode: str = "digital",
        first_dealer: int = 0,
        stake: int = 0,
    ) -> None:
        self.log: list[Event] = []
        self.state: GameState | None = None
        self.do(StartGame(ruleset, tuple(seats), mode, first_dealer, Fraction(stake)))

    @property
    def s(self) -> GameState:
        assert self.state is not None
        return self.state

    def do(self, command: Command) -> list[Event]:
        events = decide(self.state, command)
        for event in events:
            self.state = apply(self.state, event)
            stored = json.loads(json.dumps(event_to_dict(event)))
            assert event_from_dict(stored) == event
        self.log.extend(events)
        assert replay(self.log) == self.state
        return events

    def deal(self, hands: Sequence[str], upcard: str, stock: str = "") -> list[Event]:
        """A digital deal of ``hands`` in turn order (the dealer's left first)."""
        deck = stacked_deck(
            self.s.ruleset, [parse_cards(h) for h in hands], Card.parse(upcard), parse_cards(stock)
        )
        return self.do(DealHand(deck=deck))

    def draw_and_discard(self, seat: int) -> Card:
        """Draw from the stock and discard the card drawn (the hand is unchanged)."""
        event = self.do(DrawFromStock(seat))[0]
        card = event.card  # type: ignore[attr-defined]
        assert isinstance(card, Card)
        self.do(Discard(seat, card))
        return card


def points(values: Sequence[Fraction] | dict[int, Fraction]) -> list[str]:
    items = values.values() if isinstance(values, dict) else values
    return [str(v) for v in items]
