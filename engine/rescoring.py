"""Scoring a game again from a corrected hand on.

A ``HandCorrected`` names an earlier hand; the ``HandScored`` that follows it is the
hand's new score. The game's ledger (:class:`engine.state.Entry`: every hand result,
re-entry decision and score adjustment in effect, in order) is folded again from the
start with that score in place of the old one:

- a hand's points depend only on what was held in it, so every other hand keeps its
  ``HandScored``; the running totals, eliminations, re-entry payments and scores, the
  pool and the game's end follow from the new order of totals;
- a re-entry decision keeps its choice (re-enter or stay out) and pays what the pool
  and scores give at its place in the new fold;
- the game ends after the first hand after which the rules end it: a target reached,
  the number of hands played, one player left. Hands recorded after that hand no
  longer count (``Tally.uncounted``); they stay in the ledger and count again should a
  later correction move the end back. A director's adjustments always count;
- a later entry the corrected game has no place for is a *conflict*: a hand played by
  other seats than the new eliminations leave in (knock-rami), a re-entry decision by a
  seat no longer out, a hand recorded while a re-entry decision is now due. ``decide``
  refuses such a correction (``correction_conflict``) and :func:`apply_rescored` calls
  it forged.

Pure, like the rest of the fold; the rulings are in docs/rules.md.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engine.events import HandScored, InvalidEvent, ReentryDecided, ScoreAdjusted
from engine.match import ends
from engine.settle import advance, apply_adjusted, apply_reentry, apply_scored, opening_tally, reentry_decided
from engine.state import AWAITING_DEAL, AWAITING_REENTRY, Entry, GameState

__all__ = ["Rescored", "apply_rescored", "counted_entry", "rescore"]


@dataclass(frozen=True, slots=True)
class Rescored:
    """The game scored again: ``state`` (one event on from the one given), whether the
    rules end it at one of its hands (``ended``: a ``GameFinished`` must follow), and
    ``problem``, why a later entry no longer fits ('' when none does)."""

    state: GameState
    ended: bool
    problem: str


def counted_entry(state: GameState, number: int) -> Entry | None:
    """The ledger entry of hand ``number`` if it is scored and still counts."""
    if number in state.tally.uncounted:
        return None
    for entry in state.tally.ledger:
        if isinstance(entry.event, HandScored) and entry.event.hand_number == number:
            return entry
    return None


def _seats(seats: list[int] | set[int]) -> str:
    return ", ".join(f"seat {seat}" for seat in sorted(seats))


def rescore(state: GameState, scored: HandScored) -> Rescored:
    """Fold ``state``'s ledger again from the start with ``scored`` in place of the
    ``HandScored`` of the same hand number (``state`` is the one a ``HandCorrected`` of
    that hand left)."""
    t = state.tally
    number = scored.hand_number
    ledger = tuple(
        dataclasses.replace(entry, event=scored)
        if isinstance(entry.event, HandScored) and entry.event.hand_number == number
        else entry
        for entry in t.ledger
    )
    fold = GameState(1, state.setup, AWAITING_DEAL, opening_tally(len(state.seats), state.setup.stake), None)
    end = 0  # the hand after which the rules end the game
    uncounted: list[int] = []
    problem = ""
    for entry in ledger:
        event = entry.event
        if isinstance(event, ScoreAdjusted):
            fold = apply_adjusted(fold, event)  # a director's adjustment always counts
            continue
        if end:
            if isinstance(event, HandScored):
                uncounted.append(event.hand_number)
            continue
        if isinstance(event, HandScored):
            problem = _misfit(fold, entry, number)
            if problem:
                break
            at_deal = dataclasses.replace(fold.tally, last_dealer=entry.dealer)
            fold = apply_scored(dataclasses.replace(fold, tally=at_deal), event)
        elif isinstance(event, ReentryDecided):
            pending = fold.tally.pending
            if fold.status != AWAITING_REENTRY or pending[0] != event.seat:
                problem = (
                    f"seat {event.seat} decided on re-entry after a hand, but with hand {number} corrected "
                    + (f"{_seats([pending[0]])} decides first" if pending else "no re-entry is due then")
                )
                break
            fold = apply_reentry(fold, reentry_decided(fold.tally, event.seat, event.reenter))
        if fold.status == AWAITING_DEAL and ends(fold):
            end = fold.tally.results[-1].hand_number  # a hand has just been settled
    tally = dataclasses.replace(
        fold.tally,
        hands_dealt=t.hands_dealt,
        ledger=ledger,
        retractions=t.retractions,
        corrections=t.corrections,
        correcting=0,
        uncounted=tuple(uncounted),
        result=None,
    )
    return Rescored(advance(state, fold.status, tally, state.hand), bool(end), problem)


def _misfit(fold: GameState, entry: Entry, corrected: int) -> str:
    """Why the hand of ``entry`` cannot be played where the fold has come to ('' if it can)."""
    event = entry.event
    assert isinstance(event, HandScored)
    if fold.status == AWAITING_REENTRY:
        return (
            f"hand {event.hand_number} was recorded, but with hand {corrected} corrected "
            f"{_seats([fold.tally.pending[0]])} must first decide on re-entry"
        )
    still_in = {seat for seat, out in enumerate(fold.tally.eliminated) if not out}
    played = set(entry.seats)
    if played == still_in:
        return ""
    out, missing = played - still_in, still_in - played
    why = []
    if out:
        why.append(f"{_seats(out)} would be out of the game by then")
    if missing:
        why.append(f"{_seats(missing)} would still be in it")
    played_by = f"hand {event.hand_number} was played by {_seats(played)}"
    return f"{played_by}, but with hand {corrected} corrected " + " and ".join(why)


def apply_rescored(state: GameState, e: HandScored) -> GameState:
    """Fold the corrected hand's new score (the ``HandScored`` after a ``HandCorrected``)."""
    if e.hand_number != state.tally.correcting:
        raise InvalidEvent(
            f"HandScored scores hand {e.hand_number}, but hand {state.tally.correcting} is being corrected",
            code="forged_correction",
        )
    rescored = rescore(state, e)
    if rescored.problem:
        raise InvalidEvent(f"HandScored: {rescored.problem}", code="forged_correction")
    return rescored.state
