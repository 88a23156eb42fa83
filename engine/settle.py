"""Applying what happens between and around hands: scores, re-entry, corrections.

Part of the pure fold of :mod:`engine.reducer`; these handlers run once a hand,
not once a move, so they favour clarity over speed.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from engine.events import (
    GameAbandoned,
    GameFinished,
    HandCorrected,
    HandScored,
    InvalidEvent,
    ReentryDecided,
    Retracted,
    ScoreAdjusted,
    SeatReplaced,
)
from engine.state import (
    ABANDONED,
    AWAITING_DEAL,
    AWAITING_REENTRY,
    FINISHED,
    OVER,
    Entry,
    GameState,
    HandState,
    Tally,
)
from engine.values import Seat

ZERO = Fraction(0)


def opening_tally(seats: int, stake: Fraction) -> Tally:
    """The tally of a game before its first hand: every stake in the pool."""
    return Tally(
        hands_dealt=0,
        hands_scored=0,
        last_dealer=-1,
        last_winners=(),
        last_void=False,
        scores=(ZERO,) * seats,
        hands_won=(0,) * seats,
        rums=(0,) * seats,
        pool=stake * seats,
        paid=(stake,) * seats,
        eliminated=(False,) * seats,
        eliminated_at=(0,) * seats,
        reentered=(False,) * seats,
        pending=(),
        reentry_score=ZERO,
        results=(),
        adjustments=(),
        retractions=(),
        result=None,
    )


def reentry_decided(tally: Tally, seat: int, reenter: bool) -> ReentryDecided:
    """``seat``'s re-entry decision in ``tally``: re-entering pays half the pool and takes
    the re-entry score; staying out pays nothing and keeps the score."""
    paid = tally.pool / 2 if reenter else ZERO
    score = tally.reentry_score if reenter else tally.scores[seat]
    return ReentryDecided(seat, reenter, paid, score)


def advance(state: GameState, status: str, tally: Tally, hand: HandState | None) -> GameState:
    """The next state, one event further on."""
    return GameState(state.version + 1, state.setup, status, tally, hand, state, state.depth + 1)


def apply_scored(state: GameState, e: HandScored) -> GameState:
    t = state.tally
    rs = state.setup.ruleset
    void = e.outcome == "void"
    scores = list(t.scores)
    for seat, points in e.points.items():
        scores[seat] += points
    hands_won = list(t.hands_won)
    for seat in e.winners:
        hands_won[seat] += 1
    rums = list(t.rums)
    for seat in e.rum_seats:
        rums[seat] += 1
    eliminated = list(t.eliminated)
    eliminated_at = list(t.eliminated_at)
    pending: tuple[int, ...] = ()
    reentry_score = t.reentry_score
    if rs.game_end == "elimination" and not void:
        out = [s for s in e.points if not eliminated[s] and scores[s] >= rs.elimination_score]
        for seat in out:
            eliminated[seat] = True
            eliminated_at[seat] = e.hand_number
        still_in = [scores[s] for s in e.points if not eliminated[s]]
        # Ruling: with nobody still in, a re-entering seat gets the highest score
        # a player still in could have had.
        reentry_score = max(still_in) if still_in else Fraction(rs.elimination_score - 1)
        if rs.reentry:
            n = len(scores)
            dealer = state.hand.dealer if state.hand is not None else t.last_dealer
            from_left = [(dealer + i) % n for i in range(1, n + 1)]
            pending = tuple(s for s in from_left if s in out and not t.reentered[s])
    dealer_of_hand = state.hand.dealer if state.hand is not None else t.last_dealer
    seats_of_hand = state.hand.order if state.hand is not None else tuple(e.points)
    tally = dataclasses.replace(
        t,
        ledger=(*t.ledger, Entry(e, dealer_of_hand, seats_of_hand)),
        hands_scored=t.hands_scored + (0 if void else 1),
        last_winners=tuple(e.winners),
        last_void=void,
        scores=tuple(scores),
        hands_won=tuple(hands_won),
        rums=tuple(rums),
        eliminated=tuple(eliminated),
        eliminated_at=tuple(eliminated_at),
        pending=pending,
        reentry_score=reentry_score,
        results=(*t.results, e),
    )
    hand = state.hand
    if hand is not None:
        hand = dataclasses.replace(hand, phase=OVER, ended="void" if void else hand.ended or "knock")
    return advance(state, AWAITING_REENTRY if pending else AWAITING_DEAL, tally, hand)


def apply_reentry(state: GameState, e: ReentryDecided) -> GameState:
    t = state.tally
    seat = e.seat
    changes: dict[str, Any] = {"pending": t.pending[1:], "ledger": (*t.ledger, Entry(e))}
    if e.reenter:
        changes["pool"] = t.pool + e.paid
        changes["paid"] = _set_at(t.paid, seat, t.paid[seat] + e.paid)
        changes["scores"] = _set_at(t.scores, seat, e.score)
        changes["eliminated"] = _set_at(t.eliminated, seat, False)
        changes["reentered"] = _set_at(t.reentered, seat, True)
    tally = dataclasses.replace(t, **changes)
    return advance(state, AWAITING_REENTRY if tally.pending else AWAITING_DEAL, tally, state.hand)


def _set_at(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def apply_adjusted(state: GameState, e: ScoreAdjusted) -> GameState:
    """An adjustment to a finished game reopens its result until the ``GameFinished``
    ``decide`` always adds after it (the result as the new scores give it): so that
    retraction finds the two together."""
    t = state.tally
    tally = dataclasses.replace(
        t,
        scores=_set_at(t.scores, e.seat, t.scores[e.seat] + e.points),
        adjustments=(*t.adjustments, (e.seat, e.points, e.reason)),
        ledger=(*t.ledger, Entry(e)),
        result=None if state.status == FINISHED else t.result,
    )
    status = AWAITING_DEAL if state.status == FINISHED else state.status
    return advance(state, status, tally, state.hand)


def apply_corrected(state: GameState, e: HandCorrected) -> GameState:
    """Note the correction; the hand's new ``HandScored``, which follows, scores the game
    again (:func:`engine.rescoring.apply_rescored`)."""
    t = state.tally
    tally = dataclasses.replace(
        t, correcting=e.hand_number, corrections=(*t.corrections, (e.hand_number, e.reason))
    )
    return advance(state, state.status, tally, state.hand)


def apply_seat_replaced(state: GameState, e: SeatReplaced) -> GameState:
    setup = dataclasses.replace(state.setup, seats=_set_at(state.setup.seats, e.seat, Seat(e.name, e.bot)))
    return GameState(state.version + 1, setup, state.status, state.tally, state.hand, state, state.depth + 1)


def apply_abandoned(state: GameState, e: GameAbandoned) -> GameState:
    return advance(state, ABANDONED, state.tally, state.hand)


def apply_finished(state: GameState, e: GameFinished) -> GameState:
    return advance(state, FINISHED, dataclasses.replace(state.tally, result=e.result), state.hand)


def apply_retracted(state: GameState, e: Retracted) -> GameState:
    if not 1 <= e.count <= state.depth:
        raise InvalidEvent(f"Retracted: cannot undo {e.count} event(s); {state.depth} can be undone")
    back = state
    for _ in range(e.count):
        assert back.prior is not None
        back = back.prior
    tally = dataclasses.replace(back.tally, retractions=(*state.tally.retractions, (e.count, e.reason)))
    return GameState(state.version + 1, back.setup, back.status, tally, back.hand, back.prior, back.depth)
