"""Benchmark: rebuilding a club's ratings from zero, and one incremental refresh.

Not run in CI. Usage (see tests/bench/README.md), against a migrated database:

    DATABASE_URL=postgres://… .venv/bin/python tests/bench/bench_ratings.py [--games 500] [--hands 5]

Records ``--games`` physical knock-rummy games of 4 (from a field of 32 club players,
``--hands`` hands each, entered as announced deadwood) under a fresh club, then times
``league.ratings.rebuild`` (best of ``--repeat``), an incremental refresh after one more
game, and, in the same run, openskill alone rating the same sequence (the library's
share of the rebuild: the rest is reading and replaying the logs and writing the rows).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from games import outbox  # noqa: E402
from games.models import Game  # noqa: E402
from league import ratings  # noqa: E402
from league.models import Club, Player, RatingEntry  # noqa: E402
from tests.support.rated import open_club_game, record_hand  # noqa: E402


def record_game(club: Club, names: list[str], hands: int, rng: random.Random) -> Game:
    game = open_club_game(club, names, hands=hands)
    for _ in range(hands):
        deadwood = [rng.randint(0, 40) for _ in names]
        knocker = deadwood.index(min(deadwood))
        record_hand(game, deadwood, knocker)
    return Game.objects.get(pk=game.pk)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    # The refreshes are timed here: the outbox's own (eager without a broker) would run
    # one after every recorded game.
    outbox._subscriptions[:] = [s for s in outbox._subscriptions if s[0] != "league.tasks.refresh_ratings"]
    rng = random.Random(18)
    slug = f"bench-ratings-{int(time.time())}"
    club = Club.objects.create(name=slug, slug=slug)
    names = [f"P{i:02d}" for i in range(args.players)]
    for name in names:
        Player.objects.create(club=club, name=name)
    started = time.perf_counter()
    for _ in range(args.games):
        record_game(club, rng.sample(names, 4), args.hands, rng)
    print(f"recorded {args.games} games in {time.perf_counter() - started:.1f} s")

    rebuilds = []
    for _ in range(args.repeat):
        t = time.perf_counter()
        counts = ratings.rebuild(club)
        rebuilds.append(time.perf_counter() - t)
    shown = ", ".join(f"{family}: {n}" for (_, family), n in counts.items())
    print(f"rebuild from zero: {min(rebuilds) * 1000:.0f} ms (best of {args.repeat}); games rated {shown}")

    t = time.perf_counter()
    games = ratings.rated_games(club.pk, "knock")
    read = time.perf_counter() - t
    t = time.perf_counter()
    ratings.rate(games, {})
    library = time.perf_counter() - t
    print(f"  of which reading and replaying the logs: {read * 1000:.0f} ms")
    print(f"  openskill alone rating the same {len(games)} games: {library * 1000:.0f} ms")

    extra = record_game(club, rng.sample(names, 4), args.hands, rng)
    t = time.perf_counter()
    done = ratings.refresh_game(extra.pk)
    print(f"incremental refresh after one more game ({done}): {(time.perf_counter() - t) * 1000:.1f} ms")
    print(f"entries: {RatingEntry.objects.filter(club=club).count()}")


if __name__ == "__main__":
    main()
