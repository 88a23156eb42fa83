"""``view(state, seat)``: what one seat (or, with ``seat=None``, the public) may see.
Never another seat's cards or the stock order; hands become public once a showdown has
scored them. ``legal_commands`` lists only commands whose cards the viewer can see in
the view itself; a physical game's recorder asks with ``recorder=True`` for the full
list, every card the seat to act could hold included."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.cards import ALL_CARDS, Card, mask_to_cards
from engine.commands import Command
from engine.due import Due, due_entries
from engine.legal import legal_commands
from engine.rules import RuleSet
from engine.state import DIGITAL, DISCARD, PHYSICAL, GameState, PublicMove
from engine.values import MatchResult, Seat


def cards_named(command: Command) -> list[Card]:
    """Every card a command carries, in any of its fields."""
    found: list[Card] = []
    for name in command.FIELDS:
        value = getattr(command, name)
        values = value.values() if isinstance(value, dict) else (value,)
        for item in values:
            if isinstance(item, Card):
                found.append(item)
            elif isinstance(item, tuple):
                found.extend(c for c in item if isinstance(c, Card))
                found.extend(c for meld in item if isinstance(meld, tuple) for c in meld)
    return found


@dataclass(frozen=True, slots=True)
class View:
    """One seat's (or the public's) picture of a game; ``to_dict()`` is JSON-ready.

    ``hand`` is the seat's own cards (physical: the cards the public knows it holds);
    ``stock_size`` counts the cards that may still be drawn; ``last_hand`` is the
    latest scored hand, with its revealed hands; ``revealed`` the hands shown so far
    at a physical showdown. ``discard_pile`` is the face-up pile, bottom first, and
    ``moves`` the hand's public moves in order (:class:`~engine.state.PublicMove`):
    what everyone at the table saw, never a card drawn from the stock nor a face-down
    knock discard.
    """

    seat: int | None
    status: str
    mode: str
    ruleset: RuleSet
    version: int
    seats: tuple[Seat, ...]
    hand_number: int
    dealer: int | None
    to_move: int | None
    phase: str | None
    hand: tuple[Card, ...] | None
    taken_card: Card | None
    discard_top: Card | None
    discard_size: int
    stock_size: int
    hand_sizes: tuple[int, ...]
    turns: int
    knocker: int | None
    scores: tuple[Fraction, ...]
    hands_won: tuple[int, ...]
    pool: Fraction
    eliminated: tuple[bool, ...]
    revealed: dict[int, tuple[Card, ...]]
    last_hand: dict[str, Any] | None
    legal_commands: tuple[Command, ...]
    result: MatchResult | None
    # What comes next, named even when it is free-form (engine.due): a deal, reveals, a result.
    due: tuple[Due, ...] = ()
    discard_pile: tuple[Card, ...] = ()
    moves: tuple[PublicMove, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "status": self.status,
            "mode": self.mode,
            "ruleset": self.ruleset.to_dict(),
            "version": self.version,
            "seats": [seat.to_dict() for seat in self.seats],
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "phase": self.phase,
            "hand": None if self.hand is None else [str(c) for c in self.hand],
            "taken_card": None if self.taken_card is None else str(self.taken_card),
            "discard_top": None if self.discard_top is None else str(self.discard_top),
            "discard_size": self.discard_size,
            "discard_pile": [str(c) for c in self.discard_pile],
            "moves": [move.to_dict() for move in self.moves],
            "stock_size": self.stock_size,
            "hand_sizes": list(self.hand_sizes),
            "turns": self.turns,
            "knocker": self.knocker,
            "scores": [str(s) for s in self.scores],
            "hands_won": list(self.hands_won),
            "pool": str(self.pool),
            "eliminated": list(self.eliminated),
            "revealed": {str(seat): [str(c) for c in cards] for seat, cards in self.revealed.items()},
            "last_hand": self.last_hand,
            "legal_commands": [command.to_dict() for command in self.legal_commands],
            "due": [entry.to_dict() for entry in self.due],
            "result": None if self.result is None else self.result.to_dict(),
        }


def view(state: GameState, seat: int | None = None, *, recorder: bool = False) -> View:
    """What ``seat`` may see (``None``: the public).

    ``recorder=True`` is for whoever records a physical game (its owner or scorekeeper,
    seated nowhere): the view lists every legal command, with the cards the seat to act
    could hold. Otherwise a command is listed only if every card it names is in this view
    (the seat's own hand, the taken card, the discard top, revealed hands).

    >>> from engine import StartGame, DealHand, decide, replay, shuffled_deck, get_ruleset
    >>> log = decide(None, StartGame(get_ruleset("gin"), ("Ann", "Bo")))
    >>> state = replay(log)
    >>> log += decide(state, DealHand(deck=shuffled_deck(state.ruleset, seed=1)))
    >>> v = view(replay(log), 1)
    >>> len(v.hand), v.hand_sizes, v.stock_size, v.to_move, [c.TYPE for c in v.legal_commands]
    (10, (10, 10), 29, 1, ['DrawFromDiscard', 'PassUpcard'])
    >>> view(replay(log), 0).legal_commands
    ()
    """
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < len(state.seats)):
        raise ValueError(f"there is no seat {seat!r}")
    t = state.tally
    hand = state.hand
    every = legal_commands(state)
    legal = every
    if seat is not None:
        legal = [c for c in legal if getattr(c, "seat", None) == seat]
    elif state.mode == DIGITAL:
        legal = []
    own = taken = top = knocker = None
    revealed: dict[int, tuple[Card, ...]] = {}
    pile: tuple[Card, ...] = ()
    if hand is not None:
        if seat is not None and hand.sizes[seat]:
            own = mask_to_cards(hand.hands[seat])
            if hand.phase == DISCARD and hand.to_move == seat and hand.taken >= 0:
                taken = ALL_CARDS[hand.taken]
        if hand.pile:
            pile = tuple(map(ALL_CARDS.__getitem__, hand.pile))  # every pile card is face up
            top = ALL_CARDS[hand.pile[-1]]
        knocker = hand.knocker if hand.knocker >= 0 else None
        if state.mode == PHYSICAL:
            revealed = {s: mask_to_cards(m) for s, m in enumerate(hand.revealed) if m >= 0}
    if not recorder and legal:
        shown = {*(own or ()), taken, top, *(card for cards in revealed.values() for card in cards)}
        legal = [command for command in legal if all(card in shown for card in cards_named(command))]
    last = t.results[-1].to_dict()["data"] if t.results else None
    return View(
        seat=seat,
        status=state.status,
        mode=state.mode,
        ruleset=state.ruleset,
        version=state.version,
        seats=state.seats,
        hand_number=hand.number if hand is not None else 0,
        dealer=hand.dealer if hand is not None else None,
        to_move=state.to_move,
        phase=hand.phase if hand is not None else None,
        hand=own,
        taken_card=taken,
        discard_top=top,
        discard_size=len(hand.pile) if hand is not None else 0,
        stock_size=max(0, len(hand.stock) - state.ruleset.stock_reserve) if hand is not None else 0,
        hand_sizes=hand.sizes if hand is not None else (0,) * len(state.seats),
        turns=hand.turns if hand is not None else 0,
        knocker=knocker,
        scores=t.scores,
        hands_won=t.hands_won,
        pool=t.pool,
        eliminated=t.eliminated,
        revealed=revealed,
        last_hand=last,
        legal_commands=tuple(legal),
        result=t.result,
        due=tuple(due_entries(state, seat, recorder=recorder, legal=every)),
        discard_pile=pile,
        moves=hand.moves if hand is not None else (),
    )
