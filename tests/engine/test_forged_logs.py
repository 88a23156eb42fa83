"""Replay accepts only logs the engine could have produced: forged events are refused."""

from __future__ import annotations

from typing import Any

import pytest

from engine import (
    Card,
    DealHand,
    DrawFromStock,
    Event,
    InvalidEvent,
    StartGame,
    decide,
    event_from_dict,
    event_to_dict,
    get_ruleset,
    replay,
    shuffled_deck,
)


def _digital_log() -> list[dict[str, Any]]:
    rs = get_ruleset("knock-rummy")
    log: list[Event] = decide(None, StartGame(rs, ("Ann", "Bo", "Cy")))
    log += decide(replay(log), DealHand(deck=shuffled_deck(rs, seed=7)))
    log += decide(replay(log), DrawFromStock(seat=1))
    return [event_to_dict(e) for e in log]


def _replay(stored: list[dict[str, Any]]) -> None:
    replay([event_from_dict(s) for s in stored])


def test_the_untouched_log_replays() -> None:
    state = replay([event_from_dict(s) for s in _digital_log()])
    assert state.version == 3 and state.to_move == 1


def _forge_deck(deck: list[str]) -> list[dict[str, Any]]:
    stored = _digital_log()[:2]
    stored[1]["data"]["deck"] = deck
    return stored


@pytest.mark.parametrize(
    "deck",
    [
        ["AS"] * 52,  # one card 52 times
        [f"{r}{s}" for s in "CDH" for r in "A23456789T"],  # a 30-card deck
        [*[f"{r}{s}" for s in "CDHS" for r in "A23456789TJQK"][:-1], "X1"],  # a joker knock-rummy has not
    ],
    ids=["one-card", "thirty-cards", "joker"],
)
def test_a_digital_deal_must_be_the_whole_deck_once(deck: list[str]) -> None:
    with pytest.raises(InvalidEvent) as error:
        _replay(_forge_deck(deck))
    assert (error.value.code, error.value.message) == (
        "forged_deck",
        "a digital HandDealt's deck must hold each of the 52 cards of knock-rummy once",
    )


@pytest.mark.parametrize(
    ("field", "value", "code", "message"),
    [
        ("hand_number", 5, "forged_deal", "HandDealt numbers hand 5, not 1"),
        ("dealer", 6, "forged_seat", "HandDealt: there is no seat 6 in this game"),
        ("upcard", "X1", "forged_deal", "HandDealt's upcard must be the deck's card after the 3 hands"),
        (
            "hands",
            {"0": ["AS"]},
            "forged_deal",
            "a digital HandDealt records the whole deck order and no hands",
        ),
    ],
)
def test_a_forged_digital_deal_names_what_is_wrong(field: str, value: Any, code: str, message: str) -> None:
    stored = _digital_log()[:2]
    stored[1]["data"][field] = value
    with pytest.raises(InvalidEvent) as error:
        _replay(stored)
    assert (error.value.code, error.value.message) == (code, message)


def test_a_physical_deal_has_the_rule_sets_hand_size() -> None:
    rs = get_ruleset("knock-rummy")
    log = decide(None, StartGame(rs, ("Ann", "Bo", "Cy"), mode="physical"))
    stored = [event_to_dict(e) for e in log]
    stored.append(
        {
            "type": "HandDealt",
            "schema_version": 1,
            "data": {
                "hand_number": 1,
                "dealer": 0,
                "deck": None,
                "upcard": "TD",
                "hands": {"1": ["AS", "2S"]},
            },
        }
    )
    with pytest.raises(InvalidEvent) as error:
        _replay(stored)
    assert (error.value.code, error.value.message) == (
        "forged_deal",
        "HandDealt: seat 1 is dealt 7 cards, not 2",
    )


def test_moves_must_come_from_the_seat_to_move_with_cards_it_holds() -> None:
    stored = _digital_log()
    stored[2]["data"]["seat"] = 2
    with pytest.raises(InvalidEvent) as error:
        _replay(stored)
    assert (error.value.code, error.value.message) == (
        "forged_move",
        "CardDrawn by seat 2, but seat 1 is to move",
    )
    stored = _digital_log()
    state = replay([event_from_dict(s) for s in stored])
    assert state.hand is not None
    held = state.hand.hands[1]
    missing = next(c for c in ("AS", "2S", "3S", "KH", "QD") if not held >> _index(c) & 1)
    stored.append({"type": "CardDiscarded", "schema_version": 1, "data": {"seat": 1, "card": missing}})
    with pytest.raises(InvalidEvent) as error:
        _replay(stored)
    assert (error.value.code, error.value.message) == (
        "forged_move",
        f"CardDiscarded: seat 1 does not hold {missing}",
    )


def test_a_retraction_of_a_digital_deal_is_forged() -> None:
    stored = _digital_log()
    stored.append({"type": "Retracted", "schema_version": 1, "data": {"count": 2, "reason": "again"}})
    with pytest.raises(InvalidEvent) as error:
        _replay(stored)
    assert (error.value.code, error.value.message) == ("forged_retraction", "Retracted undoes a digital deal")


def _index(code: str) -> int:
    return Card.parse(code).index


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("mode", "banana", "GameStarted: mode 'banana' is not digital or physical"),
        ("seats", [{"name": "Solo", "bot": None}], "GameStarted: knock-rummy is for 2 to 5 players, not 1"),
        (
            "first_dealer",
            5,
            "GameStarted: a first dealer outside the seats, a negative stake or a nameless seat",
        ),
    ],
)
def test_a_forged_opening_is_refused(field: str, value: Any, message: str) -> None:
    stored = _digital_log()[:1]
    stored[0]["data"][field] = value
    with pytest.raises(InvalidEvent) as error:
        _replay(stored)
    assert (error.value.code, error.value.message) == ("forged_start", message)
