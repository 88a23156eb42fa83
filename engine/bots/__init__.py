"""Baseline bots: pure functions ``(view, rng) -> command`` of one seat's view.

A bot sees only what its seat may see (:func:`engine.view`), so it cannot cheat;
randomness comes from the ``random.Random`` it is handed.

>>> import random
>>> from engine import StartGame, DealHand, decide, replay, shuffled_deck, get_ruleset, view
>>> log = decide(None, StartGame(get_ruleset("knock-rummy"), ("Ann", "Bot")))
>>> log += decide(replay(log), DealHand(deck=shuffled_deck(get_ruleset("knock-rummy"), seed=3)))
>>> state = replay(log)
>>> command = get_bot("greedy")(view(state, state.to_move), random.Random(0))
>>> command in view(state, state.to_move).legal_commands
True
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from engine.bots.expert import expert_bot, steady_bot
from engine.bots.greedy import greedy_bot
from engine.bots.uniform import random_bot
from engine.commands import Command
from engine.visibility import View

Bot = Callable[[View, Random], Command]

BOTS: dict[str, Bot] = {
    "random": random_bot,
    "greedy": greedy_bot,
    "steady": steady_bot,
    "expert": expert_bot,
}


# The levels a player chooses between, weakest first: each plays as a registered bot
# (docs/playing.md). Pages word them; the game stores the bot's name.
LEVELS: dict[str, str] = {"easy": "greedy", "normal": "steady", "expert": "expert"}


def get_bot(name: str) -> Bot:
    """The bot registered as ``name``; ``KeyError`` naming the known bots otherwise."""
    try:
        return BOTS[name]
    except KeyError:
        raise KeyError(f"no bot {name!r}; bots: {', '.join(sorted(BOTS))}") from None


__all__ = ["BOTS", "LEVELS", "Bot", "expert_bot", "get_bot", "greedy_bot", "random_bot", "steady_bot"]
