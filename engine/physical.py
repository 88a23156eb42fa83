"""Consistency of a physical game: the public record against what seats claim to hold.

A scorekeeper sees who drew from the stock (card unknown), who took which discard,
which card was discarded and who knocked. The state keeps, for each seat, the cards
the public knows it holds; a card the public has located somewhere (the discard
pile, a turned-over stock, another seat's known cards, the knock discard) cannot
turn up in a hand, and a known card must — except after an unseen knock (the knock
card not recorded), when the knocker's reveal may lack exactly one of its known
cards: that card is its face-down discard. The card it took from the discard pile
in the turn it knocked is not among them (it may not be thrown back that turn).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.cards import ALL_CARDS, Card, mask_to_cards
from engine.errors import IllegalMove
from engine.state import HandState


def face_down_candidates(hand: HandState, seat: int) -> int:
    """The known cards of ``seat`` (a bitmask) of which its revealed hand may lack one.

    Only the knocker's, after an unseen knock and before its reveal: its face-down
    discard may be any card it was known to hold except the one it took from the
    discard pile in that turn (``hand.taken``, kept by the knock for this).
    """
    if (
        seat != hand.knocker
        or hand.knock_card >= 0
        or hand.lay_down
        or hand.ended != "knock"
        or hand.revealed[seat] >= 0
    ):
        return 0
    mask = hand.hands[seat]
    if hand.taken >= 0:
        mask &= ~(1 << hand.taken)
    return mask


def revealed_knock_card(hand: HandState, seat: int, mask: int) -> int:
    """The knock card once ``seat`` has revealed ``mask``: after an unseen knock, the
    known card the knocker's reveal lacks is its face-down discard (located from then
    on, so no other hand may show it); otherwise ``hand.knock_card`` unchanged."""
    lacked = face_down_candidates(hand, seat) & ~mask
    return lacked.bit_length() - 1 if lacked else hand.knock_card


# Where the public can have seen a card: a place's code and the seat it belongs to (None
# for the table's places). The refusals carry them as ``place`` and ``holder``.
Place = tuple[str, int | None]
_PLACE_TEXT = {
    "turned_over_stock": "the turned-over stock",
    "discard_pile": "the discard pile",
    "knock_discard": "seat {holder}'s knock discard",
    "hand_or_knock_discard": "seat {holder}'s hand or face-down knock discard",
    "hand": "seat {holder}'s hand",
    "revealed_hand": "seat {holder}'s revealed hand",
}


def place_text(place: Place) -> str:
    """The place in the engine's words: ``("hand", 0)`` is "seat 0's hand"."""
    return _PLACE_TEXT[place[0]].format(holder=place[1])


def _seen_at(place: Place) -> dict[str, Any]:
    return {"place": place[0], "holder": place[1]}


def locations(hand: HandState, seat: int) -> dict[int, Place]:
    """Where the public has seen each card it can place, other than in ``seat``'s hand."""
    where: dict[int, Place] = {}
    for card in hand.stock:
        if card >= 0:
            where[card] = ("turned_over_stock", None)
    for card in hand.pile:
        where[card] = ("discard_pile", None)
    if hand.knock_card >= 0:
        where[hand.knock_card] = ("knock_discard", hand.knocker)
    for other, mask in enumerate(hand.hands):
        if other != seat:
            spare = face_down_candidates(hand, other)
            for known in mask_to_cards(mask):
                where[known.index] = ("hand_or_knock_discard" if spare >> known.index & 1 else "hand", other)
    return where


def check_in_deck(card: Card, deck_size: int) -> None:
    if card.index >= deck_size:
        raise IllegalMove(f"{card} is not in this game's deck", "invalid_card", params={"card": card.code})


