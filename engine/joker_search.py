"""The exhaustive arrangement search for hands holding jokers.

Jokers break the per-suit independence the fast path relies on, so hands with
jokers are searched over every set choice (with and without a joker) and every
placement of the jokers in runs, per suit, memoised on the suit mask. It is also
what the tests check the fast path against.
"""

from __future__ import annotations

from engine.melds import NATURAL_BITS
from engine.run_tables import INF, RUN_COST, SPREAD, UNIT

# Runs holding 1 or 2 jokers (each in a different run), filled in on demand.
_JOKER_RUN_COST: tuple[list[int | None], list[int | None]] = ([None] * 8192, [None] * 8192)
_JOKER_GAIN: tuple[list[int | None], list[int | None]] = ([None] * 8192, [None] * 8192)
_RANK_OPTIONS: dict[int, list[tuple[int, int, int]]] = {}


_NO_JOKER: tuple[int, ...] = (0, 0, 0, 0)
_ONE_JOKER = ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1))
_TWO_JOKERS = ((2, 0, 0, 0), (0, 2, 0, 0), (0, 0, 2, 0), (0, 0, 0, 2))
_JOKER_PAIRS = tuple(
    (first, second, tuple(int(i in (first, second)) for i in range(4)))
    for first in range(4)
    for second in range(first + 1, 4)
)


def search(hand: int, joker_value: int) -> tuple[int, int, int, tuple[int, ...]]:
    """Exhaustive search over set choices and joker placements of any hand.

    Returns ``(key, natural set cards, joker set cards, jokers per suit's runs)`` with
    ``key = cost << 6 | cards in sets``; jokers not placed are unmatched. Ties go
    to the lowest set-card mask, then to the first found.
    """
    naturals = hand & NATURAL_BITS
    jokers = (hand >> 52 & 1) + (hand >> 53)
    c = naturals & 8191
    d = naturals >> 13 & 8191
    h = naturals >> 26 & 8191
    s = naturals >> 39
    # Ranks that can make a set: 3+ cards, or with a joker 2+.
    triples = (c & d & (h | s)) | (h & s & (c | d))
    ranks = (c & (d | h | s)) | (d & (h | s)) | (h & s) if jokers else triples
    choices = [(0, 0, 0)]
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        choices = [
            (sets | extra_sets, joker_sets | extra_joker_sets, used + extra_used)
            for sets, joker_sets, used in choices
            for extra_sets, extra_joker_sets, extra_used in _rank_options(low * SPREAD & naturals, jokers)
            if used + extra_used <= jokers
        ]
    joker_unit = joker_value << 6 | 1
    run_cost = RUN_COST
    best_key = INF
    best_sets = 0
    result: tuple[int, int, int, tuple[int, ...]] = (INF, 0, 0, _NO_JOKER)
    for sets, joker_sets, used in choices:
        rest = naturals ^ sets ^ joker_sets
        suits = (rest & 8191, rest >> 13 & 8191, rest >> 26 & 8191, rest >> 39)
        cost = run_cost[suits[0]] + run_cost[suits[1]] + run_cost[suits[2]] + run_cost[suits[3]]
        placement = _NO_JOKER
        left = jokers - used
        if left:
            extra, placement = _place_jokers(suits, left, joker_unit)
            cost += extra
        all_sets = sets | joker_sets
        key = cost << 6 | (all_sets.bit_count() + used)
        if key < best_key or (key == best_key and all_sets < best_sets):
            best_key, best_sets = key, all_sets
            result = (key, sets, joker_sets, placement)
    return result


def _place_jokers(suits: tuple[int, ...], left: int, joker_unit: int) -> tuple[int, tuple[int, ...]]:
    """Cheapest way to place ``left`` (1 or 2) jokers into the suits' runs or leave them
    unmatched: (extra cost over the joker-free runs, jokers per suit)."""
    gain = _JOKER_GAIN[0]
    one = [gain[suits[0]], gain[suits[1]], gain[suits[2]], gain[suits[3]]]
    if None in one:
        one = [_joker_gain(mask, 1) for mask in suits]
    cheapest: int = min(one)  # type: ignore[type-var, assignment]
    suit = one.index(cheapest)
    if left == 1:
        if cheapest < joker_unit:
            return cheapest, _ONE_JOKER[suit]
        return joker_unit, _NO_JOKER
    extra, placement = 2 * joker_unit, _NO_JOKER
    if cheapest + joker_unit < extra:
        extra, placement = cheapest + joker_unit, _ONE_JOKER[suit]
    for suit, mask in enumerate(suits):
        two = _joker_gain(mask, 2)
        if two < extra:
            extra, placement = two, _TWO_JOKERS[suit]
    for first, second, pair in _JOKER_PAIRS:
        both: int = one[first] + one[second]  # type: ignore[operator]
        if both < extra:
            extra, placement = both, pair
    return extra, placement


