"""audit_log: a log is accepted only if the rules would have written exactly it, move by
move, every hand scored again; each kind of tampering is named at its first event."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from engine import (
    AdjustScore,
    Card,
    DealHand,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    Event,
    InvalidEvent,
    Knock,
    LogRefused,
    RecordHandResult,
    Retract,
    RevealHand,
    StartGame,
    apply,
    audit_log,
    decide,
    event_from_dict,
    event_to_dict,
    get_ruleset,
    legal_commands,
    parse_cards,
    replay,
    shuffled_deck,
)
from engine.bots import get_bot
from engine.visibility import view
from tests.support.table import Table

C = Card.parse
P = parse_cards


def recorded_showdown() -> list[Event]:
    """A physical hand of knock rummy recorded move by move, then revealed seat by seat:
    seat 0 knocks with a card nobody saw (as in test_game_physical)."""
    table = Table(get_ruleset("knock-rummy", hands=1), ["Ann", "Bo", "Cy"], mode="physical")
    table.do(DealHand(upcard=C("TD")))
    table.do(DrawFromDiscard(1))
    table.do(Discard(1, C("9D")))
    table.do(DrawFromStock(2))
    table.do(Discard(2, C("KS")))
    table.do(DrawFromDiscard(0))
    table.do(Knock(0, None))
    table.do(RevealHand(1, P("TD JD QD 2C 3C 4C 8H")))
    table.do(RevealHand(2, P("5S 5H 5C AH 2H 3H 9S")))
    table.do(RevealHand(0, P("KS KH KD 6S 7S 8S 4D")))
    assert [e.TYPE for e in table.log[-3:]] == ["HandRevealed", "HandScored", "GameFinished"]
    return table.log


def stored(log: list[Event]) -> list[dict[str, Any]]:
    return [event_to_dict(e) for e in log]


def audited(events: list[dict[str, Any]]) -> Any:
    return audit_log([event_from_dict(e) for e in events])


def random_game(preset: str, players: int, seed: int) -> list[Event]:
    """A whole digital game, each move the greedy bot's half the time, else at random."""
    rng = random.Random(seed)
    ruleset = get_ruleset(preset, hands=2) if preset.startswith("knock-rummy") else get_ruleset(preset)
    log = decide(None, StartGame(ruleset, tuple(f"P{i}" for i in range(players))))
    state = replay(log)
    greedy = get_bot("greedy")
    while state.status != "finished":
        if state.needs_deal:
            command: Any = DealHand(deck=shuffled_deck(ruleset, rng.random()))
        elif rng.random() < 0.5:
            command = greedy(view(state, state.to_move), rng)
        else:
            command = rng.choice(legal_commands(state))
        for event in decide(state, command):
            state = apply(state, event)
            log.append(event)
    return log


@pytest.mark.parametrize("preset", ["knock-rummy", "knock-rummy-hoyle", "knock-rami", "gin"])
@pytest.mark.parametrize("seed", range(4))
def test_every_log_the_rules_write_audits(preset: str, seed: int) -> None:
    log = random_game(preset, 2 + seed % 3, seed)
    assert audit_log(log) == replay(log)


def test_a_recorded_showdown_and_corrections_audit() -> None:
    log = recorded_showdown()
    assert audit_log(log) == replay(log)
    corrected = Table(get_ruleset("knock-rummy", hands=1), ["Ann", "Bo", "Cy"], mode="physical")
    corrected.do(RecordHandResult(knocker=1, deadwood={0: 20, 1: 2, 2: 30}))
    corrected.do(Retract(3, "wrong knocker"))
    corrected.do(AdjustScore(2, Fraction(-5), "penalty"))
    corrected.do(RecordHandResult(knocker=0, deadwood={0: 2, 1: 20, 2: 30}))
    assert audit_log(corrected.log) == corrected.s


Tamper = Callable[[list[dict[str, Any]]], None]


def _set(index: int, path: tuple[str, ...], value: Any) -> Tamper:
    def tamper(events: list[dict[str, Any]]) -> None:
        node = events[index]["data"]
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return tamper


def _swap(a: int, b: int) -> Tamper:
    def tamper(events: list[dict[str, Any]]) -> None:
        events[a], events[b] = events[b], events[a]

    return tamper


def _drop(index: int) -> Tamper:
    return lambda events: events.pop(index) and None


