"""Benchmark: engine.arrangement against OpenSpiel's C++ min_deadwood and rlcard's melding.

Not run in CI. Usage (see tests/bench/README.md):

    .venv/bin/python tests/bench/bench_deadwood.py [--hands 100000] [--rounds 3] [--all] [--check]

Seeded hand sets of 10 and 11 cards, uniform and meld-dense, plus 2-joker hands.
Every timing is the best of ``--rounds`` interleaved rounds over the whole set (the
machine is shared; the best round is the least disturbed one). Inputs are prebuilt
(tuples of Card for us, lists of ints for OpenSpiel, lists of rlcard Cards), and
every hand in a set is distinct, so no cache can flatter a result. Every
disagreement with our exact value is counted (``--all`` prints each one).
``--check`` also compares every 11-card ``best_discard`` with the exhaustive answer
(each discard's ``deadwood``; the highest card among the best), card and deadwood.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.arrangement import best_arrangement, best_discard, deadwood
from engine.cards import ALL_CARDS, Card, format_cards
from engine.rules import get_ruleset

GIN = get_ruleset("gin")
RAMI = get_ruleset("rami")


def load_openspiel() -> Any:
    try:
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError as exc:
        print(f"OpenSpiel not available ({exc}); pip install open-spiel to compare")
        return None
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


def load_rlcard() -> Any:
    try:
        from rlcard.games.gin_rummy.utils import (  # type: ignore[import-not-found,import-untyped,unused-ignore]
            melding,
            utils,
        )
    except ImportError as exc:
        print(f"rlcard not available ({exc}); pip install rlcard to compare")
        return None

    def min_deadwood(hand: list[Any]) -> int:
        clusters = melding.get_best_meld_clusters(hand)
        if not clusters:
            return int(sum(utils.get_deadwood_value(card) for card in hand))
        return int(min(utils.get_deadwood_count(hand, cluster) for cluster in clusters))

    return min_deadwood, utils.card_from_text


def openspiel_id(card: Card) -> int:
    """OpenSpiel's gin_rummy card id: suit * 13 + rank - 1 with suits in S C D H order."""
    return "SCDH".index(card.suit) * 13 + card.rank - 1


def distinct_hands(
    rng: random.Random, count: int, draw: Callable[[random.Random], Sequence[Card]]
) -> list[tuple[Card, ...]]:
    seen: set[int] = set()
    hands: list[tuple[Card, ...]] = []
    while len(hands) < count:
        hand = tuple(draw(rng))
        mask = sum(card.mask for card in hand)
        if mask not in seen:
            seen.add(mask)
            hands.append(hand)
    return hands


def uniform(size: int) -> Callable[[random.Random], Sequence[Card]]:
    return lambda rng: rng.sample(ALL_CARDS[:52], size)


def dense(size: int) -> Callable[[random.Random], Sequence[Card]]:
    """Meld-dense: drawn from 5 consecutive ranks in all four suits (20 cards)."""

    def draw(rng: random.Random) -> Sequence[Card]:
        low = rng.randint(1, 9)
        pool = [card for card in ALL_CARDS[:52] if low <= card.rank < low + 5]
        return rng.sample(pool, size)

    return draw


def two_jokers(rng: random.Random) -> Sequence[Card]:
    return [*rng.sample(ALL_CARDS[:52], 8), ALL_CARDS[52], ALL_CARDS[53]]


def timed(function: Callable[[Any], Any], inputs: Sequence[Any]) -> float:
    start = time.perf_counter()
    for item in inputs:
        function(item)
    return len(inputs) / (time.perf_counter() - start)


def measure(
    label: str, runners: dict[str, tuple[Callable[[Any], Any], Sequence[Any]]], rounds: int
) -> dict[str, float]:
    best = dict.fromkeys(runners, 0.0)
    for _ in range(rounds):
        for name, (function, inputs) in runners.items():
            best[name] = max(best[name], timed(function, inputs))
    reference = best.get("openspiel min_deadwood")
    for name, rate in best.items():
        ratio = f"  {rate / reference:5.2f}x OpenSpiel" if reference else ""
        print(f"  {label:<18} {name:<26} {rate:>11,.0f} hands/s{ratio}")
    return best


def report_disagreements(
    name: str, hands: Sequence[tuple[Card, ...]], ours: list[int], theirs: list[int], show_all: bool
) -> None:
    differing = [(hand, a, b) for hand, a, b in zip(hands, ours, theirs, strict=True) if a != b]
    print(f"  {name}: {len(differing)} of {len(hands)} hands disagree with the exact value")
    for hand, exact, other in differing if show_all else differing[:10]:
        print(f"    {format_cards(sorted(hand))}: exact {exact}, {name} {other}")
    if len(differing) > 10 and not show_all:
        print("    (first 10 shown; --all prints every one)")


