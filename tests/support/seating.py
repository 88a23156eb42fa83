"""Helpers of the seating tests: players, random earlier rounds, playing a method for
several rounds (each round's seating becomes the next one's history), and the least
repeat cost of a round found by trying every split into tables."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from league.seating import ALGORITHM, Entrant, PastRound, PastTable, PlayerId, Request, Seating, make_seating
from league.seating.base import repeat_cost, table_sizes


def entrants(count: int) -> tuple[Entrant, ...]:
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu"]
    return tuple(
        Entrant(i, names[i - 1] if i <= len(names) else f"P{i}", seed=i) for i in range(1, count + 1)
    )


def random_history(count: int, low: int, high: int, rounds: int, seed: int) -> tuple[PastRound, ...]:
    """``rounds`` earlier rounds of players 1..count at random tables of ``low``-``high``."""
    draw = random.Random(seed)
    sizes, byes = table_sizes(count, low, high)
    history = []
    for number in range(1, rounds + 1):
        ids = list(range(1, count + 1))
        draw.shuffle(ids)
        tables, start = [], byes
        for size in sizes:
            tables.append(PastTable(tuple(ids[start : start + size]), first_dealer=draw.randrange(size)))
            start += size
        history.append(PastRound(number, tuple(tables), tuple(ids[:byes])))
    return tuple(history)


def past(seating: Seating, number: int) -> PastRound:
    return PastRound(number, tuple(PastTable(t.seats) for t in seating.tables), seating.byes)


def play(
    method: str,
    count: int,
    low: int,
    high: int,
    rounds: int,
    seed: str,
    params: Mapping[str, Any] | None = None,
    algorithm: int = ALGORITHM,
) -> list[Seating]:
    """``rounds`` rounds of ``method``, each seated with the rounds before as history;
    a schedule a round returns is given back to the next (as the league does)."""
    played: list[Seating] = []
    for number in range(1, rounds + 1):
        request = Request(
            entrants(count),
            low,
            high,
            number,
            seed,
            history=tuple(past(s, n) for n, s in enumerate(played, 1)),
            total_rounds=rounds,
            params=params or {},
            algorithm=algorithm,
            schedule=next((s.schedule for s in reversed(played) if s.schedule is not None), None),
        )
        played.append(make_seating(method, request))
    return played


def splits(players: Sequence[PlayerId], sizes: Sequence[int]) -> Iterator[list[list[PlayerId]]]:
    """Every split of ``players`` into tables of ``sizes`` (in that order)."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in itertools.combinations(rest, sizes[0] - 1):
        remaining = [p for p in rest if p not in others]
        for split in splits(remaining, sizes[1:]):
            yield [[first, *others], *split]


def least_repeat_cost(
    players: Sequence[PlayerId], sizes: Sequence[int], met: Mapping[tuple[PlayerId, PlayerId], int]
) -> int:
    """The exhaustive optimum: the least repeat cost of any split of ``players``."""
    return min(
        repeat_cost(split, met)
        for order in set(itertools.permutations(sizes))
        for split in splits(list(players), order)
    )
