"""Scoring one showdown: every hand arranged, then settled by the rule set's scoring.

:func:`score_showdown` takes the hands exposed at the end of a hand (seat -> cards,
in turn order) and who knocked, arranges every hand for the lowest deadwood, and
scores it by the rule set's ``scoring`` option (RULES.md §3, §4 per hand, §5):

``settlement``
    Players pay each other; every hand is zero-sum. ``points`` is what each seat
    gains (positive) or pays (negative), as exact fractions.
``cumulative``
    ``points`` is what each seat adds to its running score: its deadwood, or
    ``-zero_deadwood_bonus`` for a hand without deadwood.
``gin``
    The knocker is scored against each opponent; ``points`` is what each seat adds
    to its game score (never negative).

Outcomes (``Showdown.outcome``), stable strings:

- settlement: ``rum`` (the knocker went rum), ``knock_won`` (the knocker alone has
  the lowest count), ``knock_tied`` (the knocker ties for the lowest count and
  steps aside), ``knock_lost`` (someone has less than the knocker), ``no_knock``
  (the stock ran out);
- cumulative: ``knock`` or ``no_knock``;
- gin: ``gin``, ``undercut`` (at least one opponent undercut the knocker),
  ``knock`` (otherwise, the knocker beat at least one opponent) or ``tie`` (every
  opponent tied a knocker without ``undercut_on_tie``). ``Showdown.pair_results``
  has the result against each opponent: ``gin``, ``knock``, ``undercut`` or ``tie``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from engine.arrangement import Arrangement, best_arrangement, tied_arrangements
from engine.cards import Card
from engine.errors import InvalidHand, InvalidShowdown
from engine.layoffs import Defence, Layoff, best_defence
from engine.melds import Meld
from engine.rules import FEWEST_LAYOFFS, KNOCK_ARRANGEMENTS, InvalidRuleSet, RuleSet

__all__ = ["CountedHand", "Showdown", "knocker_arrangement", "score_counts", "score_showdown"]


@dataclass(frozen=True)
class Showdown:
    """The scored end of one hand.

    ``deadwood``, ``points`` and ``arrangements`` are keyed by seat in turn order.
    For gin defenders ``deadwood`` and ``arrangements`` are after their layoffs,
    which ``layoffs`` lists (empty for the knocker, and for everyone after a gin).
    ``winners`` are the seats that won the hand: in settlement the seats that share
    the payments, in cumulative scoring the seats with the lowest deadwood, in gin
    the seats that scored. ``rum_seats`` are the seats paid a bonus for having no
    deadwood: a rum (settlement), a zero-deadwood hand (cumulative), a gin.
    """

    knocker: int | None
    outcome: str
    deadwood: dict[int, int]
    points: dict[int, Fraction]
    arrangements: dict[int, Arrangement]
    winners: tuple[int, ...]
    rum_seats: tuple[int, ...] = ()
    layoffs: dict[int, tuple[Layoff, ...]] = field(default_factory=dict)
    pair_results: dict[int, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: seats become string keys, points are exact fraction strings
        (``str(Fraction)``: ``"-12"``, ``"20/3"``), cards are canonical codes."""
        return {
            "knocker": self.knocker,
            "outcome": self.outcome,
            "winners": list(self.winners),
            "rum_seats": list(self.rum_seats),
            "deadwood": {str(seat): value for seat, value in self.deadwood.items()},
            "points": {str(seat): str(value) for seat, value in self.points.items()},
            "arrangements": {str(seat): arr.to_dict() for seat, arr in self.arrangements.items()},
            "layoffs": {
                str(seat): [{"card": str(layoff.card), "meld_index": layoff.meld_index} for layoff in items]
                for seat, items in self.layoffs.items()
            },
            "pair_results": {str(seat): result for seat, result in self.pair_results.items()},
        }