def exhaustive_discard(hand: tuple[Card, ...]) -> tuple[Card, int]:
    left = {card: deadwood([c for c in hand if c is not card], GIN) for card in hand}
    least = min(left.values())
    best = max((c for c in hand if left[c] == least), key=lambda c: (c.rank, "CDHS".index(c.suit)))
    return best, least


def check_discards(hands: Sequence[tuple[Card, ...]]) -> None:
    wrong = 0
    for hand in hands:
        card, rest = best_discard(hand, GIN)
        if (card, rest.deadwood) != exhaustive_discard(hand):
            wrong += 1
            if wrong <= 10:
                print(f"    {format_cards(sorted(hand))}: {card} leaving {rest.deadwood}")
    print(f"  best_discard: {wrong} of {len(hands)} hands differ from the exhaustive answer")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=100_000, help="hands per set (default 100000)")
    parser.add_argument("--rlcard-hands", type=int, default=10_000, help="hands given to rlcard (slow)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--all", action="store_true", help="print every disagreement")
    parser.add_argument("--check", action="store_true", help="check best_discard exhaustively")
    args = parser.parse_args()

    openspiel = load_openspiel()
    rlcard = load_rlcard()
    rng = random.Random(args.seed)
    version = sys.version.split()[0]
    print(f"Python {version}; {args.hands:,} distinct hands per set; best of {args.rounds} rounds")

    for label, draw, size in (
        ("uniform 10", uniform(10), 10),
        ("meld-dense 10", dense(10), 10),
        ("uniform 11", uniform(11), 11),
        ("meld-dense 11", dense(11), 11),
    ):
        hands = distinct_hands(rng, args.hands, draw)
        print(f"\n{label}-card hands")
        runners: dict[str, tuple[Callable[[Any], Any], Sequence[Any]]] = {}
        if size == 10:
            runners["ours best_arrangement"] = (lambda hand: best_arrangement(hand, GIN), hands)
        else:
            runners["ours best_discard"] = (lambda hand: best_discard(hand, GIN), hands)
        # For 11 cards this is the deadwood of all 11 (no discard), shown for scale only.
        runners["ours deadwood" if size == 10 else "ours deadwood, no discard"] = (
            lambda hand: deadwood(hand, GIN),
            hands,
        )
        os_hands = [[openspiel_id(card) for card in hand] for hand in hands] if openspiel else []
        if openspiel:
            runners["openspiel min_deadwood"] = (openspiel.min_deadwood, os_hands)
        rl_hands: list[list[Any]] = []
        if rlcard and size == 10:
            rl_min_deadwood, rl_card = rlcard
            rl_hands = [[rl_card(str(card)) for card in hand] for hand in hands[: args.rlcard_hands]]
            runners["rlcard melding"] = (rl_min_deadwood, rl_hands)
        measure(label, runners, args.rounds)

        if size == 10:
            exact = [best_arrangement(hand, GIN).deadwood for hand in hands]
        else:
            exact = [best_discard(hand, GIN)[1].deadwood for hand in hands]
            if args.check:
                check_discards(hands)
        if openspiel:
            report_disagreements(
                "OpenSpiel", hands, exact, [openspiel.min_deadwood(h) for h in os_hands], args.all
            )
        if rl_hands:
            rl_values = [rlcard[0](hand) for hand in rl_hands]
            report_disagreements(
                "rlcard", hands[: len(rl_hands)], exact[: len(rl_hands)], rl_values, args.all
            )

    joker_count = max(1, args.hands // 5)
    hands = distinct_hands(rng, joker_count, two_jokers)
    print(f"\n10-card hands with both jokers (knock-rami), {joker_count:,} hands")
    measure(
        "two jokers",
        {
            "ours best_arrangement": (lambda hand: best_arrangement(hand, RAMI), hands),
            "ours deadwood": (lambda hand: deadwood(hand, RAMI), hands),
        },
        args.rounds,
    )
    start = time.perf_counter()
    for hand in hands[: joker_count // 10]:
        best_discard(hand, RAMI)
    rate = (joker_count // 10) / (time.perf_counter() - start)
    print(f"  {'two jokers':<18} {'ours best_discard':<26} {rate:>11,.0f} hands/s")


if __name__ == "__main__":
    main()
