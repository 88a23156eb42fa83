"""Consistency of a physical game: the public record against what seats claim to hold.

A scorekeeper sees who drew from the stock (card unknown), who took which discard,
which card was discarded and who knocked. The state keeps, for each seat, the cards
the public knows it holds; a card the public has located somewhere (the discard
pile, a turned-over stock, another seat's known cards, the knock discard) cannot
turn up in a hand, and a known card must.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import ALL_CARDS, Card, mask_to_cards
from engine.errors import IllegalMove
from engine.state import HandState


def locations(hand: HandState, seat: int) -> dict[int, str]:
    """Where the public has seen each card it can place, other than in ``seat``'s hand."""
    where: dict[int, str] = {}
    for card in hand.stock:
        if card >= 0:
            where[card] = "the turned-over stock"
    for card in hand.pile:
        where[card] = "the discard pile"
    if hand.knock_card >= 0:
        where[hand.knock_card] = f"seat {hand.knocker}'s knock discard"
    for other, mask in enumerate(hand.hands):
        if other != seat:
            for known in mask_to_cards(mask):
                where[known.index] = f"seat {other}'s hand"
    return where


def check_in_deck(card: Card, deck_size: int) -> None:
    if card.index >= deck_size:
        raise IllegalMove(f"{card} is not in this game's deck", "invalid_card")


def check_can_part_with(hand: HandState, seat: int, card: Card, deck_size: int) -> None:
    """``seat`` may discard ``card`` in a physical game: it is known to hold it, or holds
    unknown cards and nobody has seen ``card`` elsewhere."""
    check_in_deck(card, deck_size)
    if hand.hands[seat] >> card.index & 1:
        return
    seen = locations(hand, seat).get(card.index)
    if seen is not None:
        raise IllegalMove(f"seat {seat} cannot hold {card}: it is in {seen}", "card_not_in_hand")
    unknown = hand.sizes[seat] - hand.hands[seat].bit_count()
    if unknown <= 0:
        raise IllegalMove(
            f"every card of seat {seat} is known and {card} is not among them", "card_not_in_hand"
        )


def check_unseen(hand: HandState, card: Card, deck_size: int) -> None:
    """``card`` may come off the stock: nobody has seen it anywhere."""
    check_in_deck(card, deck_size)
    seen = locations(hand, -1).get(card.index)
    if seen is not None:
        raise IllegalMove(f"{card} cannot come from the stock: it is in {seen}", "card_unavailable")


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
            raise IllegalMove(f"seat {seat}'s revealed hand shows {card} twice", "inconsistent_reveal")
        mask |= 1 << card.index
    if len(cards) != hand.sizes[seat]:
        raise IllegalMove(
            f"seat {seat} holds {hand.sizes[seat]} cards but {len(cards)} were revealed",
            "inconsistent_reveal",
        )
    missing = hand.hands[seat] & ~mask
    if missing:
        card = mask_to_cards(missing)[0]
        raise IllegalMove(
            f"seat {seat} must hold {card} (taken from the discard pile and not discarded since, "
            f"or entered earlier), but the revealed hand lacks it",
            "inconsistent_reveal",
        )
    where = locations(hand, seat)
    for other, shown in (others or {}).items():
        if other != seat:
            for card in shown:
                where.setdefault(card.index, f"seat {other}'s revealed hand")
    for card in cards:
        seen = where.get(card.index)
        if seen is not None:
            raise IllegalMove(f"seat {seat} cannot hold {card}: it is in {seen}", "inconsistent_reveal")
    return mask


def card_list(mask: int) -> list[str]:
    return [ALL_CARDS[i].code for i in range(54) if mask >> i & 1]
