"""What a bot reads off its seat's view: its hand, the cards each opponent is known to
hold, the cards nobody has seen, and opponent hands sampled from the public moves.

Everything is a card bitmask (bit ``Card.index``), the currency of the lean simulator
(:func:`engine.arrangement.mask_deadwood`, :func:`engine.arrangement.mask_discard`), so
a bot can weigh thousands of hands per decision without building a ``View`` or calling
``decide``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from random import Random

from engine.arrangement import mask_deadwood, mask_discard
from engine.state import DISCARDED, PASS, PILE, STOCK
from engine.visibility import View


def _connected() -> tuple[int, ...]:
    """Per natural card: the cards that could meld with it (its rank in other suits, and
    its suit within two ranks)."""
    masks = []
    for index in range(52):
        suit, rank = divmod(index, 13)
        mask = 0
        for other in range(4):
            if other != suit:
                mask |= 1 << (other * 13 + rank)
        for step in (-2, -1, 1, 2):
            if 0 <= rank + step < 13:
                mask |= 1 << (suit * 13 + rank + step)
        masks.append(mask)
    return (*masks, 0, 0)


CONNECTED = _connected()
# How much likelier an unseen card is in an opponent's hand when it goes with a card the
# opponent took from the pile, and how much less when it goes with one it let go.
TAKEN_WEIGHT = 3.0
SHUNNED_WEIGHT = 0.4


def bits(mask: int) -> list[int]:
    """The indices set in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True, slots=True)
class Reading:
    """One seat's reading of the table. ``known[s]``: cards seat ``s`` is known to hold
    (taken from the pile, not discarded since); ``taken[s]``/``shunned[s]``: every card
    it took from the pile / discarded or passed over this hand; ``unseen``: cards neither
    in the hand, on the pile nor known in an opponent's hand (the stock and the rest of
    the opponents' hands)."""

    seat: int
    hand: int
    opponents: tuple[int, ...]
    sizes: tuple[int, ...]
    known: tuple[int, ...]
    taken: tuple[int, ...]
    shunned: tuple[int, ...]
    unseen: int
    draws: tuple[int, ...] = ()  # cards each seat has drawn this hand
    joker_value: int = 25

    @property
    def unseen_cards(self) -> list[int]:
        return bits(self.unseen)


def read(view: View) -> Reading:
    """The reading of ``view`` (a seat's view with a hand)."""
    assert view.seat is not None and view.hand is not None
    seats = len(view.hand_sizes)
    hand = 0
    for card in view.hand:
        hand |= 1 << card.index
    pile = 0
    for card in view.discard_pile:
        pile |= 1 << card.index
    known = [0] * seats
    taken = [0] * seats
    shunned = [0] * seats
    draws = [0] * seats
    for move in view.moves:
        if move.action in (PILE, STOCK):
            draws[move.seat] += 1
        if move.card is None:
            continue
        bit = 1 << move.card.index
        if move.action == PILE:
            known[move.seat] |= bit
            taken[move.seat] |= bit
        elif move.action == DISCARDED:
            known[move.seat] &= ~bit
            shunned[move.seat] |= bit
        elif move.action in (PASS, STOCK):
            shunned[move.seat] |= bit
    known[view.seat] = 0
    deck = (1 << (52 + view.ruleset.jokers)) - 1
    held = 0
    for mask in known:
        held |= mask
    opponents = tuple(s for s in range(seats) if s != view.seat and view.hand_sizes[s] > 0)
    return Reading(
        seat=view.seat,
        hand=hand,
        opponents=opponents,
        sizes=view.hand_sizes,
        known=tuple(known),
        taken=tuple(taken),
        shunned=tuple(shunned),
        unseen=deck & ~hand & ~pile & ~held,
        draws=tuple(draws),
        joker_value=view.ruleset.joker_value,
    )


def weights(reading: Reading, seat: int, cards: list[int]) -> list[float]:
    """How likely each of ``cards`` (unseen) is in ``seat``'s hand, relatively: cards
    that go with what it took are likelier, cards that go with what it let go less so."""
    taken = reading.taken[seat]
    shunned = reading.shunned[seat]
    out = []
    for index in cards:
        link = CONNECTED[index]
        weight = 1.0
        if link & taken:
            weight *= TAKEN_WEIGHT
        if link & shunned:
            weight *= SHUNNED_WEIGHT
        out.append(weight)
    return out


MAX_IMPROVEMENTS = 8


def _improved(reading: Reading, seat: int, mask: int, free: set[int], cards: list[int], rng: Random) -> int:
    steps = min(reading.draws[seat] if reading.draws else 0, MAX_IMPROVEMENTS)
    if not steps or not free:
        return mask
    position = {card: i for i, card in enumerate(cards)}
    pool = sorted(free)
    jv = reading.joker_value
    known = reading.known[seat]
    for _ in range(steps):
        i = pool[rng.randrange(len(pool))]
        if i not in free:
            continue
        card = cards[i]
        before = mask_deadwood(mask, jv)
        after, out = mask_discard(mask | 1 << card, jv)
        if out == card or after >= before or known >> out & 1:
            continue
        mask = (mask | 1 << card) ^ (1 << out)
        free.discard(i)
        if out in position:
            free.add(position[out])
            pool.append(position[out])
    return mask


def sample_hands(reading: Reading, rng: Random, count: int) -> list[dict[int, int]]:
    """``count`` guesses of every opponent's hand (seat -> mask): its known cards and as
    many unseen ones as it holds, drawn without replacement by the weights above
    (Efraimidis-Spirakis keys), seat after seat. A player improves its hand as it draws,
    so each guess is then improved as many times as the seat has drawn (at most
    :data:`MAX_IMPROVEMENTS`): an unseen card comes in when it lowers the deadwood, the
    best discard goes out (never a card the seat is known to hold)."""
    cards = reading.unseen_cards
    per_seat = {seat: weights(reading, seat, cards) for seat in reading.opponents}
    samples = []
    random = rng.random
    log = math.log
    for _ in range(count):
        free = set(range(len(cards)))
        guess = {}
        for seat in reading.opponents:
            need = reading.sizes[seat] - reading.known[seat].bit_count()
            mask = reading.known[seat]
            if need > 0:
                w = per_seat[seat]
                keyed = sorted((log(1.0 - random()) / w[i], i) for i in free)  # -key: largest first
                for _, i in keyed[-need:] if need <= len(keyed) else keyed:
                    mask |= 1 << cards[i]
                    free.discard(i)
                mask = _improved(reading, seat, mask, free, cards, rng)
            guess[seat] = mask
        samples.append(guess)
    return samples