# The showdown log: 0 GameStarted, 1 HandDealt, 2 CardDrawn(1, TD), 3 CardDiscarded(1, 9D),
# 4 CardDrawn(2), 5 CardDiscarded(2, KS), 6 CardDrawn(0, KS), 7 Knocked(0), 8-10 HandRevealed
# (seats 1, 2, 0), 11 HandScored, 12 GameFinished.
SEAT_2 = ["5S", "5H", "5C", "AH", "2H", "3H", "9S"]  # as revealed (event 9)
TAMPERINGS: list[tuple[str, Tamper, int, str]] = [
    # A card of a revealed hand: 9S for 9C scores the same deadwood, but the scored hand
    # recorded with it no longer matches.
    ("revealed card, same deadwood", _set(9, ("cards",), [*SEAT_2[:6], "9C"]), 11, "rescored"),
    ("revealed card, other deadwood", _set(9, ("cards",), [*SEAT_2[:6], "TS"]), 11, "rescored"),
    ("revealed card seen elsewhere", _set(9, ("cards",), [*SEAT_2[:6], "9D"]), 9, "forged_reveal"),
    ("scored points", _set(11, ("points", "1"), "-1"), 11, "rescored"),
    ("scored outcome", _set(11, ("outcome",), "undercut"), 11, "rescored"),
    ("game result", _set(12, ("result", "winners"), [1]), 12, "rescored"),
    ("a discard dropped", _drop(3), 3, "forged_move"),
    ("the scoring dropped", _drop(11), 11, "event_missing"),
    ("the game's end dropped", _drop(12), 12, "event_missing"),
    ("a draw and its discard swapped", _swap(2, 3), 2, "forged_move"),
    ("the last reveal and the scoring swapped", _swap(10, 11), 10, "not_a_move"),
    ("a scoring repeated", lambda ev: ev.append(dict(ev[11])), 13, "not_a_move"),
    ("the knocker changed", _set(7, ("seat",), 1), 7, "forged_move"),
    ("the dealt hand number", _set(1, ("hand_number",), 2), 1, "forged_deal"),
]  # fmt: skip


# What replay alone lets through: a score, or an event a move adds. (A revealed hand that
# contradicts the public record, or a reveal after the hand was scored, the provenance
# checks of replay refuse too.)
ONLY_THE_AUDIT_SEES = {"rescored", "event_missing", "not_a_move"}
REPLAY_SEES_TOO = {"the last reveal and the scoring swapped"}


@pytest.mark.parametrize(("name", "tamper", "index", "code"), TAMPERINGS, ids=[t[0] for t in TAMPERINGS])
def test_each_tampering_is_refused_at_its_first_event(
    name: str, tamper: Tamper, index: int, code: str
) -> None:
    events = stored(recorded_showdown())
    audited(events)
    tamper(events)
    with pytest.raises(LogRefused) as refused:
        audited(events)
    assert (refused.value.code, refused.value.index) == (code, index), refused.value.message
    if code in ONLY_THE_AUDIT_SEES and name not in REPLAY_SEES_TOO:
        replay([event_from_dict(e) for e in events])  # the plain fold takes the log as recorded
    else:
        with pytest.raises(InvalidEvent):
            replay([event_from_dict(e) for e in events])


def test_a_digital_hand_rescored_is_refused_with_both_values() -> None:
    log = random_game("knock-rummy", 3, 11)
    scored = next(i for i, e in enumerate(log) if e.TYPE == "HandScored")
    events = stored(log)
    seat = next(iter(events[scored]["data"]["points"]))
    right = events[scored]["data"]["points"][seat]
    events[scored]["data"]["points"][seat] = str(Fraction(right) + 1)
    replay([event_from_dict(e) for e in events])  # the plain fold takes the recorded score
    with pytest.raises(LogRefused) as refused:
        audited(events)
    assert (refused.value.code, refused.value.index) == ("rescored", scored)
    assert refused.value.message == (
        f"HandScored is not what the rules give: points.{seat}: recorded '{Fraction(right) + 1}', "
        f"the rules give '{right}'"
    )


def test_a_move_beyond_the_commands_limits_is_refused() -> None:
    """An adjustment the API's AdjustScore could not carry (over its ±1,000,000)."""
    table = Table(get_ruleset("knock-rummy", hands=1), ["Ann", "Bo"], mode="physical")
    table.do(RecordHandResult(knocker=0, deadwood={0: 3, 1: 20}))
    events = stored(table.log)
    events.append(
        {
            "type": "ScoreAdjusted",
            "schema_version": 1,
            "data": {"seat": 0, "points": "5000000", "reason": "x"},
        }
    )
    with pytest.raises(LogRefused) as refused:
        audited(events)
    assert (refused.value.code, refused.value.index) == ("malformed_command", len(events) - 1)
