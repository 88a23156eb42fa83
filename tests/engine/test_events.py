"""Events and commands: stored forms, round trips, upcasting of old payloads."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

import pytest

from engine import (
    AbandonGame,
    AdjustScore,
    Card,
    CorrectHand,
    DealHand,
    DecideReentry,
    DeclineDraw,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    InvalidEvent,
    Knock,
    PassUpcard,
    RecordHandResult,
    ReplaceSeat,
    Restock,
    Retract,
    RevealHand,
    Seat,
    StartGame,
    command_from_dict,
    command_to_dict,
    event_from_dict,
    event_to_dict,
    get_ruleset,
    parse_cards,
    replay,
)
from engine import codec as c
from engine.events import (
    EVENT_TYPES,
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
    Knocked,
    ReentryDecided,
    Retracted,
    ScoreAdjusted,
    SeatReplaced,
    StockRestocked,
    UpcardPassed,
)
from engine.upcasting import UPCASTERS, register_upcaster
from engine.values import MatchResult

P = parse_cards
RESULT = MatchResult(
    ((1,), (0, 2)),
    (2, 1, 2),
    (Fraction(-1, 3), Fraction(2, 3), Fraction(-1, 3)),
    (Fraction(1), Fraction(2), Fraction(1)),
    (0, 2, 0),
    (0, 1, 0),
    2,
    Fraction(30),
    (1,),
)

EVENTS: list[Event] = [
    GameStarted(
        get_ruleset("rami", reentry=False), (Seat("Ann"), Seat("Bot", "greedy")), "digital", 1, Fraction(5, 2)
    ),
    HandDealt(1, 0, P("AS 2S 3S"), Card.parse("3S"), {}),
    HandDealt(2, 1, None, Card.parse("TD"), {0: P("AS 2S 3S")}),
    UpcardPassed(1),
    CardDrawn(0, "stock", None),
    CardDrawn(0, "discard", Card.parse("X1")),
    CardDiscarded(2, Card.parse("QS")),
    Knocked(1, Card.parse("7H")),
    Knocked(1, None, lay_down=True),
    StockRestocked(0, "turn_over", None),
    StockRestocked(0, "reshuffle", P("KD 2C")),
    DrawDeclined(3),
    HandRevealed(1, P("TD JD QD 2C"), (P("TD JD QD"),)),
    HandRevealed(1, P("TD JD QD 2C")),
    HandResultRecorded(3, 2, None, None, {0: 4, 1: 0}),
    HandResultRecorded(3, 2, 1, {0: P("AS"), 1: P("2S")}, None),
    HandScored(
        3,
        "knock_won",
        1,
        {1: 0, 0: 7},
        {1: Fraction(7), 0: Fraction(-7)},
        (1,),
        (),
        True,
        {"hands": {"1": ["AS"]}, "showdown": {"points": {"1": "7"}}},
    ),
    HandScored(4, "void", None, {}, {}, (), (), True, {}),
    ReentryDecided(2, True, Fraction(45, 2), Fraction(88)),
    ScoreAdjusted(0, Fraction(-10), "slow play"),
    SeatReplaced(1, "Sub", None),
    SeatReplaced(1, "Robo", "random"),
    Retracted(2, "misclick"),
    GameAbandoned("fire alarm"),
    GameFinished(RESULT),
    HandCorrected(2, 0, None, {0: 0, 1: 12}, "Ann knocked, not Bo", 1, {0: Fraction(-10), 1: Fraction(10)}),
]


def test_every_event_type_is_covered() -> None:
    assert {type(e) for e in EVENTS} == set(EVENT_TYPES.values())


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: type(e).__name__)
def test_event_round_trip_through_json(event: Event) -> None:
    stored = event_to_dict(event)
    assert set(stored) == {"type", "schema_version", "data"}
    assert stored["type"] == type(event).__name__ and stored["schema_version"] == type(event).SCHEMA_VERSION
    assert event_from_dict(json.loads(json.dumps(stored))) == event


COMMANDS = [
    StartGame(get_ruleset("gin"), ("Ann", {"name": "Bot", "bot": "greedy"}), "physical", 1, 3),  # type: ignore[arg-type]
    DealHand(deck=P("AS 2S")),
    DealHand(upcard=Card.parse("TD"), hands={0: P("AS 2S")}),
    PassUpcard(0),
    DrawFromStock(1),
    DrawFromStock(1, Card.parse("9H")),
    DrawFromDiscard(1),
    Discard(0, Card.parse("QS")),
    Knock(0, Card.parse("QS")),
    Knock(0, None, lay_down=True),
    Restock(0),
    Restock(0, P("KD 2C")),
    DeclineDraw(2),
    RevealHand(1, P("TD JD QD"), (P("TD JD QD"),)),
    RecordHandResult(knocker=None, deadwood={0: 4, 1: 9}),
    RecordHandResult(knocker=1, hands={0: P("AS"), 1: P("2S")}),
    DecideReentry(1, False),
    AdjustScore(0, Fraction(-5, 2), "late"),
    ReplaceSeat(1, "Robo", "random"),
    Retract(2, "misclick"),
    AbandonGame("storm"),
    CorrectHand(2, "Ann knocked, not Bo", knocker=0, hands={0: P("AS 2S 3S"), 1: P("KD QD JD")}),
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: type(c).__name__)
def test_command_round_trip_through_json(command: Any) -> None:
    wire = command_to_dict(command)
    assert wire["type"] == type(command).__name__
    assert command_from_dict(json.loads(json.dumps(wire))) == command


def test_commands_accept_friendly_input() -> None:
    start = command_from_dict({"type": "StartGame", "ruleset": "gin", "seats": ["Ann", "Bo"], "stake": "5/2"})
    assert isinstance(start, StartGame)
    assert start.ruleset == get_ruleset("gin") and start.seats == (Seat("Ann"), Seat("Bo"))
    assert start.stake == Fraction(5, 2) and start.mode == "digital" and start.first_dealer == 0
    deal = command_from_dict({"type": "DealHand", "upcard": "10h", "hands": {"1": "as 2s 3s"}})
    assert deal == DealHand(upcard=Card.parse("TH"), hands={1: P("AS 2S 3S")})
    assert DealHand(deck="AS 2S") == DealHand(deck=P("AS 2S"))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("stored", "code", "message"),
    [
        (
            {"type": "Nope", "schema_version": 1, "data": {}},
            "unknown_event_type",
            "unknown event type 'Nope'",
        ),
        (
            {"type": "DrawDeclined", "schema_version": 2, "data": {"seat": 1}},
            "event_from_the_future",
            "DrawDeclined v2 is newer than this engine reads (v1)",
        ),
        (
            {"type": "DrawDeclined", "schema_version": 1, "data": {}},
            "invalid_event",
            "DrawDeclined: missing field 'seat'",
        ),
        (
            {"type": "DrawDeclined", "schema_version": 1, "data": {"seat": 1, "x": 2}},
            "invalid_event",
            "DrawDeclined: unknown field(s) x",
        ),
        (
            {"type": "CardDiscarded", "schema_version": 1, "data": {"seat": 1, "card": "ZZ"}},
            "invalid_event",
            "CardDiscarded: bad 'card': invalid card 'ZZ'",
        ),
        (
            {
                "type": "HandDealt",
                "schema_version": 1,
                "data": {"hand_number": 1, "dealer": 0, "deck": ["AS", "ZZ"], "upcard": "AS", "hands": {}},
            },
            "invalid_event",
            "HandDealt: bad 'deck': invalid card 'ZZ'",
        ),
        (
            {"type": "DrawDeclined", "schema_version": 0, "data": {"seat": 1}},
            "invalid_event",
            "DrawDeclined: schema_version must be a positive integer, not 0",
        ),
    ],
)
def test_unreadable_events(stored: dict[str, Any], code: str, message: str) -> None:
    with pytest.raises(InvalidEvent) as error:
        event_from_dict(stored)
    assert (error.value.code, error.value.message) == (code, message)


@dataclass(frozen=True, slots=True)
class TableTalk(Event):
    """A made-up event at schema version 2: v1 called the speaker ``player`` and had no
    ``loud`` flag."""

    TYPE: ClassVar[str] = "TableTalk"
    SCHEMA_VERSION: ClassVar[int] = 2
    seat: int
    words: str
    loud: bool


@pytest.fixture
def table_talk() -> Iterator[None]:
    TableTalk.FIELDS = c.codecs_of(TableTalk)
    EVENT_TYPES["TableTalk"] = TableTalk

    @register_upcaster("TableTalk", 1)
    def upcast_tabletalk_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
        return {"seat": data["player"], "words": data["words"], "loud": False}

    yield
    del EVENT_TYPES["TableTalk"]
    del UPCASTERS[("TableTalk", 1)]


@pytest.mark.usefixtures("table_talk")
def test_an_old_event_is_upcast_on_read_never_rewritten() -> None:
    stored = {"type": "TableTalk", "schema_version": 1, "data": {"player": 2, "words": "gin!"}}
    snapshot = json.dumps(stored)
    event = event_from_dict(stored)
    assert event == TableTalk(seat=2, words="gin!", loud=False)
    assert json.dumps(stored) == snapshot  # the stored payload is untouched
    assert event_to_dict(event) == {
        "type": "TableTalk",
        "schema_version": 2,
        "data": {"seat": 2, "words": "gin!", "loud": False},
    }
    assert event_from_dict(event_to_dict(event)) == event
    with pytest.raises(ValueError, match="already registered"):
        register_upcaster("TableTalk", 1)(lambda data: data)


def test_stored_forms_are_byte_identical_to_the_pinned_payloads() -> None:
    """Stored logs must keep replaying: the payloads written before the fields were
    declared once (tests/engine/stored_payloads.json) are exactly what is written now.
    Forms an event has since outgrown are pinned in upcast_payloads.json (below)."""
    pinned = (Path(__file__).parent / "stored_payloads.json").read_text()
    now = {"events": [event_to_dict(e) for e in EVENTS], "commands": [command_to_dict(c) for c in COMMANDS]}
    assert json.dumps(now, indent=1) + "\n" == pinned
    for stored in json.loads(pinned)["events"]:
        assert json.dumps(event_to_dict(event_from_dict(stored))) == json.dumps(stored)
    for wire in json.loads(pinned)["commands"]:
        assert json.dumps(command_to_dict(command_from_dict(wire))) == json.dumps(wire)


def test_pinned_older_forms_upcast_to_the_current_ones() -> None:
    """tests/engine/upcast_payloads.json: payloads as an older engine stored them
    (GameStarted v1, verbatim from the pin above before v2), each with the current form it
    is read as; the stored payload is never changed by reading it."""
    pinned = json.loads((Path(__file__).parent / "upcast_payloads.json").read_text())
    assert {(item["stored"]["type"], item["stored"]["schema_version"]) for item in pinned} == set(UPCASTERS)
    for item in pinned:
        stored = item["stored"]
        snapshot = json.dumps(stored)
        event = event_from_dict(stored)
        assert json.dumps(stored) == snapshot
        assert event_to_dict(event) == item["read_as"]
        assert event_to_dict(event)["schema_version"] == type(event).SCHEMA_VERSION > stored["schema_version"]


def test_a_v1_game_start_keeps_the_rule_it_was_scored_by() -> None:
    v1 = json.loads((Path(__file__).parent / "upcast_payloads.json").read_text())[0]["stored"]
    started = event_from_dict(v1)
    assert isinstance(started, GameStarted)
    assert started.knock_arrangement == "first_best"
    assert replay([started]).setup.knock_arrangement == "first_best"
    # a v1 payload cannot claim the new rule: v1 predates it
    forged = {**v1, "data": {**v1["data"], "knock_arrangement": "fewest_layoffs"}}
    assert event_from_dict(forged) == started
    # the current form must name its rule, and a known one
    seats = (Seat("Ann"), Seat("Bo"))
    current = event_to_dict(GameStarted(get_ruleset("gin"), seats, "digital", 0, Fraction(0)))
    assert current["schema_version"] == 2 and current["data"]["knock_arrangement"] == "fewest_layoffs"
    del current["data"]["knock_arrangement"]
    with pytest.raises(InvalidEvent) as missing:
        event_from_dict(current)
    assert (missing.value.code, missing.value.message) == (
        "invalid_event",
        "GameStarted: missing field 'knock_arrangement'",
    )
    current["data"]["knock_arrangement"] = "house_rule"
    with pytest.raises(InvalidEvent) as unknown:
        replay([event_from_dict(current)])
    assert (unknown.value.code, unknown.value.message) == (
        "forged_start",
        "GameStarted: knock_arrangement 'house_rule' is not one of first_best, fewest_layoffs",
    )