def score_showdown(
    ruleset: RuleSet,
    hands: Mapping[int, Iterable[Card]],
    knocker: int | None,
    *,
    knocker_melds: Sequence[Meld] | None = None,
    knock_arrangement: str = FEWEST_LAYOFFS,
) -> Showdown:
    """Arrange and score the hands of one showdown under ``ruleset``.

    ``hands`` maps seat numbers, in turn order, to the cards each seat holds (after
    the knocker's discard); ``knocker`` is one of those seats, or ``None`` when the
    stock ran out. ``knocker_melds`` is the arrangement the knocker declared, if any:
    it must be legal (melds of the knocker's own cards, no card twice), and it is
    used only where the rules let a player choose — in gin scoring, the knocker's
    melds are what the opponents lay off onto, and the knocker's deadwood is what
    the declared melds leave (a knocker may meld less than the best to block
    layoffs). In other scorings the best arrangement counts.

    ``knock_arrangement`` is the game's rule (``GameStarted.knock_arrangement``) for the
    melds the engine chooses for a gin knocker who declared none, when several
    arrangements leave the same least deadwood: ``fewest_layoffs`` (the one leaving the
    opponents the fewest layoff points, :func:`knocker_arrangement`) or ``first_best``
    (the arrangement tie-break of :mod:`engine.arrangement`, the rule of games started
    before ``fewest_layoffs``).

    Raises :class:`~engine.errors.InvalidHand` for cards no deck can deal and
    :class:`~engine.errors.InvalidShowdown` for a showdown that cannot be scored
    (wrong sizes, unknown knocker, a gin knock over the limit, a void hand, a
    declared meld of cards the knocker does not hold).

    Seed 000's worked example (with a legal deal of the same deadwood counts):

    >>> from engine.cards import parse_cards
    >>> from engine.rules import get_ruleset
    >>> hands = {
    ...     0: parse_cards("8H 9H TH JH QH 5C 7D"),
    ...     1: parse_cards("2C 3C 3D 4D 5H 5S 6S"),
    ...     2: parse_cards("6H 6D 6C 7C 8C 2H 7S"),
    ...     3: parse_cards("AH AC 3S 5D 9D 9C 9S"),
    ... }
    >>> result = score_showdown(get_ruleset("knock-rummy"), hands, knocker=0)
    >>> result.outcome, result.deadwood
    ('knock_lost', {0: 12, 1: 28, 2: 21, 3: 10})
    >>> {seat: str(points) for seat, points in result.points.items()}
    {0: '-12', 1: '-18', 2: '-11', 3: '41'}
    """
    if knock_arrangement not in KNOCK_ARRANGEMENTS:
        raise InvalidShowdown(
            f"unknown knock_arrangement rule {knock_arrangement!r}; known: {', '.join(KNOCK_ARRANGEMENTS)}",
            code="invalid_knock_arrangement",
        )
    cards = check_hands(ruleset, hands, knocker)
    arrangements = {seat: best_arrangement(held, ruleset) for seat, held in cards.items()}
    if knocker_melds is not None:
        if knocker is None:
            raise InvalidShowdown("declared melds need a knocker", code="invalid_declaration")
        declared = _declared_arrangement(cards[knocker], knocker_melds, knocker)
        if ruleset.scoring == "gin":
            arrangements[knocker] = declared
    deadwood = {seat: arr.deadwood for seat, arr in arrangements.items()}
    dealt = ruleset.cards_per_player(len(cards))
    if knocker is not None and len(cards[knocker]) == dealt + 1 and deadwood[knocker] != 0:
        raise InvalidShowdown(
            f"seat {knocker} laid down {dealt + 1} cards without discarding, but only a hand "
            f"that melds completely may do that (deadwood {deadwood[knocker]})",
            code="laydown_not_all_melded",
            params={"seat": knocker, "deadwood": deadwood[knocker]},
        )
    limit = ruleset.knock_max_deadwood
    if knocker is not None and limit is not None and deadwood[knocker] > limit:
        raise InvalidShowdown(
            f"seat {knocker} knocked with {deadwood[knocker]} deadwood; "
            f"{ruleset.preset} allows at most {limit}",
            code="deadwood_too_high_to_knock",
            params={"seat": knocker, "deadwood": deadwood[knocker], "limit": limit},
        )
    layoffs: dict[int, tuple[Layoff, ...]] = {seat: () for seat in cards}
    if ruleset.scoring == "gin":
        assert knocker is not None  # check_hands rejects a gin showdown without a knock
        defences = None
        if knocker_melds is None and knock_arrangement == FEWEST_LAYOFFS and deadwood[knocker] > 0:
            arrangements[knocker], defences = _fewest_layoffs(ruleset, cards, knocker, arrangements)
        _lay_off(ruleset, cards, arrangements, deadwood, layoffs, knocker, defences)
    counted = score_counts(ruleset, deadwood, knocker)
    if ruleset.scoring == "settlement":
        assert sum(counted.points.values()) == 0, f"settlement must be zero-sum: {counted.points}"
    return Showdown(
        knocker=knocker,
        outcome=counted.outcome,
        deadwood=deadwood,
        points=counted.points,
        arrangements=arrangements,
        winners=counted.winners,
        rum_seats=counted.rum_seats,
        layoffs=layoffs,
        pair_results=counted.pair_results,
    )


