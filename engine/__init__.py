"""The Knock Rummy rules engine: pure Python, standard library only.

Nothing here imports Django, Celery or a database; the apps above build on it.
"""

from engine.cards import Card, InvalidCard, format_cards, full_deck, parse_cards
from engine.rules import InvalidRuleSet, RuleSet, find_preset, get_ruleset

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
