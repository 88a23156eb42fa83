"""The Knock Rummy rules engine: pure Python, standard library only.

Nothing here imports Django, Celery or a database; the apps above build on it.

A game at a table is nothing but its event log; its state is ``replay(events)``.

- :func:`decide` ``(state, command) -> [events]`` checks a command against the rules
  and returns the events it causes, or raises ``IllegalMove`` with a stable ``code``
  (every code is in :data:`CODES`, with what it means).
- :func:`apply` ``(state, event) -> state`` and :func:`replay` ``(events) -> state``:
  the pure fold. No random number is ever drawn while replaying.
- :func:`audit_log` ``(events) -> state``: a log from outside replayed command by command,
  every move decided again and every hand scored again (:class:`LogRefused` otherwise).
- :func:`legal_commands` ``(state)``: what the seat to act may do, cards included (for
  recorders); :func:`view` ``(state, seat)`` lists only what that viewer may know.
- :func:`due_entries` ``(state, seat)``: what comes next, named even where it is free-form
  (a physical deal, the reveals at a showdown, a hand's result); ``view`` carries it as ``due``.
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

from engine.arrangement import Arrangement, best_arrangement, best_discard, deadwood
from engine.audit import LogRefused, audit_log
from engine.cards import Card, InvalidCard, format_cards, full_deck, parse_cards
from engine.checks import CODES
from engine.commands import (
    AbandonGame,
    AdjustScore,
    Command,
    CorrectHand,
    DealHand,
    DecideReentry,
    DeclineDraw,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    Knock,
    PassUpcard,
    RecordHandResult,
    ReplaceSeat,
    Restock,
    Retract,
    RevealHand,
    StartGame,
    command_from_dict,
    command_to_dict,
)
from engine.deck import shuffled_deck, stacked_deck
from engine.due import Due, due_entries
from engine.errors import EngineError, IllegalMove, InvalidHand, InvalidShowdown
from engine.events import (
    CardDiscarded,
    CardDrawn,
    DrawDeclined,
    Event,
    GameAbandoned,
    GameFinished,
    GameStarted,
    HandCorrected,
    HandDealt,
    HandResultRecorded,
    HandRevealed,
    HandScored,
    InvalidEvent,
    Knocked,
    ReentryDecided,
    Retracted,
    ScoreAdjusted,
    SeatReplaced,
    StockRestocked,
    UpcardPassed,
)
from engine.legal import legal_commands
from engine.melds import Meld
from engine.play import decide
from engine.reducer import apply, replay
from engine.rules import InvalidRuleSet, RuleSet, find_preset, get_ruleset
from engine.scoring import Showdown, score_showdown
from engine.state import GameState
from engine.upcasting import event_from_dict, event_to_dict, register_upcaster
from engine.values import MatchResult, Seat
from engine.visibility import View, view

__all__ = [
    "CODES",
    "AbandonGame",
    "AdjustScore",
    "Arrangement",
    "Card",
    "CardDiscarded",
    "CardDrawn",
    "Command",
    "CorrectHand",
    "DealHand",
    "DecideReentry",
    "DeclineDraw",
    "Discard",
    "DrawDeclined",
    "DrawFromDiscard",
    "DrawFromStock",
    "Due",
    "EngineError",
    "Event",
    "GameAbandoned",
    "GameFinished",
    "GameStarted",
    "GameState",
    "HandCorrected",
    "HandDealt",
    "HandResultRecorded",
    "HandRevealed",
    "HandScored",
    "IllegalMove",
    "InvalidCard",
    "InvalidEvent",
    "InvalidHand",
    "InvalidRuleSet",
    "InvalidShowdown",
    "Knock",
    "Knocked",
    "LogRefused",
    "MatchResult",
    "Meld",
    "PassUpcard",
    "RecordHandResult",
    "ReentryDecided",
    "ReplaceSeat",
    "Restock",
    "Retract",
    "Retracted",
    "RevealHand",
    "RuleSet",
    "ScoreAdjusted",
    "Seat",
    "SeatReplaced",
    "Showdown",
    "StartGame",
    "StockRestocked",
    "UpcardPassed",
    "View",
    "apply",
    "audit_log",
    "best_arrangement",
    "best_discard",
    "command_from_dict",
    "command_to_dict",
    "deadwood",
    "decide",
    "due_entries",
    "event_from_dict",
    "event_to_dict",
    "find_preset",
    "format_cards",
    "full_deck",
    "get_ruleset",
    "legal_commands",
    "parse_cards",
    "register_upcaster",
    "replay",
    "score_showdown",
    "shuffled_deck",
    "stacked_deck",
    "view",
]