class CountedHand(NamedTuple):
    """A hand scored from deadwood counts alone (see :func:`score_counts`)."""

    outcome: str
    points: dict[int, Fraction]
    winners: tuple[int, ...]
    rum_seats: tuple[int, ...]
    pair_results: dict[int, str]


def score_counts(ruleset: RuleSet, deadwood: Mapping[int, int], knocker: int | None) -> CountedHand:
    """Score a hand from each seat's deadwood count (seats in turn order; gin counts are
    after layoffs): the scoring rules of :func:`score_showdown` once the hands are
    counted. The physical quick path uses it for announced, unverified counts.

    >>> from engine.rules import get_ruleset
    >>> counted = score_counts(get_ruleset("knock-rummy"), {0: 12, 1: 28, 2: 21, 3: 10}, 0)
    >>> counted.outcome, [str(p) for p in counted.points.values()], counted.winners
    ('knock_lost', ['-12', '-18', '-11', '41'], (3,))
    """
    if ruleset.scoring == "settlement":
        return _settle(ruleset, deadwood, knocker)
    if ruleset.scoring == "cumulative":
        return _cumulative(ruleset, deadwood, knocker)
    if knocker is None:
        raise InvalidShowdown(
            "in gin a hand without a knock is void and is dealt again, not scored", code="void_hand"
        )
    return _gin(ruleset, deadwood, knocker)


def _declared_arrangement(held: tuple[Card, ...], melds: Sequence[Meld], seat: int) -> Arrangement:
    """The arrangement a player declared, checked against the cards they hold."""
    left = set(held)
    for meld in melds:
        if not isinstance(meld, Meld):
            raise InvalidShowdown(
                f"seat {seat} declared {meld!r}, which is not a meld",
                code="invalid_declaration",
                params={"seat": seat},
            )
        for card in meld.cards:
            if card not in left:
                problem = "twice" if card in held else "but does not hold it"
                raise InvalidShowdown(
                    f"seat {seat} declared the meld {meld} using {card} {problem}",
                    code="invalid_declaration",
                    params={"seat": seat, "card": card.code},
                )
            left.remove(card)
    unmatched = tuple(card for card in held if card in left)
    return Arrangement(tuple(melds), unmatched, sum(card.value for card in unmatched))


def check_hands(
    ruleset: RuleSet, hands: Mapping[int, Iterable[Card]], knocker: int | None, *, void: bool = False
) -> dict[int, tuple[Card, ...]]:
    """The hands as tuples, once every rule about who holds what has been checked.
    ``void``: the hands of a gin hand nobody knocked (void, not scored), which must still
    be hands that one deck could have dealt."""
    cards = {seat: tuple(held) for seat, held in hands.items()}
    for seat in cards:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise InvalidShowdown(f"seats are numbered with integers, not {seat!r}", code="invalid_seat")
    if len(cards) < 2:
        raise InvalidShowdown(f"a showdown needs at least 2 hands, got {len(cards)}", code="too_few_hands")
    try:
        dealt = ruleset.cards_per_player(len(cards))
    except InvalidRuleSet as exc:
        raise InvalidShowdown(str(exc), code="wrong_player_count") from exc
    if knocker is not None and knocker not in cards:
        seats = ", ".join(str(seat) for seat in cards)
        raise InvalidShowdown(
            f"knocker seat {knocker} holds no hand (seats: {seats})",
            code="unknown_knocker",
            params={"seat": knocker},
        )
    if knocker is None and ruleset.scoring == "gin" and not void:
        raise InvalidShowdown(
            "in gin a hand without a knock is void and is dealt again, not scored", code="void_hand"
        )
    holder: dict[Card, int] = {}
    for seat, held in cards.items():
        for card in held:
            if not isinstance(card, Card):
                raise InvalidHand(
                    f"seat {seat} holds {card!r}, which is not a card",
                    code="not_a_card",
                    params={"seat": seat},
                )
            if card.index >= 52 + ruleset.jokers:
                raise InvalidHand(
                    f"seat {seat} holds {card}, but {ruleset.preset} is played with "
                    f"{ruleset.jokers} joker(s)",
                    code="joker_not_in_deck",
                    params={"seat": seat, "card": card.code},
                )
            if card in holder:
                where = f"seat {seat}" if holder[card] == seat else f"seats {holder[card]} and {seat}"
                raise InvalidHand(
                    f"{card} appears twice ({where}); one deck holds it once",
                    code="duplicate_card",
                    params={"seat": seat, "card": card.code, "holder": holder[card], "problem": "duplicate"},
                )
            holder[card] = seat
    for seat, held in cards.items():
        laydown = seat == knocker and ruleset.rum_without_discard and len(held) == dealt + 1
        if len(held) != dealt and not laydown:
            extra = (
                " (or one more when laying down a rum)"
                if seat == knocker and ruleset.rum_without_discard
                else ""
            )
            raise InvalidShowdown(
                f"seat {seat} shows {len(held)} cards; with {len(cards)} players each hand "
                f"holds {dealt}{extra}",
                code="wrong_hand_size",
                params={"seat": seat, "count": len(held), "size": dealt, "problem": "size"},
            )
    return cards


