"""What the record page says in Python, in the reader's language: where the table last
saw a card (web.record.log.card_history, the words of a refusal about a card) and the
headline of the table (web.record.panel)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from core.errors import DomainError
from web.record.log import card_history
from web.refusals import refusal

NAMES = ["Ann", "Bo", "Cy"]


def _event(kind: str, **data: Any) -> dict[str, Any]:
    return {"type": kind, "data": data}


HAND = [
    _event("GameStarted"),
    _event("HandDealt", upcard="7H", hands={}),
    _event("CardDrawn", seat=1, source="stock", card=None),
    _event("CardDiscarded", seat=1, card="QS"),
    _event("CardDrawn", seat=2, source="discard", card="QS"),
    _event("CardDiscarded", seat=2, card="2C"),
    _event("StockRestocked", seat=0),
]


@pytest.mark.parametrize(
    ("language", "taken", "restocked"),
    [
        (
            "en",
            "was taken from the discard pile by Cy in turn 2",
            "went back into the stock when Ann restocked",
        ),
        ("fr", "a été prise dans la défausse par Cy au tour 2", "est retournée dans la pioche quand Ann"),
    ],
)
def test_where_a_card_was_seen_is_said_in_the_readers_language(
    language: str, taken: str, restocked: str
) -> None:
    history = card_history(HAND)  # data: codes and seats, worded when a refusal shows it

    def seen(card: str) -> str:
        error = DomainError("card_not_in_hand", "not held", params={"seat": 0, "card": card})
        return refusal(error, NAMES, history).detail

    # a card taken back from the pile is in a hand: a restock does not take it back
    assert history["QS"].code == "drawn" and history["QS"].params["seat"] == 2
    # the upcard and the card discarded since were on the pile: the restock took them
    assert history["7H"].code == history["2C"].code == "restocked"
    with translation.override(language):
        assert taken in seen("QS")
        assert restocked in seen("7H") and restocked in seen("2C")
