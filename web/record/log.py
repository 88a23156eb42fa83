"""What the scorekeeper's page works out from a game's public log: which entries are
still in effect, what the last one was (to undo it), where each card has been seen
this hand (as data: a code and its parameters, worded by :mod:`web.refusals` when a
refusal names the card).

Everything here reads events already redacted for the public (``seat`` None), so
nothing it says can name a card the page may not show."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.messages import Message

# Events that only ever follow another event of the same entry: undone together with it.
FOLLOW_UPS = ("HandScored", "GameFinished")
# Where a card was seen that a restock takes back into the stock: the discard pile.
RESTOCKED = frozenset({"discarded", "upcard"})


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


def card_history(kept: Sequence[Mapping[str, Any]]) -> dict[str, Message]:
    """Where the public last saw each card during the current hand, as data, by card:
    ``{"QS": Message("discarded", {"seat": 1, "turn": 4})}``, worded when a refusal
    names the card (:mod:`web.refusals`). Turns count from 1 and end with a discard or
    a knock."""
    start = 0
    for index, event in enumerate(kept):
        if event.get("type") in ("HandDealt", "HandResultRecorded"):
            start = index
    history: dict[str, Message] = {}
    holder: dict[str, Any] = {}  # the seat each card was last seen going into
    unseen_knocker = None  # who knocked face down with a card nobody saw
    turn = 1
    for event in kept[start:]:
        kind = event.get("type")
        data = event.get("data") or {}
        seat = data.get("seat")
        if kind == "HandDealt":
            if data.get("upcard"):
                history[data["upcard"]] = Message("upcard")
            for dealt_to, cards in (data.get("hands") or {}).items():
                for code in cards:
                    history[code] = Message("dealt", {"seat": int(dealt_to)})
                    holder[code] = str(dealt_to)
        elif kind == "CardDrawn" and data.get("card"):
            source = "discard" if data.get("source") == "discard" else "stock"
            history[data["card"]] = Message("drawn", {"seat": seat, "source": source, "turn": turn})
            holder[data["card"]] = str(seat)
        elif kind == "CardDiscarded":
            if data.get("card"):
                history[data["card"]] = Message("discarded", {"seat": seat, "turn": turn})
                holder.pop(data["card"], None)
            turn += 1
        elif kind == "Knocked":
            if data.get("card"):
                history[data["card"]] = Message("knock_discard", {"seat": seat, "turn": turn})
                holder.pop(data["card"], None)
            elif not data.get("lay_down"):
                unseen_knocker = str(seat)
            turn += 1
        elif kind == "StockRestocked":
            for code, seen in list(history.items()):
                if seen.code in RESTOCKED:
                    history[code] = Message("restocked", {"seat": seat, "turn": turn})
        elif kind == "HandRevealed":
            cards = data.get("cards") or ()
            for code in cards:
                history[code] = Message("revealed", {"seat": seat})
            if str(seat) == unseen_knocker:
                # The known card the knocker's hand lacks is the face-down discard (engine.physical).
                for code, held_by in holder.items():
                    if held_by == unseen_knocker and code not in cards:
                        history[code] = Message("face_down_knock_discard", {"seat": seat})
    return history
