"""Checks on who sits in a game, made by the games layer before anything is written.

The engine replays whatever seats a log names; whether a bot name is one this server
can run, and whether a digital game has anyone able to move at all, is decided here —
for new games, for imported logs and for ``ReplaceSeat`` commands alike, so a worker
never meets a bot it does not know and no game is created that nobody can play.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import engine
from engine import IllegalMove
from engine.bots import BOTS


def check_known_bot(bot: str | None, *, where: str) -> None:
    """Refuse a bot name that is not in the engine's registry (``unknown_bot``)."""
    if bot is not None and bot not in BOTS:
        raise IllegalMove(
            f"{where}: there is no bot {bot!r} (bots: {', '.join(sorted(BOTS))})", "unknown_bot"
        )


def check_playable(*, mode: str, seat_rows: Sequence[Mapping[str, Any]]) -> None:
    """Refuse a digital game none of whose seats a user or a bot plays: in a digital game
    only a seated user or a bot can move, so such a game would wait for ever."""
    if mode != "digital":
        return
    if not any(row.get("user") is not None or row.get("bot") is not None for row in seat_rows):
        raise IllegalMove(
            "a digital game needs at least one seat played by a user or a bot; "
            "record a game of named players as a physical game",
            "unplayable_game",
        )


def check_replacement(
    *, mode: str, seat_rows: Sequence[Mapping[str, Any]], command: engine.ReplaceSeat
) -> None:
    """Refuse a ``ReplaceSeat`` naming an unknown bot, or leaving a digital game with no
    seat a user or a bot plays (a substitute without a bot has no user: nobody could
    move for that seat)."""
    check_known_bot(command.bot, where=f"seat {command.seat}")
    if 0 <= command.seat < len(seat_rows):  # the engine refuses other seats
        after = [*seat_rows]
        after[command.seat] = {"name": command.name, "bot": command.bot, "user": None}
        check_playable(mode=mode, seat_rows=after)


def bots_named_in(event: engine.Event) -> list[tuple[str, str | None]]:
    """(where, bot name) for every bot an event seats."""
    if isinstance(event, engine.GameStarted):
        return [(f"seat {index}", seat.bot) for index, seat in enumerate(event.seats)]
    if isinstance(event, engine.SeatReplaced):
        return [(f"seat {event.seat}", event.bot)]
    return []


def check_log_bots(events: Iterable[engine.Event]) -> None:
    """Refuse a log that seats a bot this server does not know; the error names the event."""
    for index, event in enumerate(events):
        for where, bot in bots_named_in(event):
            check_known_bot(bot, where=f"event {index}, {where}")