def _settle(ruleset: RuleSet, deadwood: Mapping[int, int], knocker: int | None) -> CountedHand:
    """RULES.md §3: the losers pay the winners, who share equally."""
    points = {seat: Fraction(0) for seat in deadwood}
    if knocker is not None and deadwood[knocker] == 0:
        # Rum: the knocker alone wins, even against another hand without deadwood.
        for seat, count in deadwood.items():
            if seat != knocker:
                points[seat] -= count + ruleset.rum_bonus
                points[knocker] += count + ruleset.rum_bonus
        return CountedHand("rum", points, (knocker,), (knocker,), {})

    low = min(deadwood.values())
    winners = [seat for seat, count in deadwood.items() if count == low]
    knocker_tied = knocker is not None and knocker in winners and len(winners) > 1
    if knocker_tied:
        # A knocker tied for the lowest count steps aside: neither pays nor receives.
        winners = [seat for seat in winners if seat != knocker]
    # Ruling (rum_bonus_for="any_player"): after a knock that is not a rum, the seats
    # with no deadwood are the winners and every payer adds the rum bonus once to
    # what it pays into the winners' pot.
    any_rum = knocker is not None and low == 0 and ruleset.rum_bonus_for == "any_player"
    bonus = ruleset.rum_bonus if any_rum else 0
    pot = Fraction(0)
    for seat, count in deadwood.items():
        if seat in winners or (knocker_tied and seat == knocker):
            continue
        pays = count - low + bonus
        if seat == knocker:
            if ruleset.knocker_loss == "penalty":
                pays += ruleset.knocker_penalty
            elif ruleset.knocker_loss == "double":
                pays += count - low
            else:  # penalty_each_lower: paid directly, outside the winners' pot
                for other, other_count in deadwood.items():
                    if other != knocker and other_count < count:
                        points[other] += ruleset.knocker_penalty
                        points[knocker] -= ruleset.knocker_penalty
        points[seat] -= pays
        pot += pays
    share = pot / len(winners)
    for seat in winners:
        points[seat] += share

    if knocker is None:
        outcome = "no_knock"
    elif knocker_tied:
        outcome = "knock_tied"
    elif winners == [knocker]:
        outcome = "knock_won"
    else:
        outcome = "knock_lost"
    return CountedHand(outcome, points, tuple(winners), tuple(winners) if any_rum else (), {})


def _cumulative(ruleset: RuleSet, deadwood: Mapping[int, int], knocker: int | None) -> CountedHand:
    """RULES.md §4, one hand: deadwood is added; no deadwood subtracts the bonus."""
    points = {
        seat: Fraction(count if count else -ruleset.zero_deadwood_bonus) for seat, count in deadwood.items()
    }
    low = min(deadwood.values())
    return CountedHand(
        "no_knock" if knocker is None else "knock",
        points,
        tuple(seat for seat, count in deadwood.items() if count == low),
        tuple(seat for seat, count in deadwood.items() if count == 0),
        {},
    )


def _opponents(seats: list[int], knocker: int) -> list[int]:
    """The knocker's opponents in turn order from the knocker's left."""
    start = seats.index(knocker)
    return seats[start + 1 :] + seats[:start]


def _lay_off(
    ruleset: RuleSet,
    cards: dict[int, tuple[Card, ...]],
    arrangements: dict[int, Arrangement],
    deadwood: dict[int, int],
    layoffs: dict[int, tuple[Layoff, ...]],
    knocker: int,
    defences: Mapping[int, Defence] | None = None,
) -> None:
    """RULES.md §5: after a knock that is not gin, each opponent lays off onto the
    knocker's melds independently; their arrangements and deadwood become the ones
    after layoffs. A gin takes no layoffs. ``defences``: the opponents' defences
    against the knocker's melds, if already computed."""
    if deadwood[knocker] == 0:
        return
    knocker_melds = arrangements[knocker].melds
    for seat in _opponents(list(cards), knocker):
        if defences is not None:
            defence = defences[seat]
        else:
            defence = best_defence(cards[seat], knocker_melds, ruleset)
        arrangements[seat] = defence.arrangement
        layoffs[seat] = defence.layoffs
        deadwood[seat] = defence.arrangement.deadwood


