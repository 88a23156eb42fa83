"""Benchmark: one round of balanced seating against random restarts given the same time.

Not run in CI. Usage (see tests/bench/README.md):

    .venv/bin/python tests/bench/bench_seating_balanced.py [--players 64] [--size 4] [--history 7] [--seeds 5]

For each seed, ``--history`` earlier rounds are made two ways: tables drawn at random,
and tables seated by ``balanced`` itself round after round (the harder case: those
rounds already avoided repeats, so fewer fresh pairs are left). Then one more round is
seated by ``balanced`` and timed (the best of three runs, the machine being shared), and
the baseline draws random splits into the same tables for that same time and keeps the
one with the least repeat cost. Printed per case: the time, the repeat cost of each, the
floor (the history's cost plus one for each pair seated now: no repeat at all) and how
many pairs meet again.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from league.seating import Entrant, PastRound, PastTable, Request, make_seating
from league.seating.base import meetings, repeat_cost, table_sizes
from league.seating.v1.balanced import pairs

LIMIT = 0.5  # seconds a round may take
WIDTHS = (9, 7, 7, 7, 6, 6)


def repeats(tables: Sequence[Sequence[int]], met: Mapping[tuple[int, int], int]) -> int:
    """How many pairs seated together have met before."""
    return sum(1 for t in tables for pair in pairs(t) if met.get(pair, 0))


def random_rounds(players: int, size: int, rounds: int, draw: random.Random) -> tuple[PastRound, ...]:
    history = []
    for number in range(1, rounds + 1):
        ids = list(range(1, players + 1))
        draw.shuffle(ids)
        history.append(
            PastRound(number, tuple(PastTable(tuple(ids[i : i + size])) for i in range(0, players, size)))
        )
    return tuple(history)


def balanced_rounds(
    entrants: tuple[Entrant, ...], size: int, rounds: int, seed: str
) -> tuple[PastRound, ...]:
    history: list[PastRound] = []
    for number in range(1, rounds + 1):
        seating = make_seating("balanced", Request(entrants, size, size, number, seed, tuple(history)))
        history.append(PastRound(number, tuple(PastTable(t.seats) for t in seating.tables), seating.byes))
    return tuple(history)


def baseline(request: Request, seconds: float, draw: random.Random) -> tuple[list[list[int]], int]:
    """The split of least repeat cost among random ones drawn for ``seconds``, and how
    many were drawn."""
    met = meetings(request.history)
    sizes, byes = table_sizes(len(request.players), request.table_min, request.table_max)
    ids = [p.id for p in request.players]
    best, best_split, tries = None, [], 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or best is None:
        draw.shuffle(ids)
        split, start = [], byes
        for size in sizes:
            split.append(ids[start : start + size])
            start += size
        cost = repeat_cost(split, met)
        if best is None or cost < best:
            best, best_split = cost, split
        tries += 1
    return best_split, tries


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--history", type=int, default=7)
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    entrants = tuple(Entrant(i, f"P{i}") for i in range(1, args.players + 1))
    print(
        f"{args.players} players at tables of {args.size}, {args.history} rounds of history; "
        f"Python {sys.version.split()[0]}"
    )
    print(
        f"{'history':9} {'seed':>4} {'ms':>6} {'balanced':>9} {'repeats':>7} {'random':>7} {'repeats':>7} "
        f"{'draws':>6} {'floor':>6}"
    )
    slowest = 0.0
    for kind in ("random", "balanced"):
        gaps = []
        for n in range(args.seeds):
            seed = f"bench{n}"
            if kind == "random":
                history = random_rounds(args.players, args.size, args.history, random.Random(seed))
            else:
                history = balanced_rounds(entrants, args.size, args.history, seed)
            request = Request(entrants, args.size, args.size, args.history + 1, seed, history)
            times = []
            for _ in range(3):
                start = time.perf_counter()
                seating = make_seating("balanced", request)
                times.append(time.perf_counter() - start)
            took = min(times)
            slowest = max(slowest, max(times))
            met = meetings(history)
            tables = [t.seats for t in seating.tables]
            cost = repeat_cost(tables, met)
            floor = repeat_cost([], met) + sum(len(pairs(t)) for t in tables)
            split, draws = baseline(request, took, random.Random(seed))
            best = repeat_cost(split, met)
            gaps.append(best - cost)
            row = [took * 1000, cost, repeats(tables, met), best, repeats(split, met), draws, floor]
            print(
                f"{kind:9} {n:>4} {row[0]:>6.1f} "
                + " ".join(f"{v:>{w}}" for v, w in zip(row[1:], WIDTHS, strict=True))
            )
        print(f"{kind} history: random restarts cost {statistics.mean(gaps):.1f} more on average")
    print(
        f"slowest run {slowest * 1000:.0f} ms (limit {LIMIT * 1000:.0f} ms): "
        + ("ok" if slowest < LIMIT else "TOO SLOW")
    )


if __name__ == "__main__":
    main()
