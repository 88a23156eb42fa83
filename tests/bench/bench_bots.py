"""Benchmark: how strong the bots are, in duplicate deals, and how fast they decide.

Not run in CI. Usage (see tests/bench/README.md):

    nice -n 10 .venv/bin/python tests/bench/bench_bots.py [--deals 200] [--games 40] [--gin-deals 400]
        [--levels greedy,steady,expert] [--only knock-rummy-2,...]

Every deal is played twice with the same deck, the seats swapped (duplicate deals), the
engine as referee (``decide``/``apply``, each bot fed its seat's ``view``). Per preset:

- ``knock-rummy`` (2 and 4 players), ``knock-rummy-hoyle`` (4), ``gin-rummy`` (2): each
  level against ``greedy`` and against the level below it, one hand per deal; the figure is the
  level's points per hand less the other bot's (per seat), with its 95% confidence
  interval over deals;
- ``knock-rami`` (4): whole games (two seats each, alternating), the figure is the other
  bot's mean place less the level's (positive: the level places better);
- ``gin-rummy``: each level against OpenSpiel's ``simple_gin_rummy_bot`` when
  ``open-spiel`` is installed (``pip install -e '.[bench]'``; skipped with a message
  otherwise): OpenSpiel's bot is fed a mirror of the engine's game.

Decision time: p50 and p99 of every decision of the level, across all matches, in wall
time and in the thread's CPU time (on a shared machine the wall time includes waiting
for a core).
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import DealHand, StartGame, apply, decide, get_ruleset, shuffled_deck, view
from engine.bots import get_bot
from engine.cards import ALL_CARDS, Card
from engine.commands import (
    Command,
    DeclineDraw,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    Knock,
    PassUpcard,
)
from engine.events import CardDrawn, HandScored
from engine.rules import RuleSet
from engine.state import GameState
from engine.visibility import View

Player = Callable[[View, random.Random], Command]
TIMES: dict[str, list[float]] = {}  # wall seconds per decision
CPU: dict[str, list[float]] = {}  # the thread's CPU seconds per decision (the machine is shared)


def timed(name: str, bot: Player) -> Player:
    times = TIMES.setdefault(name, [])
    cpu = CPU.setdefault(name, [])

    def play(v: View, rng: random.Random) -> Command:
        start, start_cpu = time.perf_counter(), time.thread_time()
        command = bot(v, rng)
        cpu.append(time.thread_time() - start_cpu)
        times.append(time.perf_counter() - start)
        return command

    return play


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    p50 = ordered[len(ordered) // 2] * 1000
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
    return f"p50 {p50:.2f} ms, p99 {p99:.2f} ms"


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% confidence interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, mean - half, mean + half


def start(rs: RuleSet, players: int, dealer: int) -> GameState:
    state: GameState | None = None
    for event in decide(None, StartGame(rs, tuple(f"P{i}" for i in range(players)), "digital", dealer)):
        state = apply(state, event)
    assert state is not None
    return state


def play_hand(
    rs: RuleSet, deck: tuple[Card, ...], bots: list[Player], rng: random.Random, mirror: Any = None
) -> dict[int, float]:
    """One hand from ``deck`` (the dealer seat 0's right: seat 1 acts first); points per seat."""
    state = start(rs, len(bots), 0)
    events = decide(state, DealHand(deck=deck))
    for event in events:
        state = apply(state, event)
    if mirror is not None:
        mirror.deal(state)
    for _ in range(400):
        seat = state.to_move
        if state.status != "playing" or seat is None:
            break
        if mirror is not None and mirror.seat == seat:
            command = mirror.step(view(state, seat))
        else:
            command = bots[seat](view(state, seat), rng)
        events = decide(state, command)
        for event in events:
            state = apply(state, event)
            if isinstance(event, HandScored):
                return {s: float(event.points.get(s, 0)) for s in range(len(bots))}
        if mirror is not None:
            mirror.follow(command, events)
    return dict.fromkeys(range(len(bots)), 0.0)  # a void hand (gin's stock ran out)


def hand_match(
    preset: str, players: int, level: str, deals: int, seed: int, against: str = "greedy"
) -> tuple[float, float, float]:
    rs = get_ruleset(preset)
    rng = random.Random(seed)
    ours = timed(level, get_bot(level))
    greedy = get_bot(against)
    diffs = []
    for deal in range(deals):
        deck = shuffled_deck(rs, f"{seed}:{deal}")
        total = 0.0
        for layout in (0, 1):
            bots = [ours if (s + layout) % 2 == 0 else greedy for s in range(players)]
            points = play_hand(rs, deck, bots, rng)
            mine = [points[s] for s in range(players) if bots[s] is ours]
            theirs = [points[s] for s in range(players) if bots[s] is not ours]
            total += statistics.fmean(mine) - statistics.fmean(theirs)
        diffs.append(total / 2)
    return interval(diffs)


def rami_match(level: str, games: int, seed: int, against: str = "greedy") -> tuple[float, float, float]:
    """Whole knock-rami games of 4: the other bot's mean place less the level's, per game pair."""
    rs = get_ruleset("knock-rami")
    ours = timed(level, get_bot(level))
    greedy = get_bot(against)
    diffs = []
    for game in range(games):
        total = 0.0
        for layout in (0, 1):
            rng = random.Random(f"{seed}:{game}:{layout}")
            bots = [ours if (s + layout) % 2 == 0 else greedy for s in range(4)]
            state = start(rs, 4, 0)
            hand = 0
            for _ in range(20000):
                if state.status == "finished":
                    break
                if state.needs_deal:
                    hand += 1
                    command: Command = DealHand(deck=shuffled_deck(rs, f"{seed}:{game}:{hand}"))
                else:
                    seat = state.to_move
                    assert seat is not None, state.status
                    command = bots[seat](view(state, seat), rng)
                for event in decide(state, command):
                    state = apply(state, event)
            assert state.result is not None
            places = state.result.places
            mine = [places[s] for s in range(4) if bots[s] is ours]
            theirs = [places[s] for s in range(4) if bots[s] is not ours]
            total += statistics.fmean(theirs) - statistics.fmean(mine)
        diffs.append(total / 2)
    return interval(diffs)


# --- OpenSpiel's simple gin rummy bot, fed a mirror of the engine's game ----------------

DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK = 52, 53, 54, 55
OS_SUITS = "SCDH"


def os_id(card: Card) -> int:
    return OS_SUITS.index(card.suit) * 13 + card.rank - 1


def our_card(action: int) -> Card:
    return Card.of(action % 13 + 1, OS_SUITS[action // 13])


class OpenSpielSeat:
    """OpenSpiel's bot at ``seat`` of a two-player gin hand, on a pyspiel state kept in
    step with the engine's: OpenSpiel's player 0 is the seat that acts first."""

    def __init__(self, pyspiel: Any, seat: int) -> None:
        self.game = pyspiel.load_game("gin_rummy")
        self.bots = [pyspiel.make_simple_gin_rummy_bot(self.game.get_parameters(), p) for p in (0, 1)]
        self.seat = seat
        self.fallbacks = 0
        self.greedy = get_bot("greedy")

    def deal(self, state: GameState) -> None:
        hand = state.hand
        assert hand is not None
        self.first = hand.order[0]
        self.os = self.game.new_initial_state()
        for bot in self.bots:
            bot.restart()
        for s in (self.first, 1 - self.first):
            for card in hand.hand_cards(s):
                self.os.apply_action(os_id(card))
        self.os.apply_action(os_id(ALL_CARDS[hand.pile[-1]]))
        self.done = False

    def player(self, seat: int) -> int:
        return 0 if seat == self.first else 1

    def step(self, v: View) -> Command:
        seat = self.seat
        if self.done or self.os.is_chance_node() or self.os.current_player() != self.player(seat):
            self.fallbacks += 1
            return self.greedy(v, random.Random(0))
        action = self.bots[self.player(seat)].step(self.os)
        legal = v.legal_commands
        command: Command | None = None
        if action == PASS:
            command = PassUpcard(seat) if PassUpcard(seat) in legal else DeclineDraw(seat)
        elif action == DRAW_UPCARD:
            command = DrawFromDiscard(seat)
        elif action == DRAW_STOCK:
            command = DrawFromStock(seat)
        elif action == KNOCK:
            self.os.apply_action(KNOCK)
            card = our_card(self.bots[self.player(seat)].step(self.os))
            self.done = True
            command = Knock(seat, card)
        elif action < 52:
            command = Discard(seat, our_card(action))
        if command is None or command not in legal:
            self.fallbacks += 1
            self.done = True
            return self.greedy(v, random.Random(0))
        return command

    def follow(self, command: Command, events: list[Any]) -> None:
        """Play ``command`` (already decided by the engine) on the mirror."""
        if self.done:
            return
        actions: list[int] = []
        if isinstance(command, (PassUpcard, DeclineDraw)):
            actions = [PASS]
        elif isinstance(command, DrawFromDiscard):
            actions = [DRAW_UPCARD]
        elif isinstance(command, DrawFromStock):
            drawn = next(e.card for e in events if isinstance(e, CardDrawn))
            actions = [DRAW_STOCK, os_id(drawn)]
        elif isinstance(command, Discard):
            actions = [os_id(command.card)]
        else:
            self.done = True
            return
        for action in actions:
            if self.os.is_chance_node():
                allowed = [outcome for outcome, _ in self.os.chance_outcomes()]
            else:
                allowed = self.os.legal_actions()
            if action not in allowed:
                self.done = True  # the mirror cannot follow (e.g. its wall phase): fall back
                return
            self.os.apply_action(action)


def gin_match(pyspiel: Any, level: str, deals: int, seed: int) -> tuple[tuple[float, float, float], int]:
    rs = get_ruleset("gin-rummy")
    rng = random.Random(seed)
    ours = timed(level, get_bot(level))
    diffs = []
    fallbacks = 0
    for deal in range(deals):
        deck = shuffled_deck(rs, f"{seed}:{deal}")
        total = 0.0
        for os_seat in (0, 1):
            mirror = OpenSpielSeat(pyspiel, os_seat)
            points = play_hand(rs, deck, [ours, ours], rng, mirror)
            total += points[1 - os_seat] - points[os_seat]
            fallbacks += mirror.fallbacks
        diffs.append(total / 2)
    return interval(diffs), fallbacks


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=200, help="duplicate deals per hand match")
    parser.add_argument("--games", type=int, default=30, help="duplicate knock-rami games per level")
    parser.add_argument("--gin-deals", type=int, default=300, help="duplicate gin deals against OpenSpiel")
    parser.add_argument("--levels", default="greedy,steady,expert")
    parser.add_argument("--only", default="", help="comma-separated matches (e.g. knock-rummy-2,gin)")
    parser.add_argument("--seed", type=int, default=30)
    args = parser.parse_args()
    levels = args.levels.split(",")
    only = set(filter(None, args.only.split(",")))
    print(
        f"bench_bots: {args.deals} deals, {args.games} rami games, {args.gin_deals} gin deals; "
        f"seed {args.seed}"
    )
    # Each level against greedy, and each against the level below it.
    pairs = [(level, "greedy") for level in levels if level != "greedy"]
    pairs += [(upper, lower) for lower, upper in itertools.pairwise(levels) if lower != "greedy"]
    hand_presets = (("knock-rummy", 2), ("knock-rummy", 4), ("knock-rummy-hoyle", 4), ("gin-rummy", 2))
    for preset, players in hand_presets:
        name = f"{preset}-{players}"
        if only and name not in only:
            continue
        for level, against in pairs:
            mean, low, high = hand_match(preset, players, level, args.deals, args.seed, against)
            ci = f"95% CI {low:+.2f} to {high:+.2f}"
            print(f"{name:20} {level:8} vs {against:8}: {mean:+6.2f} points/hand ({ci})")
    if not only or "knock-rami-4" in only:
        for level, against in pairs:
            mean, low, high = rami_match(level, args.games, args.seed, against)
            ci = f"95% CI {low:+.2f} to {high:+.2f}"
            print(f"{'knock-rami-4':20} {level:8} vs {against:8}: {mean:+6.2f} places/game ({ci})")
    if not only or "gin" in only:
        try:
            import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
        except ImportError as exc:
            print(f"gin vs OpenSpiel skipped: open-spiel not installed ({exc}); pip install -e '.[bench]'")
        else:
            for level in levels:
                (mean, low, high), fallbacks = gin_match(pyspiel, level, args.gin_deals, args.seed)
                print(
                    f"{'gin-rummy-2':20} {level:8} vs OpenSpiel simple bot: {mean:+6.2f} points/hand "
                    f"(95% CI {low:+.2f} to {high:+.2f}; {fallbacks} OpenSpiel moves by greedy's rule)"
                )
    for level, times in TIMES.items():
        if times:
            print(
                f"decision time {level:8}: wall {percentiles(times)}; CPU {percentiles(CPU[level])} "
                f"over {len(times)} decisions"
            )


if __name__ == "__main__":
    main()
