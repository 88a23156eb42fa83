"""Shared checks for ``decide``: the registry of IllegalMove codes, and who deals next."""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalMove
from engine.state import ABANDONED, FINISHED, GameState, HandState

CODES: dict[str, str] = {
    "unknown_command": "the command type does not exist",
    "cannot_retract_deal": "a retraction that would undo a digital deal (and so allow a re-shuffle)",
    "malformed_command": "a field is missing, unknown, of the wrong type or outside its limits",
    "invalid_deadwood": "an announced deadwood above what the hand size can hold under the rule set",
    "invalid_card": "not a card code, or a card this game's deck lacks",
    "game_not_started": "a game must begin with StartGame",
    "game_already_started": "StartGame on a game that has begun",
    "invalid_setup": "StartGame with a bad seat count, mode, first dealer or stake",
    "game_over": "the game is finished or abandoned",
    "invalid_seat": "no such seat, or a seat not playing this hand",
    "not_awaiting_deal": "a deal, a quick-path result or a hand's correction while a hand is still on",
    "invalid_deck": "a digital deal or reshuffle whose deck is not the game's whole deck once",
    "invalid_deal": "a physical deal with a missing upcard or impossible known hands",
    "wrong_mode": "a command or field for the other mode (digital / physical)",
    "no_hand_in_play": "a move while no hand is being played",
    "not_your_turn": "another seat is to act",
    "no_upcard_offer": "passing when gin's first upcard is not on offer",
    "upcard_offer_pending": "drawing from the stock before taking or passing the first upcard",
    "must_draw_from_stock": "everyone passed the first upcard: the first player draws from the stock",
    "already_drew": "drawing twice in one turn",
    "must_draw_first": "discarding or knocking before drawing",
    "stock_empty": "drawing from an empty stock",
    "discard_pile_empty": "taking from an empty discard pile",
    "card_unavailable": "a card said to come from the stock that the public has seen elsewhere",
    "card_not_in_hand": "discarding or knocking with a card the seat does not hold",
    "cannot_discard_taken_card": "discarding the card just taken from the discard pile",
    "card_required": "a digital knock must name its face-down discard",
    "knock_not_allowed_yet": "knock-rami: nobody knocks before every player has had a turn",
    "deadwood_too_high_to_knock": "the knock limit (gin: 10) is exceeded after the discard",
    "laydown_not_allowed": "laying down without discarding is not in these rules",
    "laydown_not_all_melded": "laying down without discarding needs every card melded",
    "restock_not_allowed": "restocking while the stock has cards, or past max_restocks, or in these rules",
    "decline_not_allowed": "declining to draw while the stock has cards or may be restocked",
    "not_in_showdown": "revealing hands or recording a result when no showdown is pending",
    "already_revealed": "revealing a seat twice, or mixing the reveal and the quick path",
    "inconsistent_reveal": "revealed hands that contradict the public record",
    "invalid_meld": "a declared meld that is not a legal meld of the revealed cards",
    "invalid_showdown": "a showdown the scoring rules cannot score",
    "not_awaiting_reentry": "a re-entry decision when none is pending",
    "nothing_to_retract": "retracting more events than are in effect",
    "retract_partial": "retracting a scoring or a game end without the move that caused it",
    "no_such_hand": "correcting a hand that was never scored, or that no longer counts",
    "correction_unchanged": "a hand's correction that gives the result the hand already has",
    "correction_conflict": "a hand's correction that a later hand or re-entry decision no longer fits",
}


def fail(message: str, code: str, **params: Any) -> IllegalMove:
    """The refusal ``code``; ``params`` name what the message names (``seat``, ``card``
    as its code, …) so that a page can word it in its own terms."""
    assert code in CODES, code
    return IllegalMove(message, code, params=params)


def next_dealer(state: GameState) -> int:
    """Who deals the next hand (RULES.md: left; winner in two-player hoyle and in gin;
    the same dealer after a void hand; only seats still in)."""
    t = state.tally
    rs = state.ruleset
    n = len(t.scores)
    if t.last_dealer < 0:
        dealer = state.setup.first_dealer
    elif t.last_void:
        dealer = t.last_dealer
    else:
        dealer = (t.last_dealer + 1) % n
        still_in = n - sum(t.eliminated)
        if len(t.last_winners) == 1 and (
            rs.next_dealer == "winner" or (rs.next_dealer == "winner_if_two" and still_in == 2)
        ):
            dealer = t.last_winners[0]
    while t.eliminated[dealer]:
        dealer = (dealer + 1) % n
    return dealer


def drawable(state: GameState, hand: HandState) -> int:
    return len(hand.stock) - state.ruleset.stock_reserve


def live(state: GameState) -> None:
    if state.status in (FINISHED, ABANDONED):
        raise fail(f"the game is {state.status}", "game_over")


def seat_of(state: GameState, seat: Any) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.seats):
        raise fail(
            f"there is no seat {seat!r} (seats 0..{len(state.seats) - 1})",
            "invalid_seat",
            seats=len(state.seats),
        )
    return int(seat)
