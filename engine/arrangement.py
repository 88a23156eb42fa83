"""Arranging a hand into melds with the least deadwood, exactly and fast.

How it works (docs/arrangement.md has the longer story):

- Sets are the only melds that span suits. For every rank holding enough
  cards the search tries each *set choice* (no set, the 4-set, each 3-set, and
  with jokers each pair or triple plus a joker); what is left of each suit is a
  13-bit mask whose best run-only result comes from a table (no jokers: 8,192
  entries built at import) or a memoised per-suit search (runs holding jokers).
- Results are compared by one integer *cost*, ``deadwood << 6 | unmatched
  cards``, so a lower cost is less deadwood and, at equal deadwood, fewer
  unmatched cards.

Tie-break among equally good arrangements (documented and tested):

1. least deadwood;
2. fewest unmatched cards;
3. fewest cards in sets (runs are preferred to sets);
4. the set cards with the lowest bitmask (``Card.index`` bits), i.e. at the
   highest card where two candidates differ, the one *not* using it in a set;
5. hands with jokers only: then a fixed search order (so the result depends on
   the hand alone, never on the order its cards are given).

Runs are reported maximal (``3C 4C 5C 6C 7C 8C`` is one run, not two) unless a
joker forces a split; melds are listed sets first by rank, then runs by suit
and rank; unmatched cards in index order, jokers last.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import combinations
from typing import Any

from engine.cards import ALL_CARDS, Card, mask_to_cards
from engine.errors import InvalidHand
from engine.joker_search import search as _search
from engine.joker_search import suit_groups as _suit_groups
from engine.melds import NATURAL_BITS, Meld, build_meld, check_hand, meld_sort_key
from engine.rules import MAX_DEALT, RuleSet
from engine.run_tables import INF
from engine.run_tables import MASKS as _MASKS
from engine.run_tables import RUN_COST as _RUN_COST
from engine.run_tables import RUN_DW as _RUN_DW
from engine.run_tables import SPREAD as _SPREAD

# The most cards a hand can hold: the most a rule set deals, and the card drawn. The
# set search grows six-fold with each rank held four times (52 cards: 6**13 choices),
# so every entry point refuses more before searching.
MAX_HAND = MAX_DEALT + 1


def check_hand_size(count: int) -> None:
    """Raise :class:`~engine.errors.InvalidHand` (``too_many_cards``) for a hand of more
    than :data:`MAX_HAND` cards.

    >>> check_hand_size(MAX_HAND + 1)
    Traceback (most recent call last):
    ...
    engine.errors.InvalidHand: a hand holds at most 14 cards, not 15
    """
    if count > MAX_HAND:
        raise InvalidHand(f"a hand holds at most {MAX_HAND} cards, not {count}", code="too_many_cards")


class Arrangement:
    """A hand arranged into melds: ``melds``, ``unmatched`` cards and their ``deadwood``.

    Immutable. The engine builds it lazily: the deadwood is computed at once, the
    melds and unmatched cards on first access.

    >>> from engine.cards import parse_cards
    >>> from engine.rules import get_ruleset
    >>> best = best_arrangement(parse_cards("6H 6D 6C 7C 8C 2H 7S"), get_ruleset("knock"))
    >>> [str(m) for m in best.melds], [str(c) for c in best.unmatched], best.deadwood
    (['6C 7C 8C'], ['6D', '2H', '6H', '7S'], 21)
    >>> Arrangement.from_dict(best.to_dict()) == best
    True
    """

    __slots__ = ("_deadwood", "_hand", "_melds", "_plan", "_unmatched")
    _deadwood: int
    _hand: int
    _plan: int | tuple[int, int, tuple[int, ...]] | None
    _melds: tuple[Meld, ...]
    _unmatched: tuple[Card, ...]

    def __init__(self, melds: Iterable[Meld], unmatched: Iterable[Card], deadwood: int) -> None:
        self._melds = tuple(melds)
        self._unmatched = tuple(unmatched)
        self._deadwood = deadwood
        self._hand = -1
        self._plan = None

    @property
    def deadwood(self) -> int:
        return self._deadwood

    @property
    def melds(self) -> tuple[Meld, ...]:
        try:
            return self._melds
        except AttributeError:
            self._materialise()
            return self._melds

    @property
    def unmatched(self) -> tuple[Card, ...]:
        try:
            return self._unmatched
        except AttributeError:
            self._materialise()
            return self._unmatched

    def _materialise(self) -> None:
        plan = getattr(self, "_plan", 0)
        if plan == _SETS_UNKNOWN:  # a natural hand whose set choice is left to find
            c, d, h, s = self._hand & 8191, self._hand >> 13 & 8191, self._hand >> 26 & 8191, self._hand >> 39
            triples = (c & d & (h | s)) | (h & s & (c | d))
            plan = _natural_sets(self._hand, triples)[1] if triples else 0
        if isinstance(plan, int):
            melds, unmatched = _build(self._hand, plan, 0, (0, 0, 0, 0))
        else:
            assert plan is not None
            melds, unmatched = _build(self._hand, *plan)
        self._melds, self._unmatched = melds, unmatched

    def to_dict(self) -> dict[str, Any]:
        return {
            "melds": [meld.to_dict() for meld in self.melds],
            "unmatched": [str(card) for card in self.unmatched],
            "deadwood": self._deadwood,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Arrangement:
        """Rebuild a stored arrangement (its melds are checked, its deadwood is taken as stored)."""
        try:
            melds = tuple(Meld.from_dict(meld) for meld in data["melds"])
            unmatched = tuple(Card.parse(code) for code in data["unmatched"])
            value = int(data["deadwood"])
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, InvalidHand):
                raise
            raise InvalidHand(f"a stored arrangement needs melds, unmatched and deadwood: {exc}") from exc
        return cls(melds, unmatched, value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Arrangement):
            return NotImplemented
        return (self._deadwood, self.melds, self.unmatched) == (other._deadwood, other.melds, other.unmatched)

    def __hash__(self) -> int:
        return hash((self._deadwood, self.melds, self.unmatched))

    def __repr__(self) -> str:
        melds = ", ".join(str(meld) for meld in self.melds)
        unmatched = " ".join(str(card) for card in self.unmatched)
        return f"<Arrangement melds=[{melds}] unmatched=[{unmatched}] deadwood={self._deadwood}>"


_new = object.__new__
_SETS_UNKNOWN = -1  # an Arrangement's plan still to search (its deadwood is known)


def _lazy(hand: int, plan: int | tuple[int, int, tuple[int, ...]], deadwood: int) -> Arrangement:
    arrangement: Arrangement = _new(Arrangement)
    arrangement._hand = hand
    arrangement._plan = plan
    arrangement._deadwood = deadwood
    return arrangement


def best_arrangement(cards: Iterable[Card], ruleset: RuleSet) -> Arrangement:
    """The arrangement of ``cards`` with the least deadwood (tie-break: module docstring).

    Raises :class:`~engine.errors.InvalidHand` for a duplicate card, a joker the
    rule set does not use, or more than :data:`MAX_HAND` cards.

    >>> from engine.cards import parse_cards
    >>> from engine.rules import get_ruleset
    >>> best = best_arrangement(parse_cards("JC QC KC JD JH"), get_ruleset("knock"))
    >>> [str(m) for m in best.melds], best.deadwood  # run preferred to the equal set of jacks
    (['JC QC KC'], 20)
    >>> rami = get_ruleset("rami")
    >>> best = best_arrangement(parse_cards("5C 5D X1 3H 4H X2 9S"), rami)
    >>> [str(m) for m in best.melds], [str(c) for c in best.unmatched], best.deadwood
    (['5C 5D X1', '3H 4H X2'], ['9S'], 9)
    """
    if type(cards) is not tuple:
        cards = tuple(cards)
    masks = _MASKS
    if len(cards) == 10:  # two-player hands, unrolled: a tenth of the call's time
        c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 = cards
        hand = (
            masks[c0.index] + masks[c1.index] + masks[c2.index] + masks[c3.index] + masks[c4.index]
            + masks[c5.index] + masks[c6.index] + masks[c7.index] + masks[c8.index] + masks[c9.index]
        )  # fmt: skip
    else:
        if len(cards) > MAX_HAND:
            check_hand_size(len(cards))
        hand = 0
        for card in cards:
            hand += masks[card.index]
    if hand.bit_count() != len(cards) or hand >> 52:
        if hand.bit_count() != len(cards) or hand >> 52 >= 1 << ruleset.jokers:
            check_hand(cards, ruleset)  # raises, naming the duplicate or the joker
        key, sets, joker_sets, suit_jokers = _search(hand, ruleset.joker_value)
        return _lazy(hand, (sets, joker_sets, suit_jokers), key >> 12)
    c = hand & 8191
    d = hand >> 13 & 8191
    h = hand >> 26 & 8191
    s = hand >> 39
    triples = (c & d & (h | s)) | (h & s & (c | d))
    arrangement: Arrangement = _new(Arrangement)
    arrangement._hand = hand
    if not triples:  # no set possible; _plan stays unset, read as "no sets"
        table = _RUN_DW
        arrangement._deadwood = table[c] + table[d] + table[h] + table[s]
    elif triples & (triples - 1) or c & d & h & s:
        key, arrangement._plan = _natural_sets(hand, triples)
        arrangement._deadwood = key >> 12
    else:  # the common case, inlined: one rank of three cards, set or no set
        table = _RUN_COST
        without = table[c] + table[d] + table[h] + table[s]
        rest = 8191 ^ triples
        with_set = table[c & rest] + table[d & rest] + table[h & rest] + table[s & rest]
        if with_set < without:  # at equal cost, fewer set cards wins: no set
            arrangement._plan = triples * _SPREAD & hand
            arrangement._deadwood = with_set >> 6
        else:
            arrangement._deadwood = without >> 6
    return arrangement


def tied_arrangements(cards: Iterable[Card], ruleset: RuleSet) -> tuple[Arrangement, ...]:
    """Every arrangement of ``cards`` with the least deadwood: :func:`best_arrangement`'s
    choice first, then the others in the order of the tie-break (module docstring; with
    jokers, after fewest unmatched cards and fewest set cards, the lowest meld masks).

    Arrangements differ in which cards meld together. A run is not listed again split in
    two (``3C 4C 5C`` and ``6C 7C 8C`` for ``3C … 8C``: the same cards, and the same ends
    to lay off onto); a run holding a joker is, since the split moves the joker.

    >>> from engine.cards import parse_cards
    >>> from engine.rules import get_ruleset
    >>> tied = tied_arrangements(parse_cards("JC QC KC JD JH"), get_ruleset("knock"))
    >>> [[str(m) for m in a.melds] for a in tied], [a.deadwood for a in tied]
    ([['JC QC KC'], ['JC JD JH']], [20, 20])
    """
    cards = tuple(cards)
    check_hand_size(len(cards))
    hand = check_hand(cards, ruleset)  # raises, naming the duplicate or the joker
    if hand >> 52:
        return _tied_with_jokers(hand, ruleset.joker_value)
    c = hand & 8191
    d = hand >> 13 & 8191
    h = hand >> 26 & 8191
    s = hand >> 39
    triples = (c & d & (h | s)) | (h & s & (c | d))
    if not triples:  # no set possible: the runs are the only arrangement
        return (arrange_mask(hand, ruleset.joker_value),)
    table = _RUN_COST
    keyed = []
    for sets in _set_choices(hand, triples):
        rest = hand ^ sets
        cost = table[rest & 8191] + table[rest >> 13 & 8191] + table[rest >> 26 & 8191] + table[rest >> 39]
        keyed.append((cost >> 6, cost << 6 | sets.bit_count(), sets))
    least = min(keyed)[0]
    # sorted like _natural_sets' choice: key, then the lowest set-card mask
    return tuple(_lazy(hand, sets, least) for value, _, sets in sorted(keyed) if value == least)


def _tied_with_jokers(hand: int, joker_value: int) -> tuple[Arrangement, ...]:
    """:func:`tied_arrangements` of a hand holding jokers: every partition into melds
    within the least deadwood, searched from the lowest card left (meld it or not)."""
    best = arrange_mask(hand, joker_value)
    target = best.deadwood
    starting: dict[int, list[int]] = {}  # lowest card index -> masks of the melds it starts
    for mask in _joker_hand_melds(hand):
        starting.setdefault((mask & -mask).bit_length() - 1, []).append(mask)
    found: list[tuple[int, ...]] = []

    def visit(rest: int, spent: int, chosen: tuple[int, ...]) -> None:
        if spent > target:
            return
        if not rest:
            if spent == target:
                found.append(chosen)
            return
        low = rest & -rest
        index = low.bit_length() - 1
        visit(rest ^ low, spent + (joker_value if index >= 52 else ALL_CARDS[index].value), chosen)
        for mask in starting.get(index, ()):
            if rest & mask == mask:
                visit(rest ^ mask, spent, (*chosen, mask))

    visit(hand, 0, ())
    seen = {_tie_shape(meld.mask for meld in best.melds)}
    others: dict[frozenset[tuple[int, bool]], tuple[tuple[int, int, int, tuple[int, ...]], Arrangement]] = {}
    for chosen in found:
        shape = _tie_shape(chosen)
        if shape in seen or shape in others:
            continue
        arrangement = _joker_arrangement(hand, shape, target)
        set_cards = [m.mask & NATURAL_BITS for m in arrangement.melds if m.kind == "set"]
        order = (
            len(arrangement.unmatched),
            sum(m.bit_count() for m in set_cards),
            sum(set_cards),
            tuple(sorted(natural for natural, _ in shape)),
        )
        others[shape] = (order, arrangement)
    return (best, *(arrangement for _, arrangement in sorted(others.values(), key=lambda item: item[0])))


def _joker_hand_melds(hand: int) -> list[int]:
    """The masks of every meld the cards of ``hand`` can make, at most one joker each."""
    jokers = [bit for bit in (1 << 52, 1 << 53) if hand & bit]
    masks: list[int] = []
    for rank in range(13):
        held = mask_to_cards(_SPREAD << rank & hand)
        for size in range(2, len(held) + 1):
            for combo in combinations(held, size):
                naturals = sum(card.mask for card in combo)
                if size >= 3:
                    masks.append(naturals)
                if size <= 3:
                    masks += [naturals | joker for joker in jokers]
    for suit in range(4):
        row = hand >> 13 * suit & 8191
        for low in range(13):
            for high in range(low + 1, 13):
                span = ((1 << (high - low + 1)) - 1) << low
                if not row >> low & 1 or not row >> high & 1:
                    continue
                gaps = span & ~row
                naturals = (row & span) << 13 * suit
                if not gaps:
                    if high - low >= 2:
                        masks.append(naturals)
                    if high - low < 12:  # the joker above the top (below the bottom at the king)
                        masks += [naturals | joker for joker in jokers]
                    inside = span & ~(1 << low | 1 << high)
                    while inside:  # or standing for a card held, which goes elsewhere
                        bit = inside & -inside
                        inside ^= bit
                        masks += [naturals ^ bit << 13 * suit | joker for joker in jokers]
                elif not gaps & (gaps - 1):
                    masks += [naturals | joker for joker in jokers]
    return masks


def _tie_shape(masks: Iterable[int]) -> frozenset[tuple[int, bool]]:
    """Melds as (natural cards, holds a joker; which joker does not matter), with adjacent
    runs of naturals in one suit joined (a split run is the same arrangement)."""
    runs: list[int] = []
    shape: set[tuple[int, bool]] = set()
    for mask in masks:
        naturals = mask & NATURAL_BITS
        low = naturals & -naturals
        if mask >> 52 or naturals & (low * _SPREAD) != low:  # a set, or a joker meld
            shape.add((naturals, bool(mask >> 52)))
        else:
            runs.append(naturals)
    runs.sort()
    while runs:
        run = runs.pop(0)
        suit = (run.bit_length() - 1) // 13
        while runs and run << 1 & runs[0] and (runs[0].bit_length() - 1) // 13 == suit:
            run |= runs.pop(0)
        shape.add((run, False))
    return frozenset(shape)


def _joker_arrangement(hand: int, shape: frozenset[tuple[int, bool]], deadwood: int) -> Arrangement:
    """The arrangement of a tie shape: melds in display order, X1 in the first needing a joker."""
    used = 0
    for naturals, _ in shape:
        used |= naturals
    melds, jokers = _placed_melds(hand, shape)
    return Arrangement(melds, mask_to_cards(hand & NATURAL_BITS & ~used) + jokers, deadwood)


def deadwood(cards: Iterable[Card], ruleset: RuleSet) -> int:
    """The least deadwood of ``cards`` (the value-only fast path of :func:`best_arrangement`).

    >>> from engine.cards import parse_cards
    >>> from engine.rules import get_ruleset
    >>> deadwood(parse_cards("6H 6D 6C 7C 8C 2H 7S"), get_ruleset("knock"))
    21
    >>> deadwood(parse_cards("AS 2S X1 KD"), get_ruleset("rami"))
    10
    """
    if type(cards) is not tuple:
        cards = tuple(cards)
    if len(cards) > MAX_HAND:
        check_hand_size(len(cards))
    hand = 0
    masks = _MASKS
    for card in cards:
        hand += masks[card.index]
    if hand.bit_count() != len(cards) or hand >> 52:
        if hand.bit_count() != len(cards) or hand >> 52 >= 1 << ruleset.jokers:
            check_hand(cards, ruleset)  # raises, naming the duplicate or the joker
        return _search(hand, ruleset.joker_value)[0] >> 12
    c = hand & 8191
    d = hand >> 13 & 8191
    h = hand >> 26 & 8191
    s = hand >> 39
    table = _RUN_DW
    triples = (c & d & (h | s)) | (h & s & (c | d))
    if not triples:
        return table[c] + table[d] + table[h] + table[s]
    if not (triples & (triples - 1) or c & d & h & s):  # one rank of three cards
        rest = 8191 ^ triples
        return min(
            table[c] + table[d] + table[h] + table[s],
            table[c & rest] + table[d & rest] + table[h & rest] + table[s & rest],
        )
    best = INF
    for sets in _set_choices(hand, triples):
        rest = hand ^ sets
        value = table[rest & 8191] + table[rest >> 13 & 8191] + table[rest >> 26 & 8191] + table[rest >> 39]
        if value < best:
            best = value
    return best


def best_discard(cards: Iterable[Card], ruleset: RuleSet) -> tuple[Card, Arrangement]:
    """The discard leaving the least deadwood, and the best arrangement of what is left.

    Exact (unlike taking the best arrangement and dropping its highest unmatched
    card). Among equally good discards the highest card goes: highest rank, then
    suit ``S > H > D > C``; a joker is discarded only when strictly better (X2 before X1).

    >>> from engine.cards import parse_cards
    >>> from engine.rules import get_ruleset
    >>> card, rest = best_discard(parse_cards("2S AC 2C AD 2D 3D 4D 5D AH 2H 3H"), get_ruleset("gin"))
    >>> str(card), rest.deadwood
    ('3H', 0)
    """
    if type(cards) is not tuple:
        cards = tuple(cards)
    size = len(cards)
    if size == 11:  # a two-player hand after its draw: checked below, by its suits' card counts
        masks = _MASKS
        c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10 = cards
        hand = sum((
            masks[c0.index], masks[c1.index], masks[c2.index], masks[c3.index], masks[c4.index],
            masks[c5.index], masks[c6.index], masks[c7.index], masks[c8.index], masks[c9.index],
            masks[c10.index],
        ))  # fmt: skip
    else:
        hand = _hand_mask(cards, ruleset)
        if not size:
            raise InvalidHand("an empty hand has no card to discard")
    if not _CLUBS:
        _fill_discard_tables()
    # From here to the set choices, the lookup is _natural_discard's (the bots' mask
    # path), written out again rather than called: a call returning the suits' entries
    # would add its cost to every discard on the bots' hottest path, which is held to
    # OpenSpiel's speed (docs/performance.md, "best_discard").
    # tests/engine/test_arrangement_properties.py keeps the two paths equal.
    # Two 26-bit halves, so that splitting into suits is arithmetic on small integers.
    low = hand & 67108863
    high = hand >> 26 & 67108863
    c = low & 8191
    d = low >> 13
    h = high & 8191
    s = high >> 13
    a = _CLUBS[c]
    b = _DIAMONDS[d]
    e = _HEARTS[h]
    f = _SPADES[s]
    total = a + b + e + f
    if total & 63 != size:
        # The suits hold fewer cards than the hand: a joker, or (11 cards, not yet
        # checked) a duplicate, which _hand_mask raises for.
        return _joker_discard(_hand_mask(cards, ruleset), cards, ruleset)
    top = a if a > b else b
    if e > top:
        top = e
    if f > top:
        top = f
    triples = (c & d & (h | s)) | (h & s & (c | d))
    arrangement: Arrangement = _new(Arrangement)
    if not triples:
        # No rank held three times: no set, before or after the discard. The largest
        # entry is the discard, and what is left is arranged in runs alone (_plan unset
        # reads as "no sets").
        preference = top >> 14 & 63
        arrangement._hand = hand ^ _BIT_OF_PREFERENCE[preference]
        arrangement._deadwood = (total >> 6 & 255) - (top >> 20) + _DROP_OFFSET
        return _CARD_OF_PREFERENCE[preference], arrangement
    score = (top >> 14) - (total & 16320)  # _discard_score's score of no set
    if triples & (triples - 1) or c & d & h & s:
        score = _discard_score(low, high, triples, score)
    else:
        # One rank of three, the common case, inlined: the set is the only other choice.
        rest = 8191 ^ triples
        a = _CLUBS[c & rest]
        b = _DIAMONDS[d & rest]
        e = _HEARTS[h & rest]
        f = _SPADES[s & rest]
        top = a if a > b else b
        if e > top:
            top = e
        if f > top:
            top = f
        with_set = (top >> 14) - (a + b + e + f & 16320)
        if with_set > score:
            score = with_set
    preference = score & 63
    # The discard's search already knows what is left and its deadwood; which sets that
    # arrangement uses (the tie-break's choice) is searched only if its melds are read.
    arrangement._hand = hand ^ _BIT_OF_PREFERENCE[preference]
    arrangement._plan = _SETS_UNKNOWN
    arrangement._deadwood = _DROP_OFFSET - (score >> 6)
    return _CARD_OF_PREFERENCE[preference], arrangement


def _joker_discard(hand: int, cards: tuple[Card, ...], ruleset: RuleSet) -> tuple[Card, Arrangement]:
    """:func:`best_discard` of a checked hand holding jokers: every discard searched."""
    best = (INF, 0, 0)
    for card in cards:
        value = _search(hand ^ _MASKS[card.index], ruleset.joker_value)[0] >> 12
        best = min(best, (value, -_discard_preference(card.index), card.index))
    index = best[2]
    return ALL_CARDS[index], arrange_mask(hand ^ _MASKS[index], ruleset.joker_value)


def _hand_mask(cards: tuple[Card, ...], ruleset: RuleSet) -> int:
    """The mask of ``cards``, checked against duplicates, the rule set's jokers and
    :data:`MAX_HAND`."""
    check_hand_size(len(cards))
    hand = 0
    masks = _MASKS
    for card in cards:
        hand += masks[card.index]
    if hand.bit_count() != len(cards) or hand >> 52 >= 1 << ruleset.jokers:
        check_hand(cards, ruleset)  # raises, naming the duplicate or the joker
    return hand


def search_key(hand: int, joker_value: int) -> int:
    """Engine-internal: ``cost << 6 | cards in sets`` of the best arrangement of a hand mask
    (``cost = deadwood << 6 | unmatched cards``); lower is better."""
    return _search(hand, joker_value)[0]


def arrange_mask(hand: int, joker_value: int) -> Arrangement:
    """Engine-internal: the best arrangement of an already validated hand mask (the same
    result as :func:`best_arrangement`, whose hot path inlines the joker-free case)."""
    if hand >> 52:
        key, sets, joker_sets, suit_jokers = _search(hand, joker_value)
        return _lazy(hand, (sets, joker_sets, suit_jokers), key >> 12)
    c = hand & 8191
    d = hand >> 13 & 8191
    h = hand >> 26 & 8191
    s = hand >> 39
    triples = (c & d & (h | s)) | (h & s & (c | d))
    if triples:
        key, sets = _natural_sets(hand, triples)
        return _lazy(hand, sets, key >> 12)
    table = _RUN_DW
    return _lazy(hand, 0, table[c] + table[d] + table[h] + table[s])


def mask_deadwood(hand: int, joker_value: int) -> int:
    """Engine-internal, for bots' lean simulators: the least deadwood of a hand mask the
    caller built itself (no checks; any number of cards), as :func:`deadwood`.

    >>> from engine.cards import cards_to_mask, parse_cards
    >>> mask_deadwood(cards_to_mask(parse_cards("6H 6D 6C 7C 8C 2H 7S")), 25)
    21
    """
    if hand >> 52:
        return _search(hand, joker_value)[0] >> 12
    c = hand & 8191
    d = hand >> 13 & 8191
    h = hand >> 26 & 8191
    s = hand >> 39
    table = _RUN_DW
    triples = (c & d & (h | s)) | (h & s & (c | d))
    if not triples:
        return table[c] + table[d] + table[h] + table[s]
    best = INF
    for sets in _set_choices(hand, triples):
        rest = hand ^ sets
        value = table[rest & 8191] + table[rest >> 13 & 8191] + table[rest >> 26 & 8191] + table[rest >> 39]
        if value < best:
            best = value
    return best


def mask_discard(hand: int, joker_value: int) -> tuple[int, int]:
    """Engine-internal, for bots' lean simulators: ``(deadwood left, card index)`` of the
    best discard from a hand mask (no checks), the discard :func:`best_discard` chooses.

    >>> from engine.cards import cards_to_mask, parse_cards
    >>> mask_discard(cards_to_mask(parse_cards("2S AC 2C AD 2D 3D 4D 5D AH 2H 3H")), 25)
    (0, 28)
    """
    if hand >> 52:
        best = (INF, 0, 0)
        rest = hand
        while rest:
            bit = rest & -rest
            rest ^= bit
            index = bit.bit_length() - 1
            value = _search(hand ^ bit, joker_value)[0] >> 12
            best = min(best, (value, -_discard_preference(index), index))
        return best[0], best[2]
    return _natural_discard(hand)


def _discard_preference(index: int) -> int:
    """Higher is discarded first among equal discards: rank, then suit; jokers lowest."""
    if index >= 52:
        return index - 54
    return (index % 13) * 4 + index // 13


def _set_choices(hand: int, ranks: int) -> list[int] | tuple[int, ...]:
    """Every choice of natural sets among ``ranks`` (bits of ranks holding 3 or 4 cards)."""
    if not ranks & (ranks - 1):
        full = ranks * _SPREAD & hand
        if full.bit_count() == 3:
            return (0, full)
        return (0, full, full ^ ranks, full ^ ranks << 13, full ^ ranks << 26, full ^ ranks << 39)
    choices = [0]
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        full = low * _SPREAD & hand
        options = [0, full]
        if full.bit_count() == 4:
            rest = full
            while rest:
                bit = rest & -rest
                rest ^= bit
                options.append(full ^ bit)
        choices = [chosen | option for chosen in choices for option in options]
    return choices


def _natural_sets(hand: int, triples: int) -> tuple[int, int]:
    """(key, set cards) of the best arrangement of a hand without jokers; key is
    ``cost << 6 | cards in sets`` and ties go to the lowest set-card mask."""
    table = _RUN_COST
    best_key = INF
    best_sets = 0
    for sets in _set_choices(hand, triples):
        rest = hand ^ sets
        cost = table[rest & 8191] + table[rest >> 13 & 8191] + table[rest >> 26 & 8191] + table[rest >> 39]
        key = cost << 6 | sets.bit_count()
        if key < best_key or (key == best_key and sets < best_sets):
            best_key, best_sets = key, sets
    return best_key, best_sets


def _natural_discard(hand: int) -> tuple[int, int]:
    """(Deadwood left, index) of the best discard of a hand without jokers, as
    :func:`best_discard` chooses it."""
    if not _CLUBS:
        _fill_discard_tables()
    low = hand & 67108863
    high = hand >> 26
    c = low & 8191
    d = low >> 13
    h = high & 8191
    s = high >> 13
    a = _CLUBS[c]
    b = _DIAMONDS[d]
    e = _HEARTS[h]
    f = _SPADES[s]
    top = a if a > b else b
    if e > top:
        top = e
    if f > top:
        top = f
    score = (top >> 14) - (a + b + e + f & 16320)
    triples = (c & d & (h | s)) | (h & s & (c | d))
    if triples:
        score = _discard_score(low, high, triples, score)
    return _DROP_OFFSET - (score >> 6), _INDEX_OF_PREFERENCE[score & 63]


def _discard_score(low: int, high: int, triples: int, best: int) -> int:
    """The best discard's score over the set choices of a hand without jokers, given
    ``best``, its score with no set; ``low`` and ``high`` are the hand's 26-bit halves
    (clubs and diamonds, hearts and spades), ``triples`` its ranks held three or four
    times.

    A score is ``(drop - deadwood + _DROP_OFFSET) << 6 | preference``: the biggest is
    the least deadwood left, then the highest card. Exact: every (set choice, discard)
    pair is covered, because the best arrangement of the hand minus a card is one of
    the hand's set choices with that card left out of every set; per suit, the table
    gives the largest deadwood drop one discard makes (the card may be unmatched or
    come out of a run). A choice leaving no card scores 0, below any real discard of
    such a hand (made of sets, it keeps at most 20 after one).

    The choices, as (set cards of ``low``, set cards of ``high``), per rank: for three
    cards, no set or the set; for four, the set of four, the three without the spade,
    and the three without each other card that has a neighbour of its suit in the
    hand (it may go into a run). The three without an *isolated* card x are left out:
    discarding x is matched by discarding the spade (same deadwood, higher card), any
    other discard by the set of four with x melded (less deadwood). No set of the rank
    is tried only if one of the four may go into a run: otherwise the set of four beats
    it for every discard.
    """
    c = low & 8191
    d = low >> 13
    h = high & 8191
    s = high >> 13
    options_by_rank = []
    while triples:
        rank = triples & -triples
        triples ^= rank
        both = rank | rank << 13
        x = low & both
        y = high & both
        if c & d & h & s & rank:
            spade = rank << 13
            near = (rank << 1 | rank >> 1) & 8191
            if (c | d | h | s) & near:
                options = [(0, 0), (x, y), (x, y ^ spade)]
                if c & near:
                    options.append((x ^ rank, y))
                if d & near:
                    options.append((x ^ spade, y))
                if h & near:
                    options.append((x, y ^ rank))
            else:
                options = [(x, y), (x, y ^ spade)]
        else:
            options = [(0, 0), (x, y)]
        options_by_rank.append(options)
    # Every choice of the ranks but the last (a prefix), then each option of the last;
    # after the prefix of no set, the last rank's "no set" would be no set at all.
    last = options_by_rank.pop()
    tail = last[1:] if last[0] == (0, 0) else last
    prefixes = options_by_rank[0] if options_by_rank else [(0, 0)]
    for options in options_by_rank[1:]:
        prefixes = [(x | u, y | v) for x, y in prefixes for u, v in options]
    for x, y in prefixes:
        options = last if x | y else tail
        x ^= low
        y ^= high
        for u, v in options:
            u ^= x
            v ^= y
            a = _CLUBS[u & 8191]
            b = _DIAMONDS[u >> 13]
            e = _HEARTS[v & 8191]
            f = _SPADES[v >> 13]
            top = a if a > b else b
            if e > top:
                top = e
            if f > top:
                top = f
            score = (top >> 14) - (a + b + e + f & 16320)
            if score > best:
                best = score
    return best


# A suit's discard entry, for its 13-bit mask (0 for an empty suit):
# ``(drop + _DROP_OFFSET) << 20 | preference << 14 | run-only deadwood << 6 | cards``,
# where the drop is the most deadwood one discard from the suit removes (negative when
# every card is in a run of three), made by the highest such card, and the preference
# is ``rank << 2 | suit`` (rank 0-12, suits C D H S). The largest of a hand's four entries
# is its best discard without sets, the highest card among equals; their sum holds the
# hand's run-only deadwood (bits 6-13) and its natural cards (bits 0-5). A drop lies in
# -20..10 and a suit's deadwood in 0..60, so entries and sums stay small integers.
_DROP_OFFSET = 32
# Filled on first use (about 10 ms), in place so the names stay bound.
_CLUBS: list[int] = []
_DIAMONDS: list[int] = []
_HEARTS: list[int] = []
_SPADES: list[int] = []
_INDEX_OF_PREFERENCE = tuple((preference & 3) * 13 + (preference >> 2) for preference in range(52))
_CARD_OF_PREFERENCE = tuple(ALL_CARDS[index] for index in _INDEX_OF_PREFERENCE)
_BIT_OF_PREFERENCE = tuple(1 << index for index in _INDEX_OF_PREFERENCE)


def _fill_discard_tables() -> None:
    """Fill the four suits' discard entries (the layout above)."""
    table = _RUN_DW
    entries = [0] * 8192
    for mask in range(1, 8192):
        base = table[mask]
        best = -INF
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            candidate = (base - table[mask ^ bit]) << 4 | (bit.bit_length() - 1)
            if candidate > best:
                best = candidate
        drop, rank = (best >> 4) + _DROP_OFFSET, best & 15
        entries[mask] = drop << 20 | rank << 16 | base << 6 | mask.bit_count()
    for suit, suit_table in enumerate((_CLUBS, _DIAMONDS, _HEARTS, _SPADES)):
        suit_table[:] = [0] + [entry | suit << 14 for entry in entries[1:]]


