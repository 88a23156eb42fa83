"""Benchmark: score_showdown on gin knocks under the two knocker-arrangement rules.

Not run in CI. Usage (see tests/bench/README.md):

    .venv/bin/python tests/bench/bench_knock.py [--knocks 2000] [--rounds 9] [--jokers]

Seeded 2-player gin knocks: the knocker's 10 cards from 6 random ranks (meld-dense, so
most hands can knock: deadwood 1 to 10), the defender's 10 from the rest of the deck.
Each round scores every knock under ``first_best`` (the plain tie-break, GameStarted
v1) and then ``fewest_layoffs`` (v2); the ratio is taken per round, so both sides of
a ratio ran under the same load, and the median ratio is reported with the best times
(process CPU time).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.arrangement import deadwood, tied_arrangements
from engine.cards import ALL_CARDS, Card
from engine.rules import FEWEST_LAYOFFS, FIRST_BEST, RuleSet, get_ruleset
from engine.scoring import score_showdown

Deal = dict[int, tuple[Card, ...]]


def knocks(ruleset: RuleSet, count: int, seed: int) -> list[Deal]:
    rng = random.Random(seed)
    deck = ALL_CARDS[: ruleset.deck_size]
    deals: list[Deal] = []
    while len(deals) < count:
        ranks = rng.sample(range(13), 6)
        pool = [ALL_CARDS[suit * 13 + rank] for suit in range(4) for rank in ranks] + list(deck[52:])
        knocker = rng.sample(pool, 10)
        if not 0 < deadwood(knocker, ruleset) <= 10:
            continue
        rest = [card for card in deck if card not in knocker]
        deals.append({0: tuple(rng.sample(rest, 10)), 1: tuple(knocker)})
    return deals


def score_all(ruleset: RuleSet, deals: list[Deal], rule: str) -> float:
    start = time.process_time()  # CPU time: the machine is shared, waiting is not the code's
    for hands in deals:
        score_showdown(ruleset, hands, 1, knock_arrangement=rule)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--knocks", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jokers", action="store_true", help="gin with 2 jokers")
    args = parser.parse_args()
    ruleset = get_ruleset("gin", jokers=2) if args.jokers else get_ruleset("gin")
    deals = knocks(ruleset, args.knocks, args.seed)
    tied = sum(len(tied_arrangements(hands[1], ruleset)) > 1 for hands in deals)
    changed = sum(
        score_showdown(ruleset, hands, 1) != score_showdown(ruleset, hands, 1, knock_arrangement=FIRST_BEST)
        for hands in deals
    )
    old: list[float] = []
    new: list[float] = []
    for _ in range(args.rounds):
        old.append(score_all(ruleset, deals, FIRST_BEST))
        new.append(score_all(ruleset, deals, FEWEST_LAYOFFS))
    ratios = [b / a for a, b in zip(old, new, strict=True)]
    n = len(deals)
    print(f"{n} knocks ({ruleset.jokers} jokers): {tied} with tied best arrangements, ", end="")
    print(f"{changed} scored differently")
    print(f"first_best      best {min(old) * 1e3:7.1f} ms  {min(old) / n * 1e6:6.1f} us/knock")
    print(f"fewest_layoffs  best {min(new) * 1e3:7.1f} ms  {min(new) / n * 1e6:6.1f} us/knock")
    shown = " ".join(f"{r:.3f}" for r in ratios)
    print(f"ratio per round {shown}  median {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
