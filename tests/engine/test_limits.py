"""The engine's boundary: commands and events parsed from dicts, and rule set options.

Every number has a range, every string a length, and a refusal carries a stable code."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from engine import (
    Card,
    EngineError,
    IllegalMove,
    InvalidCard,
    InvalidEvent,
    InvalidRuleSet,
    Seat,
    StartGame,
    command_from_dict,
    decide,
    event_from_dict,
    get_ruleset,
)

BIG = 99999999999999999999999999999999


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"type": "Discard", "seat": True, "card": "QS"},
            "Discard: bad 'seat': expected a whole number, got True",
        ),
        (
            {"type": "Discard", "seat": 8, "card": "QS"},
            "Discard: bad 'seat': expected a whole number 0..7, got 8",
        ),
        (
            {"type": "Discard", "seat": -1, "card": "QS"},
            "Discard: bad 'seat': expected a whole number 0..7, got -1",
        ),
        (
            {"type": "Discard", "seat": BIG, "card": "QS"},
            f"Discard: bad 'seat': expected a whole number 0..7, got {BIG}",
        ),
        (
            {"type": "Discard", "seat": 1e4300, "card": "QS"},
            "Discard: bad 'seat': expected a whole number, got inf",
        ),
        (
            {"type": "Retract", "count": 1.0, "reason": "x"},
            "Retract: bad 'count': expected a whole number, got 1.0",
        ),
        (
            {"type": "Retract", "count": 1_000_001, "reason": "x"},
            "Retract: bad 'count': expected a whole number 0..1000000, got 1000001",
        ),
        (
            {"type": "AdjustScore", "seat": 0, "points": BIG, "reason": "x"},
            f"AdjustScore: bad 'points': expected a whole number -1000000..1000000, got {BIG}",
        ),
        (
            {"type": "AdjustScore", "seat": 0, "points": "1/0", "reason": "x"},
            "AdjustScore: bad 'points': '1/0' divides by zero",
        ),
        (
            {"type": "AdjustScore", "seat": 0, "points": "abc", "reason": "x"},
            "AdjustScore: bad 'points': expected an exact number like '7' or '-20/3', got 'abc'",
        ),
        (
            {"type": "AdjustScore", "seat": 0, "points": "1e4300", "reason": "x"},
            "AdjustScore: bad 'points': expected an exact number like '7' or '-20/3', got '1e4300'",
        ),
        (
            {"type": "AdjustScore", "seat": 0, "points": "2000001/2", "reason": "x"},
            "AdjustScore: bad 'points': expected an exact number within ±1000000 (denominator at most "
            "1000000), got '2000001/2'",
        ),
        (
            {"type": "AdjustScore", "seat": 0, "points": "9" * 21, "reason": "x"},
            f"AdjustScore: bad 'points': expected an exact number like '7' or '-20/3', got '{'9' * 21}'",
        ),
        (
            {"type": "AdjustScore", "seat": 0, "points": 1.5, "reason": "x"},
            "AdjustScore: bad 'points': expected an exact number (integer or 'p/q' string), got 1.5",
        ),
        (
            {"type": "AdjustScore", "seat": 0, "points": -5, "reason": "x" * 501},
            "AdjustScore: bad 'reason': expected at most 500 characters, got 501",
        ),
        (
            {"type": "AbandonGame", "reason": "fire\u0000"},
            "AbandonGame: bad 'reason': a string may not contain NUL",
        ),
        (
            {"type": "AbandonGame", "reason": "fire\ud800"},
            "AbandonGame: bad 'reason': a string may not contain a lone surrogate",
        ),
        (
            {"type": "ReplaceSeat", "seat": 0, "name": "n" * 81},
            "ReplaceSeat: bad 'name': expected at most 80 characters, got 81",
        ),
        (
            {"type": "StartGame", "ruleset": "gin", "seats": ["Ann", "B" * 81]},
            "StartGame: bad 'seats': expected at most 80 characters, got 81",
        ),
        (
            {"type": "StartGame", "ruleset": "gin", "seats": ["Ann"] * 9},
            "StartGame: bad 'seats': expected at most 8 seats, got 9",
        ),
        (
            {"type": "RecordHandResult", "deadwood": {"0": -1, "1": 3}},
            "RecordHandResult: bad 'deadwood': expected a whole number 0..1000000, got -1",
        ),
        (
            {"type": "RecordHandResult", "deadwood": {"9": 1, "1": 3}},
            "RecordHandResult: bad 'deadwood': expected a whole number 0..7, got 9",
        ),
        (
            {"type": "DealHand", "deck": ["AS"] * 109},
            "DealHand: bad 'deck': expected at most 108 cards, got 109",
        ),
    ],
)
def test_commands_out_of_range_are_malformed(data: dict[str, Any], message: str) -> None:
    with pytest.raises(IllegalMove) as error:
        command_from_dict(data)
    assert (error.value.code, error.value.message) == ("malformed_command", message)


def test_limits_at_the_edge_are_accepted() -> None:
    cmd = command_from_dict({"type": "AdjustScore", "seat": 7, "points": "-1000000", "reason": "r" * 500})
    assert cmd.to_dict() == {"type": "AdjustScore", "seat": 7, "points": "-1000000", "reason": "r" * 500}
    name = "n" * 80
    assert command_from_dict({"type": "ReplaceSeat", "seat": 0, "name": name}).to_dict()["name"] == name


def test_a_start_built_in_python_is_refused_like_one_from_the_wire() -> None:
    with pytest.raises(IllegalMove) as error:
        StartGame(get_ruleset("gin"), (Seat("Ann"), Seat("Bo\u0000")))
    assert (error.value.code, error.value.message) == (
        "malformed_command",
        "StartGame: bad 'seats': a string may not contain NUL",
    )
    with pytest.raises(IllegalMove) as stake:
        decide(None, StartGame(get_ruleset("gin"), (Seat("Ann"), Seat("Bo")), stake=Fraction(10**7)))
    assert (stake.value.code, stake.value.message) == (
        "invalid_setup",
        "the stake must be at most 1000000, with a denominator of at most 1000000",
    )


@pytest.mark.parametrize(
    ("stored", "message"),
    [
        (
            {"type": "ScoreAdjusted", "data": {"seat": 0, "points": str(BIG), "reason": "x"}},
            f"ScoreAdjusted: bad 'points': expected an exact number like '7' or '-20/3', got '{BIG}'",
        ),
        (
            {"type": "ScoreAdjusted", "data": {"seat": 0, "points": "1/0", "reason": "x"}},
            "ScoreAdjusted: bad 'points': '1/0' divides by zero",
        ),
        (
            {
                "type": "HandDealt",
                "data": {"hand_number": BIG, "dealer": 0, "deck": None, "upcard": "AS", "hands": {}},
            },
            f"HandDealt: bad 'hand_number': expected a whole number 0..1000000, got {BIG}",
        ),
        (
            {"type": "Retracted", "data": {"count": 1, "reason": "\ud800"}},
            "Retracted: bad 'reason': a string may not contain a lone surrogate",
        ),
        (
            {
                "type": "HandScored",
                "data": {
                    "hand_number": 1,
                    "outcome": "knock_won",
                    "knocker": 0,
                    "deadwood": {},
                    "points": {},
                    "winners": [0],
                    "rum_seats": [],
                    "verified": True,
                    "detail": {"x": BIG},
                },
            },
            f"HandScored: bad 'detail': expected a whole number -1000000000000..1000000000000, got {BIG}",
        ),
        (
            {"type": "GameFinished", "data": {"result": {"ranking": []}}},
            "GameFinished: bad 'result': a match result has exactly the fields ranking, places, points, "
            "totals, hands_won, rums, hands_played, pool, winners",
        ),
        (
            {
                "type": "GameStarted",
                "data": {
                    "ruleset": {"preset": 1},
                    "seats": ["A", "B"],
                    "mode": "digital",
                    "first_dealer": 0,
                    "stake": "0",
                },
            },
            "GameStarted: bad 'ruleset': a rule preset is named by a short string, not 1",
        ),
    ],
)
def test_events_out_of_range_are_invalid(stored: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidEvent) as error:
        event_from_dict(stored)
    assert (error.value.code, error.value.message) == ("invalid_event", message)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"jokers": "1"}, "option 'jokers' must be a whole number, not '1'"),
        ({"jokers": True}, "option 'jokers' must be a whole number, not True"),
        ({"reentry": 1}, "option 'reentry' must be true or false, not 1"),
        ({"hands": [10]}, "option 'hands' must be a whole number, not [10]"),
        ({"hands": {"n": 10}}, "option 'hands' must be a whole number, not {'n': 10}"),
        (
            {"scoring": {"gin": 1}},
            "option 'scoring' must be one of settlement, cumulative, gin; got {'gin': 1}",
        ),
        ({"scoring": ["gin"]}, "option 'scoring' must be one of settlement, cumulative, gin; got ['gin']"),
        (
            {"knocker_penalty": BIG},
            f"option 'knocker_penalty' must be at most 1000000, not {BIG}",
        ),
        ({"cards_dealt": {2: 10, 99: 7}}, "option 'cards_dealt' has a player count outside 2..8"),
        ({"cards_dealt": {2: True}}, "option 'cards_dealt' must map a player count to a number of cards"),
        ({"name": 1}, "unknown option 'name' for knock-rummy"),
    ],
)
def test_options_are_typed_by_the_rule_set(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidRuleSet) as error:
        get_ruleset("knock-rummy", **options)
    assert (error.value.code, error.value.message) == ("invalid_ruleset", message)


def test_a_preset_name_must_be_a_string() -> None:
    with pytest.raises(InvalidRuleSet) as error:
        get_ruleset(1)  # type: ignore[arg-type]
    assert (error.value.code, error.value.message) == (
        "invalid_ruleset",
        "a rule preset is named by a short string, not 1",
    )


def test_every_engine_error_carries_a_stable_code() -> None:
    with pytest.raises(InvalidCard) as card:
        Card.parse("QZ")
    assert (card.value.code, card.value.message) == ("invalid_card", "invalid card 'QZ'")
    with pytest.raises(InvalidRuleSet) as rules:
        get_ruleset("poker")
    assert rules.value.code == "invalid_ruleset"
    assert rules.value.message.startswith("unknown rule preset 'poker'")
    for error in (card.value, rules.value):
        assert isinstance(error, EngineError) and isinstance(error, ValueError)


def test_a_refused_value_never_reaches_the_json_encoder() -> None:
    # Everything accepted encodes as plain JSON with 64-bit integers (what orjson can write).
    cmd = command_from_dict({"type": "AdjustScore", "seat": 0, "points": "999998/7", "reason": "ok"})
    encoded = json.dumps(cmd.to_dict())
    assert encoded == '{"type": "AdjustScore", "seat": 0, "points": "999998/7", "reason": "ok"}'


@pytest.mark.parametrize(
    ("detail", "message"),
    [
        ({"hands": {"0": ["AS", "bad\u0000"]}}, "a string may not contain NUL"),
        ({"hands": {"0": ["AS", "\ud800"]}}, "a string may not contain a lone surrogate"),
        ({"x": float("inf")}, "expected a finite number within ±1000000000000, got inf"),
        ({"a": [[[[[[[[["deep"]]]]]]]]]}, "nested more than 8 levels deep"),
    ],
)
def test_a_scored_hands_detail_is_plain_json_within_the_limits(detail: dict[str, Any], message: str) -> None:
    data = {
        "hand_number": 1,
        "outcome": "knock_won",
        "knocker": 0,
        "deadwood": {},
        "points": {},
        "winners": [0],
        "rum_seats": [],
        "verified": True,
        "detail": detail,
    }
    with pytest.raises(InvalidEvent) as error:
        event_from_dict({"type": "HandScored", "data": data})
    assert (error.value.code, error.value.message) == (
        "invalid_event",
        f"HandScored: bad 'detail': {message}",
    )
