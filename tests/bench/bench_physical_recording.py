"""The whole-hand property at scale: legal hands, recorded as a scorekeeper sees them, are
accepted and score the same.

1. **The engine's bots.** For every preset (and the option variants of
   ``tests/engine/test_physical_recording.py``), whole digital games are played until
   ``--hands`` hands, then re-recorded as physical games by
   :func:`tests.support.scorekeeper.rerecord` in every recording style (every move; only
   the public moves, with unseen draws and knocks; only the final hands). Any refusal or
   any score that differs is counted and the first ones printed. The reference measured
   in the same run is the time the digital games took to play: the ratio says what
   recording costs next to playing.
2. **OpenSpiel's ``gin_rummy``** (an independent source of legal hands; skipped with a
   message when ``open-spiel`` is not installed — ``pip install -e '.[bench]'``). Its
   ``simple_gin_rummy_bot`` plays ``--openspiel-hands`` deals (with ``--random-share`` of
   its discards uniformly random, so that hands last longer and reach the wall), each
   recorded as a scorekeeper sees it: upcard, passes, pile takes, discards, stock draws
   unknown, the knock unseen, the knocker's reveal with the melds it declared, the
   defender's reveal. Deals OpenSpiel's rules allow and ours do not are set aside and
   counted (REFERENCES.md: throwing back the card just taken, knocking at the wall; and
   the rare deal where the bot picks an action OpenSpiel does not list as legal).
   Scores are compared with OpenSpiel's returns (``undercut_on_tie=False``, as OpenSpiel
   scores a tie). OpenSpiel's defender melds and lays off by explicit actions, and its
   bot does not always take the best; ours always does (RULES.md §5), so a difference
   explained by that alone is counted apart.

```sh
.venv/bin/python tests/bench/bench_physical_recording.py                    # 2,000 hands per variant
.venv/bin/python tests/bench/bench_physical_recording.py --hands 500 --openspiel-hands 8000
```
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import (
    Card,
    Command,
    DealHand,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    GameState,
    HandScored,
    IllegalMove,
    Knock,
    PassUpcard,
    RevealHand,
    StartGame,
    apply,
    decide,
    get_ruleset,
)
from engine.arrangement import deadwood
from tests.engine.test_physical_recording import PRESETS
from tests.support.scorekeeper import play_digital, rerecord, summary

FIRST = 5  # failures printed in full


def bench_bots(hands_per_preset: int) -> int:
    """Part 1; returns the number of failures."""
    failures = 0
    for preset, options, _ in PRESETS:
        ruleset = get_ruleset(preset, **options)
        top = min(ruleset.max_players, 4)
        played = recorded = 0.0
        recordings = []
        broken: list[str] = []
        seed = 0
        hands = 0
        while hands < hands_per_preset:
            players = 2 + seed % (top - 1)
            start = time.process_time()
            digital, log = play_digital(ruleset, players, 100_000 + seed)
            played += time.process_time() - start
            start = time.process_time()
            try:
                recording = rerecord(log, random.Random(seed))
                assert recording.state is not None and recording.state.scores == digital.scores
                recordings.append(recording)
            except (AssertionError, IllegalMove) as exc:
                broken.append(f"seed {100_000 + seed}, {players} players: {type(exc).__name__} {exc}")
            recorded += time.process_time() - start
            hands += digital.tally.hands_dealt
            seed += 1
        failures += len(broken)
        seen = summary(recordings)
        print(
            f"{preset} {options or ''}: {seed} games, {hands} hands; {len(broken)} games failed; "
            f"recording {hands / recorded:,.0f} hands/s, {recorded / played:.2f}x the digital play time"
        )
        print(f"    {dict(sorted(seen.items()))}")
        for line in broken[:FIRST]:
            print(f"    FAILED {line}")
    return failures


# --- OpenSpiel -------------------------------------------------------------------------

PHASE = re.compile(r"Phase: (\w+)")
DEADWOOD = re.compile(r"Player(\d): Deadwood=(\d+)")
DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK = 52, 53, 54, 55
OS_SUITS, RANKS = "SCDH", "A23456789TJQK"  # OpenSpiel's card id: suit * 13 + rank, suits s c d h


def os_card(action: int) -> Card:
    return Card.parse(RANKS[action % 13] + OS_SUITS[action // 13])


def os_meld(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(text[i : i + 2].upper()) for i in range(0, len(text), 2))


@dataclass
class OpenSpielDeal:
    """One OpenSpiel deal, as the commands a scorekeeper would enter."""

    upcard: Card | None = None
    moves: list[Command] = field(default_factory=list)
    knocker: int | None = None
    knock_card: Card | None = None
    melds: list[tuple[Card, ...]] = field(default_factory=list)
    hands: dict[int, set[int]] = field(default_factory=lambda: {0: set(), 1: set()})
    outside: str = ""  # the rule of ours this deal breaks, if any
    returns: tuple[float, ...] = ()
    deadwood: dict[int, int] = field(default_factory=dict)  # OpenSpiel's, after its layoffs


def openspiel_deal(game: Any, bots: list[Any], rng: random.Random, random_share: float) -> OpenSpielDeal:
    deal = OpenSpielDeal()
    state = game.new_initial_state()
    for bot in bots:
        bot.restart()
    dealt: list[int] = []
    pile: list[int] = []
    drawer = taken = -1
    while not state.is_terminal():
        if state.is_chance_node():
            action = rng.choice(state.chance_outcomes())[0]
            state.apply_action(action)
            if len(dealt) < 21:  # ten cards to player 0, ten to player 1, the upcard
                dealt.append(action)
                if len(dealt) == 21:
                    deal.hands = {0: set(dealt[:10]), 1: set(dealt[10:20])}
                    deal.upcard, pile = os_card(dealt[20]), [dealt[20]]
            else:
                deal.hands[drawer].add(action)
            continue
        player = state.current_player()
        phase = PHASE.search(str(state)).group(1)  # type: ignore[union-attr]
        legal = state.legal_actions()
        if phase == "Discard" and rng.random() < random_share:
            # Only discards are random: a bot that did not choose its draw throws it back.
            action = rng.choice([a for a in legal if a not in (KNOCK, taken)])
            bots[player].inform_action(state, player, action)
        else:
            action = bots[player].step(state)
        if action not in legal:  # the bot's own slip; OpenSpiel would apply it anyway
            deal.outside = "openspiel_illegal"
            return deal
        if phase in ("FirstUpcard", "Draw"):
            if action == PASS:
                deal.moves.append(PassUpcard(player))
            elif action == DRAW_UPCARD:
                taken = pile.pop()
                deal.hands[player].add(taken)
                deal.moves.append(DrawFromDiscard(player))
            elif action == DRAW_STOCK:
                drawer, taken = player, -1
                deal.moves.append(DrawFromStock(player))
        elif phase == "Discard":
            if action < 52:
                if action == taken:
                    deal.outside = deal.outside or "throw_back"
                deal.hands[player].discard(action)
                pile.append(action)
                deal.moves.append(Discard(player, os_card(action)))
            elif action == KNOCK:
                deal.knocker = player
        elif phase == "Knock":
            if action < 52 and deal.knock_card is None:
                if action == taken:
                    deal.outside = deal.outside or "throw_back"
                deal.hands[player].discard(action)
                deal.knock_card = os_card(action)
                deal.moves.append(Knock(player))  # face down: the scorekeeper does not see it
            elif action > KNOCK:
                deal.melds.append(os_meld(state.action_to_string(player, action).split()[-1]))
        elif phase == "Wall" and action != PASS:
            deal.outside = deal.outside or "wall_knock"
        state.apply_action(action)
    deal.returns = tuple(state.returns())
    deal.deadwood = {int(p): int(d) for p, d in DEADWOOD.findall(str(state))}
    return deal


def record_deal(deal: OpenSpielDeal, rng: random.Random) -> tuple[str, str]:
    """(verdict, detail): ``same``; ``defender_laid_off_less`` (OpenSpiel's defender kept
    the deadwood of its best arrangement and laid nothing off where ours lays off);
    ``defender_melded_less`` (OpenSpiel's defender counted more than its best
    arrangement); ``differs``; or ``refused``."""
    ruleset = get_ruleset("gin-rummy", undercut_on_tie=False)
    state: GameState | None = None
    scored: HandScored | None = None

    def do(command: Command) -> None:
        nonlocal state, scored
        for event in decide(state, command):
            state = apply(state, event)
            if isinstance(event, HandScored):
                scored = event

    try:
        do(StartGame(ruleset, ("P0", "P1"), "physical", 1))
        do(DealHand(upcard=deal.upcard))
        for command in deal.moves:
            do(command)
        if deal.knocker is not None:
            seats = [deal.knocker, 1 - deal.knocker]
            rng.shuffle(seats)
            for seat in seats:
                cards = tuple(os_card(a) for a in sorted(deal.hands[seat]))
                melds = tuple(deal.melds) if seat == deal.knocker else None
                do(RevealHand(seat, cards, melds))
    except IllegalMove as exc:
        return "refused", f"{exc.code}: {exc}"
    if scored is None:
        return "refused", "no score"
    ours = float(scored.points.get(0, 0) - scored.points.get(1, 0))
    if ours == deal.returns[0]:
        return "same", ""
    detail = (
        f"ours {ours:+} (deadwood {scored.deadwood}), OpenSpiel {deal.returns[0]:+} "
        f"(deadwood {deal.deadwood}) ({scored.outcome})"
    )
    knocker = scored.knocker
    assert knocker is not None
    defender = 1 - knocker
    if scored.deadwood[knocker] != deal.deadwood.get(knocker):
        return "differs", detail
    unlaid = deadwood(tuple(os_card(a) for a in deal.hands[defender]), ruleset)
    if deal.deadwood.get(defender) == unlaid and scored.deadwood[defender] < unlaid:
        return "defender_laid_off_less", detail
    if deal.deadwood.get(defender, 0) > unlaid:
        return "defender_melded_less", detail
    return "differs", detail


def bench_openspiel(deals: int, random_share: float) -> int:
    """Part 2; returns the number of refusals and unexplained score differences."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        print("openspiel not installed (pip install -e '.[bench]'): OpenSpiel's deals skipped")
        return 0
    game = pyspiel.load_game("gin_rummy")
    bots = [pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), p) for p in (0, 1)]
    rng = random.Random(24)
    verdicts: collections.Counter[str] = collections.Counter()
    examples: dict[str, list[str]] = collections.defaultdict(list)
    played = recorded = 0.0
    for _ in range(deals):
        start = time.process_time()
        deal = openspiel_deal(game, bots, rng, random_share)
        played += time.process_time() - start
        if deal.outside:
            verdicts[f"outside our rules: {deal.outside}"] += 1
            continue
        start = time.process_time()
        verdict, detail = record_deal(deal, rng)
        recorded += time.process_time() - start
        verdicts[verdict] += 1
        examples[verdict].append(detail)
    checked = deals - sum(n for v, n in verdicts.items() if v.startswith("outside"))
    print(
        f"openspiel gin_rummy: {deals} deals, {checked} within our rules; recording "
        f"{checked / recorded:,.0f} deals/s, {recorded / played:.2f}x OpenSpiel's time to play them"
    )
    for verdict, count in sorted(verdicts.items()):
        print(f"    {verdict}: {count}")
        if verdict != "same" and not verdict.startswith("outside"):
            for line in examples[verdict][:FIRST]:
                print(f"        {line}")
    return verdicts["refused"] + verdicts["differs"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per preset variant (part 1)")
    parser.add_argument("--openspiel-hands", type=int, default=8000, help="OpenSpiel deals (part 2)")
    parser.add_argument("--random-share", type=float, default=0.3, help="random discards in part 2")
    args = parser.parse_args()
    failures = bench_bots(args.hands) + bench_openspiel(args.openspiel_hands, args.random_share)
    print("FAILURES: " + str(failures) if failures else "every legal hand was accepted and scored the same")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
