"""What the scorekeeper's page works out from a game's public log: which entries are
still in effect, what the last one was (to undo it), where each card has been seen
this hand (the words of a refusal about a card, :mod:`web.refusals`).

Everything here reads events already redacted for the public (``seat`` None), so
nothing it says can name a card the page may not show."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from web.words import seat_name

# Events that only ever follow another event of the same entry: undone together with it.
FOLLOW_UPS = ("HandScored", "GameFinished")


def effective(events: Sequence[Mapping[str, Any]]) -> tuple[list[Mapping[str, Any]], set[int]]:
    """The events still in effect (retractions applied, ``Retracted`` itself left out)
    and the ``seq`` of every event a retraction undid."""
    kept: list[Mapping[str, Any]] = []
    undone: set[int] = set()
    for event in events:
        if event.get("type") == "Retracted":
            count = int((event.get("data") or {}).get("count", 0))
            for _ in range(min(count, max(len(kept) - 1, 0))):
                undone.add(int(kept.pop().get("seq", 0)))
            continue
        kept.append(event)
    return kept, undone


def last_entry(kept: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The events of the latest entry still in effect (a move with the scoring and game
    end it caused), oldest first; empty when only the game's start is left."""
    if len(kept) <= 1:
        return []
    end = len(kept)
    start = end - 1
    while start > 1 and kept[start].get("type") in FOLLOW_UPS:
        start -= 1
    return list(kept[start:end])


def card_history(kept: Sequence[Mapping[str, Any]], names: Sequence[str]) -> dict[str, str]:
    """Where the public last saw each card during the current hand, in words, by code:
    ``{"QS": "was already discarded by Bo in turn 4"}``. Turns count from 1 and end
    with a discard or a knock."""
    start = 0
    for index, event in enumerate(kept):
        if event.get("type") in ("HandDealt", "HandResultRecorded"):
            start = index
    history: dict[str, str] = {}
    holder: dict[str, Any] = {}  # the seat each card was last seen going into
    unseen_knocker = None  # who knocked face down with a card nobody saw
    turn = 1
    for event in kept[start:]:
        kind = event.get("type")
        data = event.get("data") or {}
        who = seat_name(names, data.get("seat"))
        if kind == "HandDealt":
            if data.get("upcard"):
                history[data["upcard"]] = "is the upcard, turned up at the deal"
            for seat, cards in (data.get("hands") or {}).items():
                for code in cards:
                    history[code] = f"was dealt to {seat_name(names, seat)}"
                    holder[code] = str(seat)
        elif kind == "CardDrawn" and data.get("card"):
            where = "the discard pile" if data.get("source") == "discard" else "the stock"
            history[data["card"]] = f"was taken from {where} by {who} in turn {turn}"
            holder[data["card"]] = str(data.get("seat"))
        elif kind == "CardDiscarded":
            if data.get("card"):
                history[data["card"]] = f"was already discarded by {who} in turn {turn}"
                holder.pop(data["card"], None)
            turn += 1
        elif kind == "Knocked":
            if data.get("card"):
                history[data["card"]] = f"was {who}'s knock discard in turn {turn}"
                holder.pop(data["card"], None)
            elif not data.get("lay_down"):
                unseen_knocker = str(data.get("seat"))
            turn += 1
        elif kind == "StockRestocked":
            for code, text in list(history.items()):
                if text.startswith("was already discarded") or text.startswith("is the upcard"):
                    history[code] = f"went back into the stock when {who} restocked in turn {turn}"
        elif kind == "HandRevealed":
            cards = data.get("cards") or ()
            for code in cards:
                history[code] = f"was shown in {who}'s revealed hand"
            if str(data.get("seat")) == unseen_knocker:
                # The known card the knocker's hand lacks is the face-down discard (engine.physical).
                for code, seat in holder.items():
                    if seat == unseen_knocker and code not in cards:
                        history[code] = f"was {who}'s face-down knock discard"
    return history
