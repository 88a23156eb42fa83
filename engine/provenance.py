"""Checks that an event is one the engine could have produced in this state.

:func:`engine.apply` runs :func:`check_event` before folding an event in, so a log
read from outside (an import) replays only if ``decide`` could have written it: a
digital deal's deck is the rule set's whole deck once, hands have the right sizes,
moves come from the seat to move, a physical showdown's hands agree with the public
record (:func:`engine.physical.check_reveal`). A forged event raises ``InvalidEvent``
whose code names what is wrong (``forged_start``, ``forged_deal``, ``forged_deck``,
``forged_move``, ``forged_seat``, ``forged_reveal``, ``forged_retraction``,
``forged_correction``).
The checks are cheap next to the fold itself; live logs never trip them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import IllegalMove
from engine.events import (
    CardDiscarded,
    CardDrawn,
    DrawDeclined,
    Event,
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
from engine.physical import check_reveal
from engine.rescoring import counted_entry
from engine.rules import KNOCK_ARRANGEMENTS
from engine.state import (
    AWAITING_DEAL,
    DIGITAL,
    DISCARD,
    FINISHED,
    MODES,
    PHYSICAL,
    PLAYING,
    SHOWDOWN,
    GameState,
)


def _forged(message: str, code: str) -> InvalidEvent:
    return InvalidEvent(message, code=code)


def check_start(e: GameStarted) -> None:
    """Raise ``InvalidEvent`` (``forged_start``) for a game opening ``decide`` would refuse."""
    rs = e.ruleset
    n = len(e.seats)
    if e.mode not in MODES:
        raise _forged(f"GameStarted: mode {e.mode!r} is not digital or physical", "forged_start")
    if e.knock_arrangement not in KNOCK_ARRANGEMENTS:
        known = ", ".join(KNOCK_ARRANGEMENTS)
        raise _forged(
            f"GameStarted: knock_arrangement {e.knock_arrangement!r} is not one of {known}", "forged_start"
        )
    if not rs.min_players <= n <= rs.max_players:
        raise _forged(
            f"GameStarted: {rs.preset} is for {rs.min_players} to {rs.max_players} players, not {n}",
            "forged_start",
        )
    if not 0 <= e.first_dealer < n or e.stake < 0 or any(not seat.name.strip() for seat in e.seats):
        raise _forged(
            "GameStarted: a first dealer outside the seats, a negative stake or a nameless seat",
            "forged_start",
        )


def _seat(state: GameState, seat: int, what: str) -> None:
    if not 0 <= seat < len(state.setup.seats):
        raise _forged(f"{what}: there is no seat {seat} in this game", "forged_seat")


def _dealt(state: GameState, e: HandDealt) -> None:
    t = state.tally
    rs = state.setup.ruleset
    if state.status != AWAITING_DEAL:
        raise _forged(f"HandDealt while the game is {state.status.replace('_', ' ')}", "forged_deal")
    if e.hand_number != t.hands_dealt + 1:
        raise _forged(f"HandDealt numbers hand {e.hand_number}, not {t.hands_dealt + 1}", "forged_deal")
    _seat(state, e.dealer, "HandDealt")
    if t.eliminated[e.dealer]:
        raise _forged(f"HandDealt: seat {e.dealer} is out of the game and cannot deal", "forged_deal")
    players = len(t.eliminated) - sum(t.eliminated)
    size = rs.cards_per_player(players)
    if state.setup.mode == DIGITAL:
        deck = e.deck
        if deck is None or e.hands:
            raise _forged("a digital HandDealt records the whole deck order and no hands", "forged_deal")
        mask = 0
        for card in deck:
            mask |= 1 << card.index
        if len(deck) != rs.deck_size or mask != (1 << rs.deck_size) - 1:
            raise _forged(
                f"a digital HandDealt's deck must hold each of the {rs.deck_size} cards of {rs.preset} once",
                "forged_deck",
            )
        if e.upcard != deck[players * size]:
            raise _forged(
                f"HandDealt's upcard must be the deck's card after the {players} hands", "forged_deal"
            )
        return
    if e.deck is not None or e.upcard is None:
        raise _forged("a physical HandDealt records the upcard and known hands, not a deck", "forged_deal")
    seen = {e.upcard.index}
    for seat, cards in e.hands.items():
        _seat(state, seat, "HandDealt")
        if t.eliminated[seat] or len(cards) != size:
            raise _forged(f"HandDealt: seat {seat} is dealt {size} cards, not {len(cards)}", "forged_deal")
        seen.update(card.index for card in cards)
    dealt = 1 + sum(len(cards) for cards in e.hands.values())
    if len(seen) != dealt or max(seen) >= rs.deck_size:
        raise _forged(f"HandDealt deals a card twice or one {rs.preset} has none of", "forged_deck")


def _move(state: GameState, seat: int, what: str) -> None:
    hand = state.hand
    if state.status != PLAYING or hand is None:
        raise _forged(f"{what} while no hand is being played", "forged_move")
    if seat != hand.to_move:
        raise _forged(f"{what} by seat {seat}, but seat {hand.to_move} is to move", "forged_move")


def _drawn(state: GameState, e: CardDrawn) -> None:
    _move(state, e.seat, "CardDrawn")
    hand = state.hand
    assert hand is not None
    if hand.phase == DISCARD:
        raise _forged(f"CardDrawn: seat {e.seat} has already drawn", "forged_move")
    if e.source == "stock":
        if not hand.stock:
            raise _forged("CardDrawn from an empty stock", "forged_move")
        known = hand.stock[0]
        if state.setup.mode == DIGITAL and (e.card is None or e.card.index != known):
            raise _forged("CardDrawn: a digital stock draw records the stock's top card", "forged_move")
    elif e.source == "discard":
        if not hand.pile or (e.card is not None and e.card.index != hand.pile[-1]):
            raise _forged("CardDrawn: the card is not the top of the discard pile", "forged_move")
    else:
        raise _forged(f"CardDrawn from {e.source!r}, not 'stock' or 'discard'", "forged_move")


def _parted(state: GameState, seat: int, card: Any, what: str) -> None:
    _move(state, seat, what)
    hand = state.hand
    assert hand is not None
    if hand.phase != DISCARD:
        raise _forged(f"{what}: seat {seat} has not drawn", "forged_move")
    if card is not None and state.setup.mode == DIGITAL and not hand.hands[seat] >> card.index & 1:
        raise _forged(f"{what}: seat {seat} does not hold {card}", "forged_move")
    if card is not None and card.index >= state.setup.ruleset.deck_size:
        raise _forged(f"{what}: {card} is not in this game's deck", "forged_move")


def _discarded(state: GameState, e: CardDiscarded) -> None:
    _parted(state, e.seat, e.card, "CardDiscarded")


def _knocked(state: GameState, e: Knocked) -> None:
    _parted(state, e.seat, e.card, "Knocked")


def _passed(state: GameState, e: UpcardPassed) -> None:
    _move(state, e.seat, "UpcardPassed")


def _restocked(state: GameState, e: StockRestocked) -> None:
    _move(state, e.seat, "StockRestocked")
    hand = state.hand
    assert hand is not None
    if e.order is not None and sorted(c.index for c in e.order) != sorted(hand.pile):
        raise _forged("StockRestocked: the new stock is not the discard pile", "forged_move")


def _declined(state: GameState, e: DrawDeclined) -> None:
    _move(state, e.seat, "DrawDeclined")


def _seat_event(state: GameState, e: Any) -> None:
    _seat(state, e.seat, type(e).__name__)


def _reveal_fits(state: GameState, seat: int, cards: Any, others: Any, what: str) -> None:
    hand = state.hand
    assert hand is not None
    try:
        check_reveal(hand, seat, cards, state.setup.ruleset.deck_size, others)
    except IllegalMove as exc:
        raise _forged(f"{what}: {exc.message}", "forged_reveal") from exc


def _revealed(state: GameState, e: HandRevealed) -> None:
    _seat(state, e.seat, "HandRevealed")
    if state.setup.mode != PHYSICAL:
        raise _forged("HandRevealed in a digital game", "forged_move")
    hand = state.hand
    if state.status != SHOWDOWN or hand is None:
        raise _forged("HandRevealed while no showdown is pending", "forged_reveal")
    if e.seat not in hand.order or hand.revealed[e.seat] >= 0:
        raise _forged(f"HandRevealed: seat {e.seat} is not waiting to reveal", "forged_reveal")
    _reveal_fits(state, e.seat, e.cards, None, "HandRevealed")


def _recorded(state: GameState, e: HandResultRecorded) -> None:
    if state.setup.mode != PHYSICAL:
        raise _forged("HandResultRecorded in a digital game", "forged_move")
    _seat(state, e.dealer, "HandResultRecorded")
    for seat in (*(e.hands or {}), *(e.deadwood or {}), *(() if e.knocker is None else (e.knocker,))):
        _seat(state, seat, "HandResultRecorded")
    hand = state.hand
    if state.status == AWAITING_DEAL:
        return
    if state.status != SHOWDOWN or hand is None:
        raise _forged("HandResultRecorded while a hand is being played", "forged_reveal")
    if any(mask >= 0 for mask in hand.revealed):
        raise _forged("HandResultRecorded after hands were revealed one by one", "forged_reveal")
    if e.knocker != (hand.knocker if hand.knocker >= 0 else None):
        raise _forged("HandResultRecorded names another knocker than the recorded moves", "forged_reveal")
    if e.hands is None:
        return
    if set(e.hands) != set(hand.order):
        raise _forged("HandResultRecorded: the hands are not those of this hand's seats", "forged_reveal")
    for seat in hand.order:
        _reveal_fits(state, seat, e.hands[seat], e.hands, "HandResultRecorded")


def _scored(state: GameState, e: HandScored) -> None:
    for seat in (*e.points, *e.deadwood, *e.winners, *e.rum_seats):
        _seat(state, seat, "HandScored")


def _retracted(state: GameState, e: Retracted) -> None:
    if not 1 <= e.count <= state.depth:
        raise _forged(
            f"Retracted undoes {e.count} event(s); {state.depth} can be undone", "forged_retraction"
        )
    earliest = state
    for _ in range(e.count):
        assert earliest.prior is not None
        earliest = earliest.prior
    if state.setup.mode == DIGITAL and earliest.tally.hands_dealt < state.tally.hands_dealt:
        raise _forged("Retracted undoes a digital deal", "forged_retraction")


def _corrected(state: GameState, e: HandCorrected) -> None:
    if state.setup.mode != PHYSICAL:
        raise _forged("HandCorrected in a digital game", "forged_correction")
    if state.status not in (AWAITING_DEAL, FINISHED):
        raise _forged(
            f"HandCorrected while the game is {state.status.replace('_', ' ')}", "forged_correction"
        )
    for seat in (*(e.hands or {}), *(e.deadwood or {}), *(() if e.knocker is None else (e.knocker,))):
        _seat(state, seat, "HandCorrected")
    entry = counted_entry(state, e.hand_number)
    was = None if entry is None else entry.event
    if not isinstance(was, HandScored):
        raise _forged(f"HandCorrected: there is no hand {e.hand_number} to correct", "forged_correction")
    if e.was_knocker != was.knocker or e.was_points != was.points:
        raise _forged(
            f"HandCorrected: hand {e.hand_number} was not what the correction says it was",
            "forged_correction",
        )


_CHECKS: dict[type[Event], Callable[[GameState, Any], None]] = {
    HandDealt: _dealt,
    UpcardPassed: _passed,
    CardDrawn: _drawn,
    CardDiscarded: _discarded,
    Knocked: _knocked,
    StockRestocked: _restocked,
    DrawDeclined: _declined,
    HandRevealed: _revealed,
    HandResultRecorded: _recorded,
    HandScored: _scored,
    ReentryDecided: _seat_event,
    ScoreAdjusted: _seat_event,
    SeatReplaced: _seat_event,
    Retracted: _retracted,
    HandCorrected: _corrected,
}


def check_event(state: GameState, event: Event) -> None:
    """Raise ``InvalidEvent`` if ``decide`` could not have produced ``event`` in ``state``."""
    correcting = state.tally.correcting
    if correcting and not (isinstance(event, HandScored) and event.hand_number == correcting):
        said = f"{event.TYPE} follows the correction of hand {correcting}, not its new score"
        raise _forged(said, "forged_correction")
    check = _CHECKS.get(type(event))
    if check is not None:
        check(state, event)