def check_can_part_with(hand: HandState, seat: int, card: Card, deck_size: int) -> None:
    """``seat`` may discard ``card`` in a physical game: it is known to hold it, or holds
    unknown cards and nobody has seen ``card`` elsewhere."""
    check_in_deck(card, deck_size)
    if hand.hands[seat] >> card.index & 1:
        return
    seen = locations(hand, seat).get(card.index)
    if seen is not None:
        raise IllegalMove(
            f"seat {seat} cannot hold {card}: it is in {place_text(seen)}",
            "card_not_in_hand",
            params={"seat": seat, "card": card.code, **_seen_at(seen)},
        )
    unknown = hand.sizes[seat] - hand.hands[seat].bit_count()
    if unknown <= 0:
        raise IllegalMove(
            f"every card of seat {seat} is known and {card} is not among them",
            "card_not_in_hand",
            params={"seat": seat, "card": card.code, "all_known": True},
        )


def check_unseen(hand: HandState, card: Card, deck_size: int) -> None:
    """``card`` may come off the stock: nobody has seen it anywhere."""
    check_in_deck(card, deck_size)
    seen = locations(hand, -1).get(card.index)
    if seen is not None:
        raise IllegalMove(
            f"{card} cannot come from the stock: it is in {place_text(seen)}",
            "card_unavailable",
            params={"card": card.code, **_seen_at(seen)},
        )


def check_reveal(
    hand: HandState,
    seat: int,
    cards: Iterable[Card],
    deck_size: int,
    others: dict[int, tuple[Card, ...]] | None = None,
) -> int:
    """Check a revealed hand against the public record; its bitmask if consistent.

    ``others`` are hands revealed in the same entry (the quick path), which must not
    share a card with this one. Raises ``IllegalMove`` code ``inconsistent_reveal``
    naming the card and the seat.
    """
    cards = tuple(cards)
    mask = 0
    for card in cards:
        check_in_deck(card, deck_size)
        if mask >> card.index & 1:
            raise IllegalMove(
                f"seat {seat}'s revealed hand shows {card} twice",
                "inconsistent_reveal",
                params={"seat": seat, "card": card.code, "problem": "twice"},
            )
        mask |= 1 << card.index
    if len(cards) != hand.sizes[seat]:
        raise IllegalMove(
            f"seat {seat} holds {hand.sizes[seat]} cards but {len(cards)} were revealed",
            "inconsistent_reveal",
            params={"seat": seat, "problem": "size", "size": hand.sizes[seat], "count": len(cards)},
        )
    missing = hand.hands[seat] & ~mask
    spare = face_down_candidates(hand, seat)
    if missing & ~spare:
        card = mask_to_cards(missing & ~spare)[0]
        taken_at_knock = bool(spare) and card.index == hand.taken
        why = (
            "taken from the discard pile in the turn it knocked, so not its face-down discard"
            if taken_at_knock
            else "taken from the discard pile and not discarded since, or entered earlier"
        )
        raise IllegalMove(
            f"seat {seat} must hold {card} ({why}), but the revealed hand lacks it",
            "inconsistent_reveal",
            params={
                "seat": seat,
                "card": card.code,
                "problem": "lacks_known",
                "taken_at_knock": taken_at_knock,
            },
        )
    if missing.bit_count() > 1:
        first, second = mask_to_cards(missing)[:2]
        raise IllegalMove(
            f"seat {seat}'s revealed hand lacks both {first} and {second}, which it was known to hold; "
            f"only one of them can be its face-down knock discard",
            "inconsistent_reveal",
            params={"seat": seat, "problem": "lacks_two", "cards": [first.code, second.code]},
        )
    where = locations(hand, seat)
    for other, shown in (others or {}).items():
        if other != seat:
            for card in shown:
                where.setdefault(card.index, ("revealed_hand", other))
    for card in cards:
        seen = where.get(card.index)
        if seen is not None:
            raise IllegalMove(
                f"seat {seat} cannot hold {card}: it is in {place_text(seen)}",
                "inconsistent_reveal",
                params={"seat": seat, "card": card.code, "problem": "seen", **_seen_at(seen)},
            )
    return mask


def card_list(mask: int) -> list[str]:
    return [ALL_CARDS[i].code for i in range(54) if mask >> i & 1]
