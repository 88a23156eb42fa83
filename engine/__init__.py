"""The Knock Rummy rules engine: pure Python, standard library only.

Nothing here imports Django, Celery or a database; the apps above build on it.
"""

from engine.cards import Card, InvalidCard, format_cards, full_deck, parse_cards
from engine.commands import (
    AbandonGame,
    AdjustScore,
    Command,
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
from engine.errors import IllegalMove
from engine.events import (
    CardDiscarded,
    CardDrawn,
    DrawDeclined,
    Event,
    GameAbandoned,
    GameFinished,
    GameStarted,
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
from engine.game import CODES, apply, decide, legal_commands, replay, shuffled_deck, stacked_deck
from engine.rules import InvalidRuleSet, RuleSet, find_preset, get_ruleset
from engine.state import GameState, MatchResult, Seat
from engine.upcasting import event_from_dict, event_to_dict, register_upcaster
from engine.view import View, view

__all__ = [
    "Card",
    "InvalidCard",
    "InvalidRuleSet",
    "RuleSet",
    "find_preset",
    "format_cards",
    "full_deck",
    "get_ruleset",
    "parse_cards",
]

# Arrangements and showdown scoring.
from engine.arrangement import Arrangement, best_arrangement, best_discard, deadwood
from engine.errors import InvalidHand, InvalidShowdown
from engine.melds import Meld
from engine.scoring import Showdown, score_showdown

__all__ += [
    "Arrangement",
    "InvalidHand",
    "InvalidShowdown",
    "Meld",
    "Showdown",
    "best_arrangement",
    "best_discard",
    "deadwood",
    "score_showdown",
]

__all__ += [
    "CODES",
    "AbandonGame",
    "AdjustScore",
    "CardDiscarded",
    "CardDrawn",
    "Command",
    "DealHand",
    "DecideReentry",
    "DeclineDraw",
    "Discard",
    "DrawDeclined",
    "DrawFromDiscard",
    "DrawFromStock",
    "Event",
    "GameAbandoned",
    "GameFinished",
    "GameStarted",
    "GameState",
    "HandDealt",
    "HandResultRecorded",
    "HandRevealed",
    "HandScored",
    "IllegalMove",
    "InvalidEvent",
    "Knock",
    "Knocked",
    "MatchResult",
    "PassUpcard",
    "RecordHandResult",
    "ReentryDecided",
    "ReplaceSeat",
    "Restock",
    "Retract",
    "Retracted",
    "RevealHand",
    "ScoreAdjusted",
    "Seat",
    "SeatReplaced",
    "StartGame",
    "StockRestocked",
    "UpcardPassed",
    "View",
    "apply",
    "command_from_dict",
    "command_to_dict",
    "decide",
    "event_from_dict",
    "event_to_dict",
    "legal_commands",
    "register_upcaster",
    "replay",
    "shuffled_deck",
    "stacked_deck",
    "view",
]
