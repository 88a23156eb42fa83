"""``decide`` for everything but the moves of play: starting a game, physical
showdown entries, re-entry, and the director's corrections (an adjustment, a
retraction, an earlier hand's result replaced)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine.checks import fail, live, seat_of
from engine.codec import MAX_DENOMINATOR, MAX_INPUT_POINTS
from engine.commands import (
    AbandonGame,
    AdjustScore,
    CorrectHand,
    DecideReentry,
    RecordHandResult,
    ReplaceSeat,
    Retract,
    RevealHand,
    StartGame,
)
from engine.events import (
    Event,
    GameAbandoned,
    GameFinished,
    GameStarted,
    HandCorrected,
    HandRevealed,
    HandScored,
    Retracted,
    ScoreAdjusted,
    SeatReplaced,
)
from engine.match import final_result
from engine.physical import check_reveal
from engine.reducer import apply
from engine.rescoring import counted_entry, rescore
from engine.rules import RuleSet
from engine.settle import reentry_decided
from engine.showdown import check_melds, finish, one_kind_of_entry, record_result, score_entry, score_revealed
from engine.state import (
    ABANDONED,
    AWAITING_DEAL,
    AWAITING_REENTRY,
    DIGITAL,
    FINISHED,
    MODES,
    PHYSICAL,
    SHOWDOWN,
    GameState,
    HandState,
)


def start(command: StartGame) -> list[Event]:
    rs = command.ruleset
    if not isinstance(rs, RuleSet):
        raise fail("StartGame needs a rule set", "malformed_command")
    n = len(command.seats)
    if not rs.min_players <= n <= rs.max_players:
        raise fail(
            f"{rs.preset} is for {rs.min_players} to {rs.max_players} players, not {n}", "invalid_setup"
        )
    if command.mode not in MODES:
        raise fail(f"mode must be 'digital' or 'physical', not {command.mode!r}", "invalid_setup")
    if not isinstance(command.first_dealer, int) or not 0 <= command.first_dealer < n:
        raise fail(
            f"the first dealer must be a seat 0..{n - 1}, not {command.first_dealer!r}", "invalid_setup"
        )
    if command.stake < 0:
        raise fail(f"the stake must not be negative ({command.stake})", "invalid_setup")
    if command.stake > MAX_INPUT_POINTS or command.stake.denominator > MAX_DENOMINATOR:
        raise fail(
            f"the stake must be at most {MAX_INPUT_POINTS}, with a denominator of at most {MAX_DENOMINATOR}",
            "invalid_setup",
        )
    for i, seat in enumerate(command.seats):
        if not seat.name.strip():
            raise fail(f"seat {i} needs a name", "invalid_setup", seat=i)
    return [GameStarted(rs, command.seats, command.mode, command.first_dealer, command.stake)]


def _showdown(state: GameState, command: Any) -> HandState:
    live(state)
    if state.mode != PHYSICAL:
        raise fail("a digital game's showdown is automatic; hands are not entered", "wrong_mode")
    if state.status != SHOWDOWN or state.hand is None:
        raise fail(
            f"no showdown is pending (the game is {state.status.replace('_', ' ')})", "not_in_showdown"
        )
    return state.hand


def reveal(state: GameState, command: RevealHand) -> list[Event]:
    hand = _showdown(state, command)
    seat = seat_of(state, command.seat)
    if seat not in hand.order:
        raise fail(f"seat {seat} is not playing this hand", "invalid_seat", seat=seat)
    if hand.revealed[seat] >= 0:
        raise fail(f"seat {seat}'s hand has already been revealed", "already_revealed", seat=seat)
    cards = tuple(command.cards)
    check_reveal(hand, seat, cards, state.ruleset.deck_size)
    if command.melds is not None:
        check_melds(cards, command.melds, seat)
    events: list[Event] = [HandRevealed(seat, cards, command.melds)]
    after = apply(state, events[0])
    assert after.hand is not None
    if all(after.hand.revealed[s] >= 0 for s in hand.order):
        events.append(score_revealed(after))
        return finish(state, events)
    return events


def record(state: GameState, command: RecordHandResult) -> list[Event]:
    live(state)
    if state.mode != PHYSICAL:
        raise fail("a digital game's results come from its moves", "wrong_mode")
    if state.status not in (AWAITING_DEAL, SHOWDOWN):
        raise fail(
            f"a result is recorded between hands or at a showdown, not while the game is "
            f"{state.status.replace('_', ' ')}",
            "not_awaiting_deal",
        )
    if command.knocker is not None:
        seat_of(state, command.knocker)
    return finish(state, record_result(state, command.knocker, command.hands, command.deadwood))


def reentry(state: GameState, command: DecideReentry) -> list[Event]:
    live(state)
    seat = seat_of(state, command.seat)
    t = state.tally
    if state.status != AWAITING_REENTRY:
        raise fail("no re-entry decision is pending", "not_awaiting_reentry")
    if seat != t.pending[0]:
        raise fail(
            f"seat {t.pending[0]} decides on re-entry first", "not_your_turn", seat=seat, to_move=t.pending[0]
        )
    if not isinstance(command.reenter, bool):
        raise fail("reenter is true or false", "malformed_command")
    return finish(state, [reentry_decided(t, seat, command.reenter)])


def adjust(state: GameState, command: AdjustScore) -> list[Event]:
    """A finished game may be adjusted too: its result is given again, as the new
    scores make it (the game stays over: its end is not checked again)."""
    if state.status == ABANDONED:
        live(state)
    seat = seat_of(state, command.seat)
    if not command.reason.strip():
        raise fail("a score adjustment needs a reason", "malformed_command")
    adjusted = ScoreAdjusted(seat, Fraction(command.points), command.reason)
    if state.status != FINISHED:
        return [adjusted]
    return [adjusted, GameFinished(final_result(apply(state, adjusted)))]


def correct(state: GameState, command: CorrectHand) -> list[Event]:
    """Replace the result of an earlier hand of a physical game and score the game again
    from it (:mod:`engine.rescoring`); between hands, or once the game is over."""
    if state.status == ABANDONED:
        live(state)
    if state.mode != PHYSICAL:
        raise fail(
            "a digital game's hands come from its moves and cannot be corrected; adjust a score instead",
            "wrong_mode",
        )
    if state.status not in (AWAITING_DEAL, FINISHED):
        raise fail(
            f"a hand is corrected between hands or once the game is over, not while the game is "
            f"{state.status.replace('_', ' ')}",
            "not_awaiting_deal",
        )
    if not command.reason.strip():
        raise fail("a correction needs a reason", "malformed_command")
    number = command.hand_number
    entry = counted_entry(state, number)
    if entry is None:
        counted = [e.hand_number for e in state.tally.results]
        which = f"hands {counted[0]} to {counted[-1]} count" if counted else "no hand has been scored"
        raise fail(f"there is no hand {number} to correct ({which})", "no_such_hand")
    if command.knocker is not None:
        seat_of(state, command.knocker)
    one_kind_of_entry(command.hands, command.deadwood)
    scored = score_entry(state, entry.seats, number, command.knocker, command.hands, command.deadwood)
    was = entry.event
    assert isinstance(was, HandScored)
    if scored.to_dict() == was.to_dict():
        raise fail(f"hand {number} already has that result; nothing to correct", "correction_unchanged")
    corrected = HandCorrected(
        number,
        command.knocker,
        command.hands,
        command.deadwood,
        command.reason,
        was.knocker,
        dict(was.points),
    )
    rescored = rescore(apply(state, corrected), scored)
    if rescored.problem:
        raise fail(
            f"{rescored.problem}; undo the later hands first, or adjust a score", "correction_conflict"
        )
    if rescored.ended:
        return [corrected, scored, GameFinished(final_result(rescored.state))]
    return [corrected, scored]


def replace(state: GameState, command: ReplaceSeat) -> list[Event]:
    live(state)
    seat = seat_of(state, command.seat)
    if not command.name.strip():
        raise fail("the new occupant needs a name", "malformed_command")
    return [SeatReplaced(seat, command.name, command.bot)]


def retract(state: GameState, command: Retract) -> list[Event]:
    if isinstance(command.count, bool) or not isinstance(command.count, int) or command.count < 1:
        raise fail(f"retract at least one event, not {command.count!r}", "malformed_command")
    if not command.reason.strip():
        raise fail("a retraction needs a reason", "malformed_command")
    if command.count > state.depth:
        raise fail(f"only {state.depth} event(s) can be retracted (GameStarted cannot)", "nothing_to_retract")
    earliest = state  # the state the earliest retracted event produced
    for _ in range(command.count - 1):
        assert earliest.prior is not None
        earliest = earliest.prior
    needed = command.count
    while _follows_up(earliest):
        assert earliest.prior is not None
        earliest = earliest.prior
        needed += 1
    if needed > command.count:
        raise fail(
            f"retracting {command.count} event(s) would keep a move but undo the scoring it caused; "
            f"retract {needed} to undo the move as well",
            "retract_partial",
        )
    before = earliest.prior
    assert before is not None
    if state.mode == DIGITAL and before.tally.hands_dealt < state.tally.hands_dealt:
        # Undoing a digital deal would let the next DealHand draw a fresh shuffle.
        raise fail(
            f"retracting {command.count} event(s) would undo hand {state.tally.hands_dealt}'s deal; "
            "a digital deal is never retracted, so a hand cannot be re-dealt",
            "cannot_retract_deal",
        )
    return [Retracted(command.count, command.reason)]


def _follows_up(state: GameState) -> bool:
    """Whether the event that produced ``state`` only ever follows another event of the
    same command (``HandScored``, a corrected hand's new ``HandScored``, ``GameFinished``):
    it cannot be retracted alone."""
    before = state.prior
    assert before is not None
    scored = len(state.tally.results) > len(before.tally.results) or before.tally.correcting != 0
    return scored or (state.status == FINISHED and before.status != FINISHED)


def abandon(state: GameState, command: AbandonGame) -> list[Event]:
    live(state)
    return [GameAbandoned(command.reason)]


def already_started(state: GameState, command: StartGame) -> list[Event]:
    raise fail("this game has already started", "game_already_started")
