"""What the record page says in Python, in the reader's language: where the table last
saw a card (web.record.log.card_history, the words of a refusal about a card) and the
headline of the table (web.record.panel)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from web.record.log import card_history

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
    with translation.override(language):
        history = card_history(HAND, NAMES)
    # a card taken back from the pile is in a hand: a restock does not take it back
    assert history["QS"] == taken
    # the upcard and the card discarded since were on the pile: the restock took them
    assert history["7H"].startswith(restocked) and history["2C"].startswith(restocked)
