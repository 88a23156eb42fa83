"""The ``random`` bot: a uniformly random legal command (module ``uniform``, so that no
function shares its module's name)."""

from __future__ import annotations

from random import Random

from engine.commands import Command
from engine.visibility import View


def random_bot(view: View, rng: Random) -> Command:
    """Any of the seat's legal commands, uniformly; ``ValueError`` when it has none."""
    if not view.legal_commands:
        raise ValueError(f"seat {view.seat} has nothing to do (status {view.status})")
    return rng.choice(view.legal_commands)
