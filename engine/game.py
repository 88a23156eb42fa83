"""Playing and recording games: the public functions over an event log.

A game at a table is nothing but its event log; its state is ``replay(events)``.

- :func:`decide` ``(state, command) -> [events]`` checks a command against the rules
  and returns the events it causes, or raises ``IllegalMove`` with a stable ``code``
  (every code is in :data:`CODES`, with what it means).
- :func:`apply` ``(state, event) -> state`` and :func:`replay` ``(events) -> state``:
  the pure fold. No random number is ever drawn while replaying.
- :func:`legal_commands` ``(state)``: what the seat to act may do.
- :func:`shuffled_deck` ``(ruleset, seed)``: for callers that deal digitally.

A digital game, from the first command to a scored hand:

>>> from engine import StartGame, DealHand, Knock, get_ruleset, stacked_deck, parse_cards, Card
>>> log = decide(None, StartGame(get_ruleset("knock-rummy"), ("Ann", "Bo", "Cy")))
>>> state = replay(log)
>>> hands = [parse_cards("AS 2S 3S 4S 5S 6S 9D"), parse_cards("KC KD KH 2C 3C 4C 9C"),
...          parse_cards("QC QD QH QS 7H 8H 9H")]  # seats 1, 2, 0: dealt from the dealer's left
>>> deck = stacked_deck(state.ruleset, hands, Card.parse("TD"), parse_cards("JD"))
>>> log += decide(state, DealHand(deck=deck)); state = replay(log)
>>> state.to_move, [c.TYPE for c in legal_commands(state)]
(1, ['DrawFromStock', 'DrawFromDiscard'])
>>> from engine import DrawFromStock
>>> log += decide(state, DrawFromStock(seat=1)); state = replay(log)
>>> log += decide(state, Knock(seat=1, card=Card.parse("JD"))); state = replay(log)
>>> state.status, [str(s) for s in state.scores]
('awaiting_deal', ['28', '-19', '-9'])
>>> decide(state, Knock(seat=1, card=Card.parse("JD")))
Traceback (most recent call last):
...
engine.errors.IllegalMove: no hand is being played (the game is awaiting deal)
"""

from __future__ import annotations

from engine.decide import CODES, decide, next_dealer
from engine.deck import shuffled_deck, stacked_deck
from engine.legal import legal_commands
from engine.reducer import apply, replay

__all__ = [
    "CODES",
    "apply",
    "decide",
    "legal_commands",
    "next_dealer",
    "replay",
    "shuffled_deck",
    "stacked_deck",
]
