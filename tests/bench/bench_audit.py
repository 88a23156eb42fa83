"""Benchmark: what auditing a log costs next to replaying it (not run by CI).

    .venv/bin/python tests/bench/bench_audit.py [--games 40] [--rounds 3]

An imported log (``POST /games/import``, a tournament archive) is audited: every move
read back as its command and decided again, every hand scored again
(``engine.audit_log``), where a plain ``replay`` only folds it. Games of every preset,
played by the greedy bot half the time and at random otherwise, are stored as JSON;
the bench reports µs per event for reading them (``event_from_dict``), replaying them
and auditing them, the best of ``--rounds`` interleaved rounds, and the ratio of the
audit to the replay measured in the same run.
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
    audit_log,
    decide,
    event_from_dict,
    event_to_dict,
    get_ruleset,
    legal_commands,
    replay,
    shuffled_deck,
    view,
)
from engine.bots import get_bot

PRESETS = [
    ("knock-rummy", {"game_end": "target_score", "hands": None, "target_score": 100}),
    ("knock-rummy-hoyle", {}),
    ("knock-rami", {}),
    ("gin", {}),
]


def game(preset: str, options: dict[str, Any], players: int, seed: int) -> list[Event]:
    rng = random.Random(seed)
    ruleset = get_ruleset(preset, **options)
    greedy = get_bot("greedy")
    log = decide(None, StartGame(ruleset, tuple(f"P{i}" for i in range(players))))
    state = replay(log)
    while state.status != "finished":
        if state.needs_deal:
            command: Any = DealHand(deck=shuffled_deck(ruleset, rng.random()))
        elif rng.random() < 0.5:
            command = greedy(view(state, state.to_move), rng)
        else:
            command = rng.choice(legal_commands(state))
        for event in decide(state, command):
            state = apply(state, event)
            log.append(event)
    return log


def best(rounds: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(rounds):
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    logs = [
        game(preset, options, 2 + n % 3, n)
        for n in range(args.games)
        for preset, options in [PRESETS[n % len(PRESETS)]]
    ]
    stored = [[event_to_dict(e) for e in log] for log in logs]
    events = sum(len(log) for log in logs)
    parsed = [[event_from_dict(e) for e in log] for log in stored]
    read = best(args.rounds, lambda: [[event_from_dict(e) for e in log] for log in stored])
    replayed = best(args.rounds, lambda: [replay(log) for log in parsed])
    audited = best(args.rounds, lambda: [audit_log(log) for log in parsed])
    per = 1e6 / events
    print(f"{len(logs)} games, {events} events (best of {args.rounds} rounds, CPU time)")
    print(f"read   {read * per:7.1f} µs/event")
    print(f"replay {replayed * per:7.1f} µs/event")
    print(f"audit  {audited * per:7.1f} µs/event   audit / replay = {audited / replayed:.2f}")


if __name__ == "__main__":
    main()
