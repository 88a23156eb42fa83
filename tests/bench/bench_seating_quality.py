"""Benchmark: how near multi-player seating comes to the best possible, and its speed.

Not run in CI. Usage (see tests/bench/README.md):

    .venv/bin/python tests/bench/bench_seating_quality.py [--seeds 3] [--methods balanced,round_robin]
    .venv/bin/python tests/bench/bench_seating_quality.py --speed-only

Quality: every field of issue 29's table, each seed played round by round as a
tournament does (each round's seating becomes the next one's history; a round robin's
schedule is handed back like the league does). Printed per field and method: the
repeat meetings of the event (the sum over pairs of max(0, meetings - 1)) on each
seed, against the optimum (0 where a perfect schedule exists) or the counting lower
bound, and against a random baseline given the same time: for each round, random splits
into the same tables drawn for as long as the method took on that round, the one with
the fewest new repeats kept. ``--v1`` adds algorithm 1 (round by round, before
look-ahead) for comparison.

Speed: one event of 7 rounds at tables of 4 for 16, 64, 128 and 256 players (and 60,
250: no design fits), the slowest and the mean round, warm (the process keeps the
event's plan between rounds, as a server does) and cold (the plan made again every
round, as ``regenerate_round`` in a fresh process does).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from league.seating import Entrant, PastRound, PastTable, Request, make_seating
from league.seating.base import table_sizes
from league.seating.lookahead import _event_plan, repeat_bound, repeats

# (players, smallest table, largest table, rounds, optimum or None when only a bound)
FIELDS = [
    (15, 3, 3, 7, 0),
    (16, 4, 4, 5, 0),
    (20, 4, 4, 5, 0),
    (24, 4, 4, 7, 0),
    (25, 5, 5, 6, 0),
    (32, 4, 4, 8, 0),
    (13, 3, 4, 6, None),
    (22, 4, 5, 7, None),
    (12, 4, 4, 5, None),
]
SPEED_FIELDS = (16, 60, 64, 128, 250, 256)


def play(
    method: str, count: int, low: int, high: int, rounds: int, seed: str, algorithm: int, cold: bool = False
) -> tuple[list[PastRound], list[float]]:
    players = tuple(Entrant(n, f"P{n}") for n in range(1, count + 1))
    history: list[PastRound] = []
    took: list[float] = []
    schedule = None
    for number in range(1, rounds + 1):
        request = Request(
            players,
            low,
            high,
            number,
            seed,
            tuple(history),
            total_rounds=rounds,
            algorithm=algorithm,
            schedule=schedule,
        )
        if cold:
            _event_plan.cache_clear()
        start = time.perf_counter()
        seating = make_seating(method, request)
        took.append(time.perf_counter() - start)
        schedule = seating.schedule or schedule
        history.append(PastRound(number, tuple(PastTable(t.seats) for t in seating.tables), seating.byes))
    return history, took


def random_baseline(count: int, low: int, high: int, took: list[float], draw: random.Random) -> int:
    """Repeats of an event whose every round is the best of random splits drawn for the
    time the method took on that round."""
    sizes, byes = table_sizes(count, low, high)
    met: Counter[tuple[int, int]] = Counter()
    ids = list(range(1, count + 1))
    for seconds in took:
        best: list[list[int]] | None = None
        best_new = 0
        deadline = time.perf_counter() + seconds
        while best is None or time.perf_counter() < deadline:
            draw.shuffle(ids)
            split, start = [], byes
            for size in sizes:
                split.append(sorted(ids[start : start + size]))
                start += size
            new = sum(1 for t in split for i, a in enumerate(t) for b in t[i + 1 :] if met[(a, b)])
            if best is None or new < best_new:
                best, best_new = split, new
        for table in best:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    met[(a, b)] += 1
    return sum(m - 1 for m in met.values())


def quality(seeds: int, methods: list[str], with_v1: bool) -> None:
    print(
        f"{'field':24} {'method':14} {'target':>8} {'repeats by seed':>20} "
        f"{'random, same time':>18} {'ms/round':>9}"
    )
    runs = [(m, 2) for m in methods] + ([("balanced", 1), ("round_robin", 1)] if with_v1 else [])
    for count, low, high, rounds, optimum in FIELDS:
        sizes, byes = table_sizes(count, low, high)
        bound = repeat_bound(count, sizes, byes, rounds)
        target = f"{optimum} opt" if optimum is not None else f"{bound} bnd"
        label = f"{count} at {low}-{high} x {rounds}" if low != high else f"{count} at {low} x {rounds}"
        for method, algorithm in runs:
            found, baseline, times = [], [], []
            for n in range(seeds):
                history, took = play(method, count, low, high, rounds, f"q{n}", algorithm)
                found.append(repeats([t.seats for past in history for t in past.tables]))
                baseline.append(random_baseline(count, low, high, took, random.Random(n)))
                times.extend(took)
            name = method if algorithm == 2 else f"{method} (v1)"
            print(
                f"{label:24} {name:14} {target:>8} {' '.join(map(str, found)):>20} "
                f"{' '.join(map(str, baseline)):>18} {statistics.mean(times) * 1000:>9.1f}"
            )


def speed() -> None:
    print(
        f"\n{'players':>8} {'warm: slowest':>14} {'mean':>7} {'cold: slowest':>14} {'mean':>7} {'repeats':>8}"
    )
    for count in SPEED_FIELDS:
        row = []
        for cold in (False, True):
            _event_plan.cache_clear()
            history, took = play("balanced", count, 4, 4, 7, "speed", 2, cold=cold)
            row += [max(took) * 1000, statistics.mean(took) * 1000]
        found = repeats([t.seats for past in history for t in past.tables])
        print(f"{count:>8} {row[0]:>12.0f}ms {row[1]:>5.0f}ms {row[2]:>12.0f}ms {row[3]:>5.0f}ms {found:>8}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--methods", default="balanced,round_robin")
    parser.add_argument("--v1", action="store_true", help="also algorithm 1 (before look-ahead)")
    parser.add_argument("--speed-only", action="store_true")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}")
    if not args.speed_only:
        quality(args.seeds, args.methods.split(","), args.v1)
    speed()


if __name__ == "__main__":
    main()