def _joker_gain(mask: int, jokers: int) -> int:
    """Cost of one suit's runs holding exactly ``jokers`` jokers, minus the cost without."""
    memo = _JOKER_GAIN[jokers - 1]
    gain = memo[mask]
    if gain is None:
        gain = memo[mask] = _joker_run_cost(mask, jokers) - RUN_COST[mask]
    return gain


def _rank_options(full: int, jokers: int) -> list[tuple[int, int, int]]:
    """Set options of one rank's cards ``full``: (natural set, joker set naturals, jokers used)."""
    key = full << 2 | jokers
    options = _RANK_OPTIONS.get(key)
    if options is None:
        options = _RANK_OPTIONS[key] = _list_rank_options(full, jokers)
    return options


def _list_rank_options(full: int, jokers: int) -> list[tuple[int, int, int]]:
    options = [(0, 0, 0)]
    bits = []
    rest = full
    while rest:
        bit = rest & -rest
        rest ^= bit
        bits.append(bit)
    count = len(bits)
    if count >= 3:
        options.append((full, 0, 0))
        if count == 4:
            options.extend((full ^ bit, 0, 0) for bit in bits)
    if jokers:
        options.extend((0, bits[i] | bits[j], 1) for i in range(count) for j in range(i + 1, count))
        if count == 3:
            options.append((0, full, 1))
        elif count == 4:
            options.extend((0, full ^ bit, 1) for bit in bits)
            if jokers == 2:  # two pairs, a joker each: all four naturals in joker sets
                options.append((0, full, 2))
    return options


def _joker_run_cost(mask: int, jokers: int) -> int:
    """Least cost of one suit's cards ``mask`` in runs holding exactly ``jokers`` jokers
    (each in a different run); INF when they cannot all be placed."""
    if jokers == 0:
        return RUN_COST[mask]
    memo = _JOKER_RUN_COST[jokers - 1]
    cached = memo[mask]
    if cached is None:
        cached = INF
        if mask:
            for cost, rest, used, _ in _suit_moves(mask, jokers):
                total = cost + _joker_run_cost(rest, jokers - used)
                if total < cached:
                    cached = total
        memo[mask] = cached
    return cached


def _suit_moves(mask: int, jokers: int) -> list[tuple[int, int, int, int]]:
    """What can happen to the lowest card of a suit mask: (cost, rest, jokers used, melded bits).

    It stays unmatched, or it is the lowest natural card of a run: naturals only,
    or with a joker below it, in a gap, or above the naturals. A joker may stand
    for a card the hand holds (that card then stays free for another meld).
    """
    low = (mask & -mask).bit_length() - 1
    top = low
    while top < 12 and mask >> (top + 1) & 1:
        top += 1
    below = (1 << low) - 1
    moves = [(UNIT[low], mask ^ (1 << low), 0, 0)]
    for high in range(top, low + 1, -1):
        bits = ((2 << high) - 1) ^ below
        moves.append((0, mask ^ bits, 0, bits))
    if jokers:
        if low >= 1:
            for high in range(top, low, -1):
                bits = ((2 << high) - 1) ^ below
                moves.append((0, mask ^ bits, 1, bits))
        for gap in range(low + 1, min(top + 1, 12) + 1):
            left = ((1 << gap) - 1) ^ below
            if gap - low >= 2:
                moves.append((0, mask ^ left, 1, left))
            right = 0
            high = gap + 1
            while high < 13 and mask >> high & 1:
                right |= 1 << high
                if high - low >= 2:
                    moves.append((0, mask ^ left ^ right, 1, left | right))
                high += 1
    return moves


def suit_groups(mask: int, jokers: int) -> list[tuple[int, bool]]:
    """The runs of one suit's best arrangement: (natural bits, holds a joker)."""
    groups = []
    while mask:
        target = _joker_run_cost(mask, jokers)
        for cost, rest, used, bits in _suit_moves(mask, jokers):
            if cost + _joker_run_cost(rest, jokers - used) == target:
                if bits:
                    groups.append((bits, bool(used)))
                mask, jokers = rest, jokers - used
                break
    return groups
