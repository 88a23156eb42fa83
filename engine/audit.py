"""Auditing a whole log: every move decided again, every hand scored again.

:func:`engine.apply` checks one event against the state (:mod:`engine.provenance`):
the seat to move, a card it could hold, a deck dealt once. It folds a ``HandScored`` as
recorded, since a live log's scores come from ``decide``. A log read from outside (an
archive, an import) is not trusted that far: :func:`audit_log` reads each recorded move
back as the command that wrote it, passes it through the command's wire form (the limits
the API applies), asks :func:`engine.decide` again, and requires the log to hold exactly
the events the rules give. A hand whose recorded cards or scores were changed, an event
dropped or two swapped, a re-entry paid the wrong amount: each is refused at the first
event that differs, with one of these codes (besides the provenance codes and the
``IllegalMove`` codes of :data:`engine.CODES` when the rules refuse the move itself):

- ``not_a_move``: a ``HandScored`` or ``GameFinished`` that no move before it causes;
- ``event_differs``: a move recorded otherwise than the rules write it;
- ``rescored``: an event the rules add to a move (the hand's score, the game's end)
  holds other values than the rules give;
- ``event_missing``: the rules add an event the log does not have there.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from typing import Any

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
    command_from_dict,
)
from engine.errors import EngineError
from engine.events import (
    CardDiscarded,
    CardDrawn,
    DrawDeclined,
    Event,
    GameAbandoned,
    GameStarted,
    HandCorrected,
    HandDealt,
    HandResultRecorded,
    HandRevealed,
    InvalidEvent,
    Knocked,
    ReentryDecided,
    Retracted,
    ScoreAdjusted,
    SeatReplaced,
    StockRestocked,
    UpcardPassed,
)
from engine.play import decide
from engine.reducer import apply
from engine.state import DIGITAL, GameState

__all__ = ["LogRefused", "audit_log"]


class LogRefused(InvalidEvent):
    """A log that is not what the rules would have written; ``index`` is the position
    (from 0) of the first event that differs, ``code`` says how."""

    def __init__(self, message: str, code: str, index: int) -> None:
        super().__init__(message, code)
        self.index = index


def _dealt(state: GameState, e: HandDealt) -> Command:
    if state.setup.mode == DIGITAL:
        return DealHand(deck=e.deck)
    return DealHand(upcard=e.upcard, hands=e.hands)


def _drawn(state: GameState, e: CardDrawn) -> Command:
    if e.source == "discard":
        return DrawFromDiscard(e.seat)
    # a digital stock draw names no card: the server knows the stock
    return DrawFromStock(e.seat, None if state.setup.mode == DIGITAL else e.card)


_COMMANDS: dict[type[Event], Callable[[GameState, Any], Command]] = {
    HandDealt: _dealt,
    UpcardPassed: lambda state, e: PassUpcard(e.seat),
    CardDrawn: _drawn,
    CardDiscarded: lambda state, e: Discard(e.seat, e.card),
    Knocked: lambda state, e: Knock(e.seat, e.card, e.lay_down),
    StockRestocked: lambda state, e: Restock(e.seat, e.order),
    DrawDeclined: lambda state, e: DeclineDraw(e.seat),
    HandRevealed: lambda state, e: RevealHand(e.seat, e.cards, e.melds),
    HandResultRecorded: lambda state, e: RecordHandResult(e.knocker, e.hands, e.deadwood),
    ReentryDecided: lambda state, e: DecideReentry(e.seat, e.reenter),
    ScoreAdjusted: lambda state, e: AdjustScore(e.seat, e.points, e.reason),
    SeatReplaced: lambda state, e: ReplaceSeat(e.seat, e.name, e.bot),
    Retracted: lambda state, e: Retract(e.count, e.reason),
    GameAbandoned: lambda state, e: AbandonGame(e.reason),
    HandCorrected: lambda state, e: CorrectHand(e.hand_number, e.reason, e.knocker, e.hands, e.deadwood),
}


def _command(state: GameState | None, event: Event, index: int) -> Command:
    """The command that wrote ``event``, as it would have come over the wire."""
    if state is None:
        assert isinstance(event, GameStarted)  # apply() refused any other opening
        command: Command = StartGame(event.ruleset, event.seats, event.mode, event.first_dealer, event.stake)
    else:
        build = _COMMANDS.get(type(event))
        if build is None:
            raise LogRefused(f"{event.TYPE} follows no move that causes it", "not_a_move", index)
        command = build(state, event)
    return command_from_dict(command.to_dict())  # the wire's limits, as the API applies them


def _same(recorded: Event, decided: Event) -> bool:
    """Equal as stored: a recorded event read from JSON holds lists where a decided one
    may hold tuples, so the values are compared in their JSON form when they differ."""
    if recorded == decided:
        return True
    return json.dumps(recorded.to_dict(), sort_keys=True) == json.dumps(decided.to_dict(), sort_keys=True)


def _differs(recorded: Event, decided: Event) -> str:
    """Where a recorded event differs from the decided one (down to the innermost keys
    that differ), both values."""
    return "; ".join(
        f"{where}: recorded {_cut(mine)}, the rules give {_cut(theirs)}"
        for where, mine, theirs in _differences(recorded.to_data(), decided.to_data(), "")
    )


def _differences(mine: Any, theirs: Any, where: str) -> list[tuple[str, Any, Any]]:
    if isinstance(mine, dict) and isinstance(theirs, dict) and mine.keys() == theirs.keys():
        return [d for key in mine for d in _differences(mine[key], theirs[key], f"{where}.{key}".lstrip("."))]
    if json.dumps(mine, sort_keys=True) == json.dumps(theirs, sort_keys=True):
        return []
    return [(where, mine, theirs)]


def _cut(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 200 else text[:197] + "..."


def audit_log(events: Sequence[Event]) -> GameState:
    """The state at the end of ``events`` if the rules would have written exactly this
    log, command by command; else ``InvalidEvent`` (a :class:`LogRefused` with the index
    of the first event that differs).

    >>> import dataclasses
    >>> from fractions import Fraction
    >>> from engine import RecordHandResult, StartGame, get_ruleset, replay
    >>> log = decide(None, StartGame(get_ruleset("knock-rummy", hands=1), ("Ann", "Bo"), "physical"))
    >>> log += decide(replay(log), RecordHandResult(knocker=0, deadwood={0: 3, 1: 20}))
    >>> [e.TYPE for e in log], audit_log(log).status
    (['GameStarted', 'HandResultRecorded', 'HandScored', 'GameFinished'], 'finished')
    >>> forged = dataclasses.replace(log[2], points={0: Fraction(99), 1: Fraction(-99)})
    >>> try:
    ...     audit_log([*log[:2], forged, log[3]])
    ... except LogRefused as refused:
    ...     print(refused.code, refused.index)
    ...     for part in refused.message.split(": ", 1):
    ...         print(part)
    rescored 2
    HandScored is not what the rules give
    points.0: recorded '99', the rules give '17'; points.1: recorded '-99', the rules give '-17'
    """
    state: GameState | None = None
    index = 0
    while index < len(events):
        try:
            state, index = _audit_move(state, events, index)
        except LogRefused:
            raise
        except EngineError as exc:
            raise LogRefused(exc.message, exc.code, index) from None
        except (ArithmeticError, LookupError, TypeError, ValueError, AssertionError) as exc:
            # a forged event the checks let through must still be a refusal, never a crash
            raise LogRefused(
                f"{events[index].TYPE} cannot be replayed ({exc!r})", "invalid_event", index
            ) from None
    if state is None:
        raise InvalidEvent("an empty log has no game")
    return state


def _audit_move(state: GameState | None, events: Sequence[Event], index: int) -> tuple[GameState, int]:
    """Check the move at ``index`` and the events its command adds; the state after them
    and the index of the next move."""
    event = events[index]
    after = apply(state, event)  # the provenance checks first: their codes are the precise ones
    try:
        decided = decide(state, _command(state, event, index))
    except LogRefused:
        raise
    except EngineError as exc:  # the rules refuse the recorded move, or its wire form
        raise LogRefused(f"{event.TYPE} is refused: {exc.message}", exc.code, index) from None
    if isinstance(event, GameStarted) and isinstance(decided[0], GameStarted):
        # The knocker-arrangement rule is the one the game was started under (a v1 log's is
        # first_best), not a choice of the move: the log keeps its own, and every hand is
        # scored again by it. apply() above refused a rule the engine does not know.
        decided[0] = dataclasses.replace(decided[0], knock_arrangement=event.knock_arrangement)
    if not _same(event, decided[0]):
        raise LogRefused(
            f"{event.TYPE} is not what the rules write: {_differs(event, decided[0])}", "event_differs", index
        )
    for position, expected in enumerate(decided[1:], start=index + 1):
        if position >= len(events) or events[position].TYPE != expected.TYPE:
            found = "the log ends" if position >= len(events) else f"the log has {events[position].TYPE}"
            raise LogRefused(
                f"the rules add {expected.TYPE} to the {event.TYPE} before it; {found}",
                "event_missing",
                position,
            )
        recorded = events[position]
        if not _same(recorded, expected):
            raise LogRefused(
                f"{recorded.TYPE} is not what the rules give: {_differs(recorded, expected)}",
                "rescored",
                position,
            )
        after = apply(after, recorded)
    return after, index + len(decided)
