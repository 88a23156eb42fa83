"""The ``greedy`` bot: keeps the least deadwood and knocks at a threshold.

- Draw: take the discard (or gin's first upcard) when keeping it leaves less
  deadwood than the hand has now; otherwise draw from the stock. With the stock
  empty it takes the discard only if that lets it knock, else restocks or declines.
- Discard: the card whose loss leaves the least deadwood (the highest such card).
- Knock: lay a hoyle rum down when it can; knock when the deadwood left is at most
  the threshold (the rule set's knock limit, else :data:`KNOCK_AT`).
- Knock-rami: always re-enters.
"""

from __future__ import annotations

from random import Random

from engine.arrangement import deadwood
from engine.cards import Card
from engine.commands import (
    Command,
    DecideReentry,
    DeclineDraw,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    Knock,
    PassUpcard,
    Restock,
)
from engine.rules import RuleSet
from engine.visibility import View

KNOCK_AT = 7


def _best_discard(hand: tuple[Card, ...], banned: Card | None, rs: RuleSet) -> tuple[int, Card]:
    """(deadwood left, card) for the best discard other than ``banned``."""
    best: tuple[int, int, Card] | None = None
    for card in hand:
        if card == banned:
            continue
        rest = tuple(c for c in hand if c != card)
        key = (deadwood(rest, rs), -card.value, card)
        if best is None or key[:2] < best[:2] or (key[:2] == best[:2] and card.index > best[2].index):
            best = key
    assert best is not None
    return best[0], best[2]


def greedy_bot(view: View, rng: Random) -> Command:
    """The greedy choice among the seat's legal commands (``rng`` unused: deterministic)."""
    legal = view.legal_commands
    if not legal:
        raise ValueError(f"seat {view.seat} has nothing to do (status {view.status})")
    by_type: dict[type[Command], Command] = {}
    for command in legal:
        by_type.setdefault(type(command), command)
    if DecideReentry in by_type:
        return next(c for c in legal if isinstance(c, DecideReentry) and c.reenter)
    rs = view.ruleset
    hand = view.hand or ()
    limit = rs.knock_max_deadwood
    threshold = KNOCK_AT if limit is None else limit
    if (
        DrawFromStock in by_type
        or DrawFromDiscard in by_type
        or PassUpcard in by_type
        or Restock in by_type
        or DeclineDraw in by_type
    ):
        top = view.discard_top
        if DrawFromDiscard in by_type and top is not None:
            kept, _ = _best_discard((*hand, top), top, rs)
            stock_empty = DrawFromStock not in by_type and PassUpcard not in by_type
            if (kept <= threshold) if stock_empty else kept < deadwood(hand, rs):
                return by_type[DrawFromDiscard]
        for kind in (DrawFromStock, PassUpcard, Restock, DeclineDraw, DrawFromDiscard):
            if kind in by_type:
                return by_type[kind]
    lay_down = next((c for c in legal if isinstance(c, Knock) and c.lay_down), None)
    if lay_down is not None:
        return lay_down
    left, card = _best_discard(hand, view.taken_card, rs)
    knock = Knock(view.seat if view.seat is not None else -1, card)
    if left <= threshold and knock in legal:
        return knock
    discard = Discard(view.seat if view.seat is not None else -1, card)
    return discard if discard in legal else rng.choice(legal)