def _build(
    hand: int, sets: int, joker_sets: int, suit_jokers: tuple[int, ...]
) -> tuple[tuple[Meld, ...], tuple[Card, ...]]:
    """Materialise a plan into melds (display order, X1 before X2) and unmatched cards."""
    groups: list[tuple[int, bool]] = []
    for rank in range(13):
        spread = _SPREAD << rank
        if sets & spread:
            groups.append((sets & spread, False))
        bits = joker_sets & spread
        if bits.bit_count() == 4:  # two sets of one rank, a joker each: lowest suits together
            low_pair = bits & -bits
            low_pair |= (bits ^ low_pair) & -(bits ^ low_pair)
            groups += [(low_pair, True), (bits ^ low_pair, True)]
        elif bits:
            groups.append((bits, True))
    unmatched = (hand & NATURAL_BITS) ^ sets ^ joker_sets
    for suit in range(4):
        shift = 13 * suit
        for bits, with_joker in _suit_groups(unmatched >> shift & 8191, suit_jokers[suit]):
            groups.append((bits << shift, with_joker))
            unmatched ^= bits << shift
    melds, jokers = _placed_melds(hand, groups)
    return tuple(melds), mask_to_cards(unmatched) + jokers


def _placed_melds(hand: int, groups: Iterable[tuple[int, bool]]) -> tuple[list[Meld], tuple[Card, ...]]:
    """The melds of ``groups`` (each its natural cards' bits and whether a joker completes
    it) in display order, the hand's jokers placed in that order (X1 in the first needing
    one); and the jokers left over."""
    placeholder = ALL_CARDS[52]
    drafts = []
    for bits, with_joker in groups:
        meld = build_meld(mask_to_cards(bits), placeholder if with_joker else None)
        assert meld is not None
        drafts.append((meld, bits))
    drafts.sort(key=lambda draft: meld_sort_key(draft[0]))
    jokers = [card for card in ALL_CARDS[52:] if hand >> card.index & 1]
    melds = []
    for meld, bits in drafts:
        if meld.joker is not None:
            rebuilt = build_meld(mask_to_cards(bits), jokers.pop(0))
            assert rebuilt is not None
            meld = rebuilt
        melds.append(meld)
    return melds, tuple(jokers)
