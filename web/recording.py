"""What the scorekeeper's page works out from a game's public log: which entries are
still in effect, what the last one was (to undo it), where each card has been seen
this hand, and every refusal in plain words.

Everything here reads events already redacted for the public (``seat`` None), so
nothing it says can name a card the page may not show."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from web.words import card_text, seat_name

# Events that only ever follow another event of the same entry: undone together with it.
FOLLOW_UPS = ("HandScored", "GameFinished")

# Every refusal, in words; the engine's own message (seats named, cards drawn) follows.
TITLES: dict[str, str] = {
    "unknown_command": "That is not an entry this page knows.",
    "cannot_retract_deal": "A digital deal cannot be undone.",
    "malformed_command": "Something is missing from that entry.",
    "invalid_deadwood": "That count is more than a hand can hold.",
    "invalid_card": "That is not a card of this game.",
    "game_not_started": "The game has not started.",
    "game_already_started": "The game has already started.",
    "invalid_setup": "The game's setup is not allowed.",
    "game_over": "The game is over: nothing more can be entered.",
    "invalid_seat": "That player is not in this hand.",
    "not_awaiting_deal": "A hand is still being played.",
    "invalid_deck": "That deck is not a whole deck.",
    "invalid_deal": "That deal is not possible.",
    "wrong_mode": "That entry belongs to the other kind of game.",
    "no_hand_in_play": "No hand is being played.",
    "not_your_turn": "It is another player's turn.",
    "no_upcard_offer": "The upcard is not on offer.",
    "upcard_offer_pending": "The upcard must first be taken or passed.",
    "must_draw_from_stock": "Everyone passed the upcard: the first player draws from the stock.",
    "already_drew": "That player has already drawn this turn.",
    "must_draw_first": "That player must draw first.",
    "stock_empty": "The stock is empty.",
    "discard_pile_empty": "The discard pile is empty.",
    "card_unavailable": "That card cannot have come from the stock.",
    "card_not_in_hand": "That player cannot be holding that card.",
    "cannot_discard_taken_card": "The card just taken from the discard pile may not be thrown back.",
    "card_required": "Name the card discarded face down.",
    "knock_not_allowed_yet": "Nobody may knock until everyone has had a turn.",
    "deadwood_too_high_to_knock": "Too much deadwood to knock.",
    "laydown_not_allowed": "These rules have no laying down without discarding.",
    "laydown_not_all_melded": "Laying down without discarding needs every card melded.",
    "restock_not_allowed": "The stock cannot be restocked now.",
    "decline_not_allowed": "The player must still draw.",
    "not_in_showdown": "No showdown is going on.",
    "already_revealed": "That hand has already been shown.",
    "inconsistent_reveal": "That hand does not fit what the table has seen.",
    "invalid_meld": "That meld is not a meld.",
    "invalid_showdown": "That showdown cannot be scored.",
    "not_awaiting_reentry": "Nobody is deciding on re-entry.",
    "nothing_to_retract": "There is nothing to undo.",
    "retract_partial": "That entry must be undone together with its scoring.",
    # the store's and the page's own
    "version_conflict": "Someone else entered something meanwhile.",
    "idempotency_key_reused": "That form was already sent.",
    "missing_card": "Enter the card first.",
    "missing_cards": "Enter the hand's cards first.",
    "bad_count": "A count is a whole number from 0 up.",
    "no_game": "This table has no game to record yet.",
    "not_recorded_here": "This game is played in the browser, not recorded here.",
    "unknown_action": "That button is not one of this page's.",
}

# "seat 2" in the engine's messages → the player's name.
_SEAT = re.compile(r"\bseat (\d+)('s)?")
_CARD = re.compile(r"\b(10|[2-9TJQKA])([CDHS])\b|\b(X[12])\b")


@dataclass(frozen=True)
class Refusal:
    """An entry the engine (or the page) refused: ``title`` and ``detail`` are words;
    ``code`` is kept for tests and logs, never shown."""

    code: str
    title: str
    detail: str
    action: str = ""
    seat: int | None = None


def humanise(message: str, names: Sequence[str]) -> str:
    """The engine's message with seats named and cards drawn as faces.

    >>> humanise("seat 1 cannot hold QS: it is in seat 0's hand", ["Ann", "Bo"])
    "Bo cannot hold Q♠: it is in Ann's hand"
    """

    def seat(match: re.Match[str]) -> str:
        name = seat_name(names, int(match.group(1)))
        return name + (match.group(2) or "")

    def card(match: re.Match[str]) -> str:
        return card_text(match.group(0))

    text = _SEAT.sub(seat, message)
    text = _CARD.sub(card, text)
    return text[:1].upper() + text[1:]


def refusal(
    code: str,
    message: str,
    names: Sequence[str],
    history: Mapping[str, str] | None = None,
    *,
    action: str = "",
    seat: int | None = None,
) -> Refusal:
    """A refusal in words. When the message places a card somewhere the table has seen
    it (``it is in …``), the card's history says where and when instead."""
    detail = humanise(message, names) if message else ""
    if history and "it is in" in message:
        for match in _CARD.finditer(message):
            code_ = (match.group(0) or "").upper().replace("10", "T")
            if code_ in history:
                detail = f"{card_text(code_)} {history[code_]}."
                break
    return Refusal(code, TITLES.get(code, "That entry was refused."), detail, action, seat)


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
