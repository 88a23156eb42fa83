"""A finished digital game re-recorded as a scorekeeper at a real table would record it.

:func:`rerecord` walks a digital game's log and enters the same game as a physical one,
hand by hand, in one of the :data:`STYLES` (drawn per hand):

``every_move``
    Everything the table could tell: the dealt hands, every card drawn from the stock,
    the knock card, a reshuffled stock's order.
``public_moves``
    Only what a scorekeeper sees: the upcard, who drew from the stock (card unknown),
    which card was taken from the pile, every discard, the knock (usually without its
    card: it is face down), a restock (a reshuffle's order unknown).
``final_hands``
    No moves at all: between hands, ``RecordHandResult`` with every final hand.

:func:`play_digital` plays the digital games, with the engine's own bots.
A hand recorded move by move ends with every seat's ``RevealHand`` in a random order, or
with ``RecordHandResult`` at the showdown. Every ``HandScored`` and the ``GameFinished``
the physical game produces must equal the digital game's (outcome, deadwood, points,
winners, rums, arrangements): a legal hand is never refused and always scores the same.
It imports the engine and the standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

from engine import (
    CardDiscarded,
    CardDrawn,
    Command,
    DealHand,
    DecideReentry,
    DeclineDraw,
    Discard,
    DrawDeclined,
    DrawFromDiscard,
    DrawFromStock,
    Event,
    GameFinished,
    GameStarted,
    GameState,
    HandDealt,
    HandScored,
    Knock,
    Knocked,
    PassUpcard,
    RecordHandResult,
    ReentryDecided,
    Restock,
    RevealHand,
    StartGame,
    StockRestocked,
    UpcardPassed,
    apply,
    decide,
    legal_commands,
    replay,
    shuffled_deck,
    view,
)
from engine.bots import get_bot
from engine.cards import Card, mask_to_cards
from engine.rules import RuleSet

EVERY_MOVE = "every_move"
PUBLIC_MOVES = "public_moves"
FINAL_HANDS = "final_hands"
STYLES = (EVERY_MOVE, PUBLIC_MOVES, FINAL_HANDS)
SEEN_KNOCK = 0.25  # how often a public_moves hand records the knock card after all
QUICK_SHOWDOWN = 0.3  # how often a hand recorded move by move ends with RecordHandResult
MAX_STEPS = 20_000  # a bot game longer than this is a bug
GREEDY = get_bot("greedy")


def play_digital(ruleset: RuleSet, players: int, seed: int) -> tuple[GameState, list[Event]]:
    """A whole digital game to re-record: each move is the greedy bot's with a per-game
    probability, else uniformly random among the legal commands but a knock (taken only
    now and then, so that hands also run the stock out and restock)."""
    rng = Random(seed)
    greedy_share = rng.choice((0.5, 0.8, 0.95))
    knock_share = rng.choice((0.02, 0.2))
    names = tuple(f"P{i}" for i in range(players))
    log = decide(None, StartGame(ruleset, names, "digital", rng.randrange(players)))
    state = replay(log)
    for _ in range(MAX_STEPS):
        if state.status in ("finished", "abandoned"):
            return state, log
        if state.needs_deal:
            command: Any = DealHand(deck=shuffled_deck(ruleset, rng.random()))
        elif rng.random() < greedy_share:
            command = GREEDY(view(state, state.to_move), rng)
        else:
            options = legal_commands(state)
            calm = [c for c in options if not isinstance(c, Knock)]
            command = rng.choice(options if not calm or rng.random() < knock_share else calm)
        for event in decide(state, command):
            state = apply(state, event)
            log.append(event)
    raise AssertionError("the game did not end")


@dataclass
class Recording:
    """The physical game as it is entered, and what it scored, to compare."""

    state: GameState | None = None
    log: list[Event] = field(default_factory=list)
    results: list[Event] = field(default_factory=list)  # HandScored and GameFinished, in order
    counts: dict[str, int] = field(default_factory=dict)  # hands per style, unseen knocks

    def do(self, command: Command) -> None:
        events = decide(self.state, command)  # IllegalMove here: a legal hand refused
        for event in events:
            self.state = apply(self.state, event)
            self.log.append(event)
            if isinstance(event, (HandScored, GameFinished)):
                self.results.append(event)

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1


def _hands(state: GameState) -> dict[int, tuple[Card, ...]]:
    hand = state.hand
    assert hand is not None
    return {seat: mask_to_cards(hand.hands[seat]) for seat in hand.order}


def _same_score(physical: Event, digital: HandScored) -> None:
    assert isinstance(physical, HandScored), physical
    got = (physical.hand_number, physical.outcome, physical.knocker, physical.deadwood, physical.points)
    want = (digital.hand_number, digital.outcome, digital.knocker, digital.deadwood, digital.points)
    assert got == want, (got, want)
    assert (physical.winners, physical.rum_seats, physical.verified) == (
        digital.winners,
        digital.rum_seats,
        True,
    )
    assert physical.detail.get("showdown") == digital.detail.get("showdown")


def _showdown(rec: Recording, hands: dict[int, tuple[Card, ...]], knocker: int | None, rng: Random) -> None:
    """The hands are shown: one by one in any order, or all at once on the quick path."""
    if rng.random() < QUICK_SHOWDOWN:
        rec.count("quick_showdown")
        rec.do(RecordHandResult(knocker=knocker, hands=hands))
        return
    for seat in rng.sample(sorted(hands), len(hands)):
        rec.do(RevealHand(seat, hands[seat]))


def _move(rec: Recording, event: Event, style: str, rng: Random) -> None:
    """The command a scorekeeper enters for one digital move, in ``style``."""
    full = style == EVERY_MOVE
    if isinstance(event, UpcardPassed):
        rec.do(PassUpcard(event.seat))
    elif isinstance(event, CardDrawn):
        if event.source == "discard":
            rec.do(DrawFromDiscard(event.seat))
        else:
            rec.do(DrawFromStock(event.seat, event.card if full else None))
    elif isinstance(event, CardDiscarded):
        rec.do(Discard(event.seat, event.card))
    elif isinstance(event, Knocked):
        seen = full or rng.random() < SEEN_KNOCK
        if event.lay_down:
            rec.count("lay_down")
        elif not seen:
            rec.count("unseen_knock")
            hand = rec.state.hand if rec.state is not None else None
            assert hand is not None and event.card is not None
            if hand.hands[event.seat] >> event.card.index & 1:
                rec.count("known_card_face_down")  # the case issue 24 found refused
        rec.do(Knock(event.seat, event.card if seen else None, lay_down=event.lay_down))
    elif isinstance(event, StockRestocked):
        rec.count("restock")
        rec.do(Restock(event.seat, event.order if full else None))
    elif isinstance(event, DrawDeclined):
        rec.count("stock_out")
        rec.do(DeclineDraw(event.seat))
    else:
        raise AssertionError(f"not a move: {event!r}")


def rerecord(log: Sequence[Event], rng: Random, styles: Sequence[str] = STYLES) -> Recording:
    """Record the finished digital game ``log`` again as a physical game; asserts that
    every entry is accepted and every hand scores as it did digitally."""
    rec = Recording()
    digital: GameState | None = None
    style = styles[0]
    matched = 0  # physical results compared so far
    for event in log:
        before = digital
        digital = apply(digital, event)
        if isinstance(event, GameStarted):
            seats = tuple(seat.name for seat in event.seats)
            rec.do(StartGame(event.ruleset, seats, "physical", event.first_dealer, event.stake))
        elif isinstance(event, HandDealt):
            style = rng.choice(styles)
            rec.count(style)
            if style != FINAL_HANDS:
                known = _hands(digital) if style == EVERY_MOVE else {}
                rec.do(DealHand(upcard=event.upcard, hands=known))
        elif isinstance(event, HandScored):
            assert before is not None and before.hand is not None
            if len(rec.results) == matched:  # the physical game waits for the hands
                hands = _hands(before)
                knocker = event.knocker
                if style == FINAL_HANDS:
                    rec.do(RecordHandResult(knocker=knocker, hands=hands))
                else:
                    _showdown(rec, hands, knocker, rng)
            if event.outcome == "void":
                rec.count("void")
            _same_score(rec.results[matched], event)
            matched += 1
        elif isinstance(event, GameFinished):
            assert rec.results[matched] == event, (rec.results[matched], event)
            matched += 1
        elif isinstance(event, ReentryDecided):
            rec.do(DecideReentry(event.seat, event.reenter))
        elif style != FINAL_HANDS:
            _move(rec, event, style, rng)
    assert matched == len(rec.results)
    return rec


def summary(recordings: Sequence[Recording]) -> dict[str, Any]:
    """Hands per style and unseen knocks over ``recordings``, for a test's report."""
    total: dict[str, int] = {}
    for rec in recordings:
        for key, value in rec.counts.items():
            total[key] = total.get(key, 0) + value
    return total
