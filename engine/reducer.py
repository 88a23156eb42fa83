"""The pure fold: ``apply(state, event) -> state`` and ``replay(events) -> state``.

``apply`` first checks that ``decide`` could have written the event
(:mod:`engine.provenance`: an imported log is checked, not trusted), then folds it in,
written for speed:
hands are bitmasks, piles tuples; a move's hand is ``dataclasses.replace`` of the
last one, naming only the fields it changes.
It never calls a random generator.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from engine.cards import ALL_CARDS, Card
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
from engine.physical import revealed_knock_card
from engine.provenance import check_event, check_start
from engine.rescoring import apply_rescored
from engine.settle import (
    advance,
    apply_abandoned,
    apply_adjusted,
    apply_corrected,
    apply_finished,
    apply_reentry,
    apply_retracted,
    apply_scored,
    apply_seat_replaced,
    opening_tally,
)
from engine.state import (
    AWAITING_DEAL,
    DECLINE,
    DIGITAL,
    DISCARD,
    DISCARDED,
    DRAW,
    FINISHED,
    KNOCK,
    OFFER,
    OVER,
    PASS,
    PILE,
    PLAYING,
    RESTOCK,
    SHOWDOWN,
    STOCK,
    GameState,
    HandState,
    PublicMove,
    Setup,
)


def turn_order(eliminated: tuple[bool, ...], dealer: int) -> tuple[int, ...]:
    """Seats still in, clockwise from the dealer's left, the dealer last.

    >>> turn_order((False, False, True, False), 1)
    (3, 0, 1)
    """
    n = len(eliminated)
    return tuple(s for s in ((dealer + i) % n for i in range(1, n + 1)) if not eliminated[s])


def mask_of(cards: Iterable[Any]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def _top(pile: tuple[int, ...]) -> Card | None:
    """The face-up top of a discard pile, or None."""
    return ALL_CARDS[pile[-1]] if pile and pile[-1] >= 0 else None


def _new_hand(
    number: int,
    dealer: int,
    order: tuple[int, ...],
    deal: int,
    phase: str,
    hands: tuple[int, ...],
    sizes: tuple[int, ...],
    stock: tuple[int, ...],
    pile: tuple[int, ...],
) -> HandState:
    return HandState(
        number=number,
        dealer=dealer,
        order=order,
        deal_size=deal,
        phase=phase,
        to_move=order[0],
        hands=hands,
        sizes=sizes,
        stock=stock,
        pile=pile,
        taken=-1,
        turns=0,
        passes=0,
        restocks=0,
        knocker=-1,
        knock_card=-1,
        lay_down=False,
        ended="",
        revealed=(-1,) * len(hands),
    )


def _started(e: GameStarted) -> GameState:
    setup = Setup(e.ruleset, e.mode, tuple(e.seats), e.first_dealer, e.stake, e.knock_arrangement)
    return GameState(1, setup, AWAITING_DEAL, opening_tally(len(e.seats), e.stake), None, None, 0)


def _dealt(state: GameState, e: HandDealt) -> GameState:
    rs = state.setup.ruleset
    t = state.tally
    order = turn_order(t.eliminated, e.dealer)
    n_seats = len(t.scores)
    deal = rs.cards_per_player(len(order))
    hands = [0] * n_seats
    sizes = [0] * n_seats
    for seat in order:
        sizes[seat] = deal
    if e.deck is not None:
        indices = [card.index for card in e.deck]
        n = len(order)
        for i in range(n * deal):
            hands[order[i % n]] |= 1 << indices[i]
        upcard = indices[n * deal]
        stock = tuple(indices[n * deal + 1 :])
    else:
        assert e.upcard is not None
        for seat, cards in e.hands.items():
            hands[seat] = mask_of(cards)
        upcard = e.upcard.index
        stock = (-1,) * (rs.deck_size - len(order) * deal - 1)
    phase = OFFER if rs.first_upcard == "offer" else DRAW
    hand = _new_hand(
        e.hand_number, e.dealer, order, deal, phase, tuple(hands), tuple(sizes), stock, (upcard,)
    )
    tally = dataclasses.replace(t, hands_dealt=t.hands_dealt + 1, last_dealer=e.dealer)
    return advance(state, PLAYING, tally, hand)


def _upcard_passed(state: GameState, e: UpcardPassed) -> GameState:
    h = state.hand
    assert h is not None
    passes = h.passes + 1
    moves = (*h.moves, PublicMove(e.seat, PASS, _top(h.pile)))
    if passes >= len(h.order):
        hand = dataclasses.replace(h, passes=passes, phase=DRAW, to_move=h.order[0], moves=moves)
    else:
        hand = dataclasses.replace(h, passes=passes, to_move=h.order[passes], moves=moves)
    return advance(state, PLAYING, state.tally, hand)


def _drawn(state: GameState, e: CardDrawn) -> GameState:
    h = state.hand
    assert h is not None
    seat = e.seat
    hands = list(h.hands)
    sizes = list(h.sizes)
    stock = h.stock
    pile = h.pile
    taken = -1
    if e.source == "stock":
        card = stock[0]
        if card < 0 and e.card is not None:
            card = e.card.index
        stock = stock[1:]
        move = PublicMove(seat, STOCK, _top(pile))  # the card drawn stays unnamed
    else:
        card = taken = pile[-1]
        pile = pile[:-1]
        move = PublicMove(seat, PILE, ALL_CARDS[card])
    if card >= 0:
        hands[seat] |= 1 << card
    sizes[seat] += 1
    hand = dataclasses.replace(
        h,
        phase=DISCARD,
        to_move=seat,
        hands=tuple(hands),
        sizes=tuple(sizes),
        stock=stock,
        pile=pile,
        taken=taken,
        moves=(*h.moves, move),
    )
    return GameState(state.version + 1, state.setup, PLAYING, state.tally, hand, state, state.depth + 1)


def _discarded(state: GameState, e: CardDiscarded) -> GameState:
    h = state.hand
    assert h is not None
    seat = e.seat
    card = e.card.index
    hands = list(h.hands)
    sizes = list(h.sizes)
    hands[seat] &= ~(1 << card)
    sizes[seat] -= 1
    order = h.order
    nxt = order[(order.index(seat) + 1) % len(order)]
    hand = dataclasses.replace(
        h,
        phase=DRAW,
        to_move=nxt,
        hands=tuple(hands),
        sizes=tuple(sizes),
        pile=(*h.pile, card),
        taken=-1,
        turns=h.turns + 1,
        moves=(*h.moves, PublicMove(seat, DISCARDED, e.card)),
    )
    return GameState(state.version + 1, state.setup, PLAYING, state.tally, hand, state, state.depth + 1)


def _knocked(state: GameState, e: Knocked) -> GameState:
    h = state.hand
    assert h is not None
    hands = list(h.hands)
    sizes = list(h.sizes)
    card = -1
    if e.card is not None:
        card = e.card.index
        hands[e.seat] &= ~(1 << card)
    if not e.lay_down:
        sizes[e.seat] -= 1
    hand = dataclasses.replace(
        h,
        phase=OVER,
        hands=tuple(hands),
        sizes=tuple(sizes),
        # An unseen knock keeps the card taken this turn: it cannot be the face-down discard.
        taken=h.taken if card < 0 and not e.lay_down else -1,
        knocker=e.seat,
        knock_card=card,
        lay_down=e.lay_down,
        ended="knock",
        moves=(*h.moves, PublicMove(e.seat, KNOCK, None)),  # its discard is face down
    )
    return advance(state, SHOWDOWN, state.tally, hand)


def _restocked(state: GameState, e: StockRestocked) -> GameState:
    h = state.hand
    assert h is not None
    if e.method == "turn_over":
        new = h.pile  # turned face down: the old bottom card is the new top
    elif e.order is not None:
        new = tuple(card.index for card in e.order)
    else:
        new = (-1,) * len(h.pile)
    moves = (*h.moves, PublicMove(e.seat, RESTOCK, None))
    hand = dataclasses.replace(h, stock=new + h.stock, pile=(), restocks=h.restocks + 1, moves=moves)
    return advance(state, PLAYING, state.tally, hand)


def _declined(state: GameState, e: DrawDeclined) -> GameState:
    h = state.hand
    assert h is not None
    moves = (*h.moves, PublicMove(e.seat, DECLINE, _top(h.pile)))
    hand = dataclasses.replace(h, phase=OVER, ended="stock_out", moves=moves)
    return advance(state, SHOWDOWN, state.tally, hand)


def _revealed(state: GameState, e: HandRevealed) -> GameState:
    h = state.hand
    assert h is not None
    mask = mask_of(e.cards)
    hands = list(h.hands)
    revealed = list(h.revealed)
    hands[e.seat] = revealed[e.seat] = mask
    knock_card = revealed_knock_card(h, e.seat, mask)  # a known card it lacks went face down
    hand = dataclasses.replace(h, hands=tuple(hands), revealed=tuple(revealed), knock_card=knock_card)
    if e.seat == h.knocker and e.melds is not None:
        hand = dataclasses.replace(hand, knocker_melds=e.melds)
    return advance(state, SHOWDOWN, state.tally, hand)


def _result_recorded(state: GameState, e: HandResultRecorded) -> GameState:
    t = state.tally
    n_seats = len(t.scores)
    knocker = -1 if e.knocker is None else e.knocker
    ended = "stock_out" if e.knocker is None else "knock"
    if state.status == AWAITING_DEAL:
        order = turn_order(t.eliminated, e.dealer)
        deal = state.setup.ruleset.cards_per_player(len(order))
        sizes = tuple(deal if s in order else 0 for s in range(n_seats))
        hand = _new_hand(e.hand_number, e.dealer, order, deal, OVER, (0,) * n_seats, sizes, (), ())
        hand = dataclasses.replace(hand, knocker=knocker, ended=ended)
        t = dataclasses.replace(t, hands_dealt=t.hands_dealt + 1, last_dealer=e.dealer)
    else:
        assert state.hand is not None
        hand = dataclasses.replace(state.hand, phase=OVER, knocker=knocker, ended=ended)
    if e.hands is not None:
        masks = list(hand.hands)
        shown = list(hand.revealed)
        if e.knocker is not None and state.status == SHOWDOWN:
            knock_card = revealed_knock_card(hand, e.knocker, mask_of(e.hands[e.knocker]))
            hand = dataclasses.replace(hand, knock_card=knock_card)
        for seat, cards in e.hands.items():
            masks[seat] = shown[seat] = mask_of(cards)
        held = list(hand.sizes)
        if e.knocker is not None and len(e.hands[e.knocker]) == hand.deal_size + 1:
            held[e.knocker] = hand.deal_size + 1
            hand = dataclasses.replace(hand, lay_down=True)
        hand = dataclasses.replace(hand, hands=tuple(masks), revealed=tuple(shown), sizes=tuple(held))
    return advance(state, SHOWDOWN, t, hand)


def _scored(state: GameState, e: HandScored) -> GameState:
    if state.tally.correcting:  # the new score of a corrected hand: the game is scored again
        return apply_rescored(state, e)
    return apply_scored(state, e)


_HANDLERS: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    HandDealt: _dealt,
    UpcardPassed: _upcard_passed,
    CardDrawn: _drawn,
    CardDiscarded: _discarded,
    Knocked: _knocked,
    StockRestocked: _restocked,
    DrawDeclined: _declined,
    HandRevealed: _revealed,
    HandResultRecorded: _result_recorded,
    HandScored: _scored,
    HandCorrected: apply_corrected,
    ReentryDecided: apply_reentry,
    ScoreAdjusted: apply_adjusted,
    SeatReplaced: apply_seat_replaced,
    GameAbandoned: apply_abandoned,
    GameFinished: apply_finished,
    Retracted: apply_retracted,
}


def apply(state: GameState | None, event: Event) -> GameState:
    """The state after ``event`` (``state`` None: before ``GameStarted``). Pure.

    >>> from engine.events import GameStarted
    >>> from engine.rules import get_ruleset
    >>> from engine.values import Seat
    >>> from fractions import Fraction
    >>> s = apply(None, GameStarted(get_ruleset("gin"), (Seat("Ann"), Seat("Bo")), "digital", 0, Fraction(0)))
    >>> s.status, s.needs_deal, s.version
    ('awaiting_deal', True, 1)
    """
    if state is None:
        if type(event) is not GameStarted:
            raise InvalidEvent(f"a game log starts with GameStarted, not {type(event).__name__}")
        check_start(event)
        return _started(event)
    handler = _HANDLERS.get(type(event))
    if handler is None:
        if type(event) is GameStarted:
            raise InvalidEvent("GameStarted may only open a game log")
        raise InvalidEvent(f"not an event: {event!r}")
    check_event(state, event)  # a log from outside replays only if decide could have written it
    return handler(state, event)


def replay(events: Iterable[Event]) -> GameState:
    """Fold a whole log into its state.

    >>> replay([])
    Traceback (most recent call last):
    ...
    engine.events.InvalidEvent: an empty log has no game
    """
    state: GameState | None = None
    for event in events:
        state = apply(state, event)
    if state is None:
        raise InvalidEvent("an empty log has no game")
    return state


__all__ = ["DIGITAL", "FINISHED", "apply", "replay", "turn_order"]
