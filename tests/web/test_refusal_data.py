"""Refusals worded from the engine's codes and params: where the table saw a card is data
(web.record.log.card_history: a code and its parameters, seats by number) and a refusal
words it (web.refusals) with the players' names: never an English sentence matched by
its beginning, never a seat's number."""

from __future__ import annotations

from core import DomainError
from core.messages import Message
from web.record.log import card_history
from web.refusals import refusal

NAMES = ["Ann", "Bo"]


def event(kind: str, **data: object) -> dict[str, object]:
    return {"type": kind, "data": data}


HAND = [
    event("GameStarted"),
    event("HandDealt", upcard="9C", hands={"0": ["2H"], "1": ["3H"]}),
    event("CardDrawn", seat=0, source="discard", card="9C"),
    event("CardDiscarded", seat=0, card="QS"),
    event("CardDrawn", seat=1, source="stock", card="4D"),
    event("CardDiscarded", seat=1, card="KD"),
]


def seen(history: dict[str, Message], card: str) -> str:
    error = DomainError("card_not_in_hand", "seat 1 cannot hold it", params={"seat": 1, "card": card})
    return refusal(error, NAMES, history).detail


def test_the_history_is_data_and_worded_with_names() -> None:
    history = card_history(HAND)
    assert history["QS"] == Message("discarded", {"seat": 0, "turn": 1})
    assert history["4D"] == Message("drawn", {"seat": 1, "source": "stock", "turn": 2})
    assert history["2H"] == Message("dealt", {"seat": 0})
    assert seen(history, "QS") == "Q♠ was already discarded by Ann in turn 1."
    assert seen(history, "9C") == "9♣ was taken from the discard pile by Ann in turn 1."
    assert seen(history, "3H") == "3♥ was dealt to Bo."


def test_a_restock_takes_the_discards_back_into_the_stock() -> None:
    history = card_history([*HAND, event("StockRestocked", seat=1)])
    assert history["QS"] == history["KD"] == Message("restocked", {"seat": 1, "turn": 3})
    assert history["4D"].code == "drawn"  # a card in a hand stays where it was seen
    assert seen(history, "KD") == "K♦ went back into the stock when Bo restocked in turn 3."


def test_a_seat_the_page_cannot_name_is_a_player_never_a_number() -> None:
    history = {"QS": Message("discarded", {"seat": 5, "turn": 1})}
    assert seen(history, "QS") == "Q♠ was already discarded by a player in turn 1."


def test_counts_over_the_knock_limit_name_the_knocker() -> None:
    from engine.errors import IllegalMove
    from engine.match import score_counts
    from engine.rules import get_ruleset

    try:
        score_counts(get_ruleset("gin-rummy"), {0: 2, 1: 18}, 1)
    except IllegalMove as exc:
        assert refusal(exc, NAMES).detail == "Bo knocked with 18 deadwood; these rules allow at most 10."
    else:
        raise AssertionError("18 deadwood is over gin's limit")
