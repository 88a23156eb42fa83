"""Benchmark: one two-player Swiss round of a large field with a realistic history.

Not run in CI. Usage (see tests/bench/README.md):

    .venv/bin/python tests/bench/bench_seating_swiss.py [--players 256] [--rounds 7] [--repeat 5]

Plays ``--rounds`` Swiss rounds first (each seated by the method itself, results by a
seeded coin weighted by a hidden strength, so score groups form as in a real event),
then times seating the next round, best of ``--repeat`` (the machine is shared), and
reports the rematches (must be 0 unless none can be avoided) and floaters.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from league.seating import Entrant, PastRound, PastTable, Request, Seating, make_seating
from league.seating.base import meetings


def request_after(
    players: tuple[Entrant, ...], history: tuple[PastRound, ...], points: dict[int, Fraction]
) -> Request:
    standings = tuple(sorted(points, key=lambda p: (-points[p], p))) if history else ()
    return Request(players, 2, 2, len(history) + 1, "bench", history, standings, dict(points))


def play(seating: Seating, number: int, strength: dict[int, float], rng: random.Random) -> PastRound:
    tables = []
    for table in seating.tables:
        a, b = table.seats
        win = a if rng.random() < strength[a] / (strength[a] + strength[b]) else b
        tables.append(PastTable(table.seats, 0, ((win,), (b if win == a else a,))))
    return PastRound(number, tuple(tables), seating.byes)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(17)
    players = tuple(Entrant(n, f"P{n}") for n in range(1, args.players + 1))
    strength = {p.id: rng.uniform(0.5, 2.0) for p in players}
    points = {p.id: Fraction(0) for p in players}
    history: tuple[PastRound, ...] = ()
    for number in range(1, args.rounds + 1):
        seating = make_seating("swiss", request_after(players, history, points))
        past = play(seating, number, strength, rng)
        history += (past,)
        for table in past.tables:
            assert table.ranking is not None
            points[table.ranking[0][0]] += 1
        for player in past.byes:
            points[player] += 1
    request = request_after(players, history, points)
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        seating = make_seating("swiss", request)
        best = min(best, time.perf_counter() - start)
    met = meetings(history)
    repeats = sum(1 for t in seating.tables if met[(min(t.seats), max(t.seats))])
    floaters = sum(1 for t in seating.tables if points[t.seats[0]] != points[t.seats[1]])
    groups = len(set(points.values()))
    print(
        f"swiss round {args.rounds + 1}: {args.players} players, {groups} score groups: "
        f"{best * 1000:.1f} ms (best of {args.repeat}), {repeats} rematches, {floaters} tables across groups"
    )


if __name__ == "__main__":
    main()