def knocker_arrangement(
    ruleset: RuleSet, hands: Mapping[int, Iterable[Card]], knocker: int
) -> tuple[Arrangement, int]:
    """The gin knocker's melds by the ``fewest_layoffs`` rule, and the layoff points they
    leave: among the knocker's arrangements of least deadwood
    (:func:`~engine.arrangement.tied_arrangements`), the one minimising the layoff
    points of all opponents together, an opponent's layoff points being how much its
    best defence against those melds (:func:`~engine.layoffs.best_defence`) lowers its
    deadwood. Ties go to the first in ``tied_arrangements``' order, so the choice is
    :func:`~engine.arrangement.best_arrangement`'s unless another leaves strictly fewer.

    ``hands`` are seat -> cards in turn order (checked as :func:`score_showdown` checks
    them).

    >>> from engine.cards import parse_cards
    >>> from engine.rules import get_ruleset
    >>> hands = {0: parse_cards("5C 7C 9C 5D TD JD 4H 2S 7S TS"),
    ...          1: parse_cards("AC QC 2D 3D 4D QD 2H 3H QH 3S")}
    >>> melds, points = knocker_arrangement(get_ruleset("gin"), hands, 1)
    >>> [str(m) for m in melds.melds], melds.deadwood, points  # 2D 3D 4D would take 5D
    (['3D 3H 3S', 'QC QD QH'], 9, 0)
    """
    cards = check_hands(ruleset, hands, knocker)
    arrangements = {seat: best_arrangement(held, ruleset) for seat, held in cards.items()}
    chosen, defences = _fewest_layoffs(ruleset, cards, knocker, arrangements)
    return chosen, sum(arrangements[seat].deadwood - defence.deadwood for seat, defence in defences.items())


def _fewest_layoffs(
    ruleset: RuleSet,
    cards: Mapping[int, tuple[Card, ...]],
    knocker: int,
    arrangements: Mapping[int, Arrangement],
) -> tuple[Arrangement, dict[int, Defence]]:
    """:func:`knocker_arrangement` on checked hands whose best arrangements are known;
    with the opponents' defences against the chosen melds."""
    opponents = _opponents(list(cards), knocker)
    chosen: tuple[int, Arrangement, dict[int, Defence]] | None = None
    for candidate in tied_arrangements(cards[knocker], ruleset):
        defences = {seat: best_defence(cards[seat], candidate.melds, ruleset) for seat in opponents}
        points = sum(arrangements[seat].deadwood - defence.deadwood for seat, defence in defences.items())
        if chosen is None or points < chosen[0]:
            chosen = (points, candidate, defences)
        if points == 0:
            break
    assert chosen is not None  # tied_arrangements lists at least the best
    return chosen[1], chosen[2]


def _gin(ruleset: RuleSet, deadwood: Mapping[int, int], knocker: int) -> CountedHand:
    """RULES.md §5: the knocker against each opponent (counts after layoffs)."""
    opponents = _opponents(list(deadwood), knocker)
    knocker_count = deadwood[knocker]
    points = {seat: Fraction(0) for seat in deadwood}
    results: dict[int, str] = {}
    for seat in opponents:
        count = deadwood[seat]
        if knocker_count == 0:
            # A gin cannot be undercut.
            points[knocker] += count + ruleset.gin_bonus
            results[seat] = "gin"
        elif count < knocker_count or (count == knocker_count and ruleset.undercut_on_tie):
            points[seat] += knocker_count - count + ruleset.undercut_bonus
            results[seat] = "undercut"
        elif count == knocker_count:
            results[seat] = "tie"
        else:
            points[knocker] += count - knocker_count
            results[seat] = "knock"
    if knocker_count == 0:
        outcome = "gin"
    elif "undercut" in results.values():
        outcome = "undercut"
    elif "knock" in results.values():
        outcome = "knock"
    else:
        outcome = "tie"
    winners = tuple(seat for seat in [knocker, *opponents] if points[seat] > 0)
    return CountedHand(outcome, points, winners, (knocker,) if knocker_count == 0 else (), results)
