"""``decide(state, command) -> events``: the rules, as checks on a command.

Every rejection is an ``IllegalMove`` whose ``code`` is listed in
:data:`engine.checks.CODES`. ``decide`` never stores anything and never changes ``state``.
This module decides the moves of play; :mod:`engine.corrections` the rest.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine import corrections
from engine.arrangement import deadwood
from engine.cards import ALL_CARDS, Card, full_deck, mask_to_cards
from engine.checks import drawable, fail, live, next_dealer, seat_of
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
)
from engine.events import (
    CardDiscarded,
    CardDrawn,
    DrawDeclined,
    Event,
    HandDealt,
    Knocked,
    StockRestocked,
    UpcardPassed,
)
from engine.physical import check_can_part_with, check_in_deck, check_unseen
from engine.reducer import apply, turn_order
from engine.showdown import finish, score_digital, void_hand
from engine.state import AWAITING_DEAL, DIGITAL, DISCARD, DRAW, OFFER, PLAYING, GameState, HandState

__all__ = ["decide", "knock_problem"]


def _turn(state: GameState, seat: int) -> HandState:
    hand = state.hand
    if state.status == PLAYING and hand is not None and type(seat) is int and seat == hand.to_move:
        return hand  # the common case, checked first
    live(state)
    seat_of(state, seat)
    if state.status != PLAYING or hand is None:
        raise fail(
            f"no hand is being played (the game is {state.status.replace('_', ' ')})", "no_hand_in_play"
        )
    if seat != hand.to_move:
        raise fail(
            f"it is seat {hand.to_move}'s turn, not seat {seat}'s",
            "not_your_turn",
            seat=seat,
            to_move=hand.to_move,
        )
    return hand


def _drawing(state: GameState, seat: int) -> HandState:
    hand = _turn(state, seat)
    if hand.phase == DISCARD:
        raise fail(f"seat {seat} has already drawn this turn; discard or knock", "already_drew", seat=seat)
    return hand


def _discarding(state: GameState, seat: int) -> HandState:
    hand = _turn(state, seat)
    if hand.phase != DISCARD:
        raise fail(f"seat {seat} must draw before discarding or knocking", "must_draw_first", seat=seat)
    return hand


def _parting_with(state: GameState, hand: HandState, seat: int, card: Any) -> Card:
    if not isinstance(card, Card):
        raise fail(f"{card!r} is not a card", "malformed_command")
    if card.index == hand.taken:
        raise fail(
            f"seat {seat} took {card} from the discard pile this turn and may not discard it",
            "cannot_discard_taken_card",
            seat=seat,
            card=card.code,
        )
    if state.mode == DIGITAL:
        if not hand.hands[seat] >> card.index & 1:
            raise fail(f"seat {seat} does not hold {card}", "card_not_in_hand", seat=seat, card=card.code)
    else:
        check_can_part_with(hand, seat, card, state.ruleset.deck_size)
    return card


def _deal(state: GameState, command: DealHand) -> list[Event]:
    live(state)
    if state.status != AWAITING_DEAL:
        raise fail(
            f"the game is not waiting for a deal (it is {state.status.replace('_', ' ')})",
            "not_awaiting_deal",
        )
    rs = state.ruleset
    dealer = next_dealer(state)
    order = turn_order(state.tally.eliminated, dealer)
    size = rs.cards_per_player(len(order))
    number = state.tally.hands_dealt + 1
    if state.mode == DIGITAL:
        if command.upcard is not None or command.hands:
            raise fail("a digital deal gives the deck order only, not an upcard or hands", "wrong_mode")
        deck = command.deck
        if deck is None:
            raise fail(
                "a digital deal needs the whole deck order: DealHand(deck=shuffled_deck(...))", "invalid_deck"
            )
        _check_deck(deck, full_deck(rs.jokers), "deck")
        return [HandDealt(number, dealer, tuple(deck), deck[len(order) * size], {})]
    if command.deck is not None:
        raise fail("a physical deal records the upcard and known hands, not a deck order", "wrong_mode")
    if command.upcard is None:
        raise fail("a physical deal needs the upcard", "invalid_deal")
    check_in_deck(command.upcard, rs.deck_size)
    seen = {command.upcard}
    for seat, cards in command.hands.items():
        if seat not in order:
            raise fail(f"seat {seat} is not dealt a hand", "invalid_seat", seat=seat)
        if len(cards) != size:
            raise fail(f"seat {seat} is dealt {size} cards, not {len(cards)}", "invalid_deal", seat=seat)
        for card in cards:
            check_in_deck(card, rs.deck_size)
            if card in seen:
                raise fail(f"{card} is dealt twice (seat {seat})", "invalid_deal", seat=seat, card=card.code)
            seen.add(card)
    return [HandDealt(number, dealer, None, command.upcard, dict(command.hands))]


def _check_deck(cards: tuple[Card, ...], expected: tuple[Card, ...], what: str) -> None:
    if len(cards) != len(expected) or set(cards) != set(expected):
        have = set(cards)
        missing = [str(c) for c in expected if c not in have]
        extra = sorted({str(c) for c in cards if c not in set(expected) or cards.count(c) > 1})
        raise fail(
            f"the {what} must hold each of its {len(expected)} cards once "
            f"(missing: {', '.join(missing) or 'none'}; extra or repeated: {', '.join(extra) or 'none'})",
            "invalid_deck",
        )


def _pass(state: GameState, command: PassUpcard) -> list[Event]:
    hand = _drawing(state, command.seat)
    if hand.phase != OFFER:
        raise fail("the first upcard is not on offer", "no_upcard_offer")
    return [UpcardPassed(command.seat)]


def _draw_stock(state: GameState, command: DrawFromStock) -> list[Event]:
    seat = command.seat
    hand = _drawing(state, seat)
    if hand.phase == OFFER:
        raise fail(f"seat {seat} must first take or pass the upcard", "upcard_offer_pending", seat=seat)
    if drawable(state, hand) <= 0:
        raise fail("the stock is empty", "stock_empty")
    top = hand.stock[0]
    if state.mode == DIGITAL:
        if command.card is not None:
            raise fail("in a digital game the server knows the stock; give no card", "wrong_mode")
        return [CardDrawn(seat, "stock", ALL_CARDS[top])]
    card = command.card
    if top >= 0:
        if card is not None and card.index != top:
            raise fail(
                f"the turned-over stock's top card is {ALL_CARDS[top]}, not {card}",
                "card_unavailable",
                card=card.code,
                top=ALL_CARDS[top].code,
            )
        card = ALL_CARDS[top]
    elif card is not None:
        check_unseen(hand, card, state.ruleset.deck_size)
    return [CardDrawn(seat, "stock", card)]


def _draw_discard(state: GameState, command: DrawFromDiscard) -> list[Event]:
    seat = command.seat
    hand = _drawing(state, seat)
    if hand.phase == DRAW and hand.turns == 0 and hand.passes >= len(hand.order):
        raise fail(
            "everyone passed the upcard: the first player draws from the stock", "must_draw_from_stock"
        )
    if not hand.pile:
        raise fail("the discard pile is empty", "discard_pile_empty")
    return [CardDrawn(seat, "discard", ALL_CARDS[hand.pile[-1]])]


def _discard(state: GameState, command: Discard) -> list[Event]:
    hand = _discarding(state, command.seat)
    card = _parting_with(state, hand, command.seat, command.card)
    events: list[Event] = [CardDiscarded(command.seat, card)]
    if state.ruleset.stock_exhausted == "void_hand" and drawable(state, hand) <= 0:
        events.append(void_hand(hand))
        # the game's end is checked after every hand, a void one too (an adjustment made
        # during it may have reached the target), as a corrected game is scored again
        return finish(state, events)
    return events


def knock_problem(state: GameState, hand: HandState, seat: int, card: Card | None, lay_down: bool) -> str:
    """Why a digital knock is not allowed ('' when it is): for ``legal_commands``."""
    rs = state.ruleset
    mask = hand.hands[seat]
    if lay_down:
        return "" if deadwood(mask_to_cards(mask), rs) == 0 else "laydown_not_all_melded"
    limit = rs.knock_max_deadwood
    if (
        limit is not None
        and card is not None
        and deadwood(mask_to_cards(mask & ~(1 << card.index)), rs) > limit
    ):
        return "deadwood_too_high_to_knock"
    return ""


def _knock(state: GameState, command: Knock) -> list[Event]:
    seat = command.seat
    hand = _discarding(state, seat)
    rs = state.ruleset
    if rs.knock_timing == "after_first_round" and hand.turns < len(hand.order):
        raise fail("nobody may knock until every player has had a complete turn", "knock_not_allowed_yet")
    card = command.card
    if command.lay_down:
        if not rs.rum_without_discard:
            raise fail(
                f"{rs.preset} has no laying down without discarding; knock with a discard",
                "laydown_not_allowed",
            )
        if card is not None:
            raise fail("laying down without discarding names no discard", "malformed_command")
    elif card is not None:
        card = _parting_with(state, hand, seat, card)
    elif state.mode == DIGITAL:
        raise fail("a knock names its face-down discard (or lays down a rum without one)", "card_required")
    if state.mode == DIGITAL:
        problem = knock_problem(state, hand, seat, card, command.lay_down)
        if problem == "laydown_not_all_melded":
            left = deadwood(mask_to_cards(hand.hands[seat]), rs)
            raise fail(
                f"seat {seat} cannot lay down without discarding: {left} deadwood unmelded",
                problem,
                seat=seat,
                deadwood=left,
            )
        if problem:
            assert card is not None
            left = deadwood(mask_to_cards(hand.hands[seat] & ~(1 << card.index)), rs)
            raise fail(
                f"seat {seat} would keep {left} deadwood after discarding {card}; {rs.preset} allows "
                f"knocking with at most {rs.knock_max_deadwood}",
                problem,
                seat=seat,
                deadwood=left,
                card=card.code,
                limit=rs.knock_max_deadwood,
            )
    events: list[Event] = [Knocked(seat, card, command.lay_down)]
    if state.mode == DIGITAL:
        events.append(score_digital(apply(state, events[0])))
        return finish(state, events)
    return events


def _restock(state: GameState, command: Restock) -> list[Event]:
    seat = command.seat
    hand = _drawing(state, seat)
    rs = state.ruleset
    method = rs.stock_exhausted
    if hand.phase == OFFER:
        raise fail(f"seat {seat} must first take or pass the upcard", "upcard_offer_pending", seat=seat)
    if method not in ("turn_over", "reshuffle"):
        raise fail(f"{rs.preset} does not restock an empty stock ({method})", "restock_not_allowed")
    if drawable(state, hand) > 0:
        raise fail("the stock still has cards", "restock_not_allowed")
    if hand.restocks >= rs.max_restocks:
        raise fail(
            f"the stock has been restocked {hand.restocks} time(s), the most allowed; "
            "take the discard or decline to draw",
            "restock_not_allowed",
        )
    if not hand.pile:
        raise fail("the discard pile is empty", "restock_not_allowed")
    order = command.order
    if method == "turn_over":
        if order is not None:
            raise fail("a turned-over pile keeps its order; give none", "malformed_command")
    elif order is not None:
        _check_deck(order, tuple(ALL_CARDS[i] for i in hand.pile), "reshuffled stock")
    elif state.mode == DIGITAL:
        # Reproducible yet unknown to the players: seeded by the hidden cards.
        cards = [ALL_CARDS[i] for i in hand.pile]
        random.Random(f"restock:{hand.number}:{hand.restocks}:{hand.hands}:{hand.stock}").shuffle(cards)
        order = tuple(cards)
    return [StockRestocked(seat, method, order)]


def _decline(state: GameState, command: DeclineDraw) -> list[Event]:
    seat = command.seat
    hand = _drawing(state, seat)
    rs = state.ruleset
    if hand.phase == OFFER:
        raise fail(f"seat {seat} must first take or pass the upcard", "upcard_offer_pending", seat=seat)
    if drawable(state, hand) > 0:
        raise fail("the stock still has cards; draw from it or take the discard", "decline_not_allowed")
    if rs.stock_exhausted in ("turn_over", "reshuffle") and hand.restocks < rs.max_restocks and hand.pile:
        raise fail(
            "the discard pile may still be turned into a new stock: restock or take the discard",
            "decline_not_allowed",
        )
    events: list[Event] = [DrawDeclined(seat)]
    after = apply(state, events[0])
    if rs.scoring == "gin":
        assert after.hand is not None
        events.append(void_hand(after.hand))
    elif state.mode == DIGITAL:
        events.append(score_digital(after))
    return finish(state, events)


_DECIDERS: dict[type[Command], Callable[[GameState, Any], list[Event]]] = {
    StartGame: corrections.already_started,
    DealHand: _deal,
    PassUpcard: _pass,
    DrawFromStock: _draw_stock,
    DrawFromDiscard: _draw_discard,
    Discard: _discard,
    Knock: _knock,
    Restock: _restock,
    DeclineDraw: _decline,
    RevealHand: corrections.reveal,
    RecordHandResult: corrections.record,
    DecideReentry: corrections.reentry,
    AdjustScore: corrections.adjust,
    ReplaceSeat: corrections.replace,
    Retract: corrections.retract,
    AbandonGame: corrections.abandon,
    CorrectHand: corrections.correct,
}


def decide(state: GameState | None, command: Command) -> list[Event]:
    """The events ``command`` causes in ``state``, or ``IllegalMove`` (codes: :data:`CODES`).

    ``state`` None is before the game: only ``StartGame`` is decided there.

    >>> from engine import StartGame, DrawFromStock, get_ruleset, replay
    >>> log = decide(None, StartGame(get_ruleset("gin"), ("Ann", "Bo")))
    >>> [type(e).__name__ for e in log]
    ['GameStarted']
    >>> decide(replay(log), DrawFromStock(seat=1))
    Traceback (most recent call last):
    ...
    engine.errors.IllegalMove: no hand is being played (the game is awaiting deal)
    """
    if state is None:
        if type(command) is StartGame:
            return corrections.start(command)
        raise fail("no game has started; the first command must be StartGame", "game_not_started")
    decider = _DECIDERS.get(type(command))
    if decider is None:
        raise fail(f"unknown command {command!r}", "unknown_command")
    return decider(state, command)
