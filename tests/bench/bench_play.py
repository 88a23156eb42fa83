"""Benchmark: random play and replay speed (not run by CI).

    .venv/bin/python tests/bench/bench_play.py [--seconds 5]

1. Random-play gin: one deal played to its end with uniformly random legal commands
   (``legal_commands`` -> ``random.choice`` -> ``decide`` -> ``apply``), against
   OpenSpiel's ``gin_rummy`` (one episode is one deal) driven the same way from Python,
   chance nodes sampled with the same ``random.Random``. Figures are per CPU second of
   this process (``time.process_time``), so other load on the machine matters less.
2. Full gin games to 100 (half the choices greedy: pure random play almost never knocks).
3. Replay: events/s of ``replay(log)`` over recorded games of every preset.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import (
    DealHand,
    Event,
    StartGame,
    apply,
    decide,
    get_ruleset,
    legal_commands,
    replay,
    shuffled_deck,
    view,
)
from engine.bots import get_bot

GIN = get_ruleset("gin")
GREEDY = get_bot("greedy")


def timed(seconds: float, step: Callable[[], int], rounds: int = 5) -> tuple[float, float]:
    """Call ``step`` (which returns a count of things done) for ``seconds`` of CPU time,
    split in ``rounds``; the (best, mean) rate per CPU second over the rounds. The best
    round is the figure least disturbed by other load on the machine (as ``timeit``)."""
    rates = []
    for _ in range(rounds):
        start = time.process_time()
        count = 0
        while (elapsed := time.process_time() - start) < seconds / rounds:
            count += step()
        rates.append(count / elapsed)
    return max(rates), sum(rates) / len(rates)


def engine_gin_hand(rng: random.Random) -> int:
    state = replay(decide(None, StartGame(GIN, ("A", "B"))))
    for event in decide(state, DealHand(deck=shuffled_deck(GIN, rng.random()))):
        state = apply(state, event)
    while state.status == "playing":
        for event in decide(state, rng.choice(legal_commands(state))):
            state = apply(state, event)
    return 1


def openspiel_gin_hand(game: Any, rng: random.Random) -> int:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return 1


def play_game(ruleset: Any, players: int, rng: random.Random, greedy_share: float) -> list[Event]:
    log = decide(None, StartGame(ruleset, tuple(f"P{i}" for i in range(players))))
    state = replay(log)
    while state.status != "finished":
        if state.needs_deal:
            command: Any = DealHand(deck=shuffled_deck(ruleset, rng.random()))
        elif rng.random() < greedy_share:
            command = GREEDY(view(state, state.to_move), rng)
        else:
            command = rng.choice(legal_commands(state))
        for event in decide(state, command):
            state = apply(state, event)
            log.append(event)
    return log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per measurement")
    args = parser.parse_args()
    rng = random.Random(2024)

    ours, mean = timed(args.seconds, lambda: engine_gin_hand(rng))
    print(f"engine    random-play gin deals: {ours:8.1f} /s (mean of rounds {mean:.1f})")
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        print("openspiel not installed (pip install open-spiel): no comparison")
    else:
        game = pyspiel.load_game("gin_rummy")
        theirs, mean = timed(args.seconds, lambda: openspiel_gin_hand(game, rng))
        print(f"openspiel random-play gin deals: {theirs:8.1f} /s (mean of rounds {mean:.1f})")
        print(f"ratio engine / openspiel: {ours / theirs:.2f}x")

    games, mean = timed(args.seconds, lambda: len([play_game(GIN, 2, rng, 0.5)]))
    print(f"engine    gin games to 100 (half greedy): {games:8.1f} /s (mean of rounds {mean:.1f})")

    logs: list[list[Event]] = []
    for preset, players, share in [
        ("knock-rummy", 4, 0.0),
        ("hoyle", 3, 0.0),
        ("hoyle", 2, 1.0),
        ("rami", 4, 0.0),
        ("rami", 3, 1.0),
        ("gin", 2, 0.5),
        ("gin", 3, 1.0),
    ]:
        for _ in range(40):
            logs.append(play_game(get_ruleset(preset), players, rng, share))
    total = sum(len(log) for log in logs)
    best, mean = timed(args.seconds, lambda: sum(len(log) for log in logs if replay(log)))
    print(
        f"replay: {best:,.0f} events/s (mean of rounds {mean:,.0f}; {len(logs)} games, {total} events, "
        "every preset)"
    )


if __name__ == "__main__":
    main()
