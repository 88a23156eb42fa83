"""Print one game hand by hand, as its log replays (the whole log: cards included)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

import engine
from games import store
from games.models import Game, GameEvent


def describe(event: Any, names: list[str]) -> str:
    """One line for one event."""
    data = engine.event_to_dict(event)["data"]
    seat = data.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    kind = event.TYPE
    if kind == "GameStarted":
        preset, dealer = data["ruleset"].get("preset"), names[data["first_dealer"]]
        return f"GameStarted: {preset}, {data['mode']}, first dealer {dealer}, stake {data['stake']}"
    if kind == "HandDealt":
        return f"HandDealt: upcard {data['upcard'] or '?'}" + (", deck recorded" if data["deck"] else "")
    if kind == "GameFinished":
        return "GameFinished"
    if kind == "CardDrawn":
        return f"{who} draws from the {data['source']}" + (f" ({data['card']})" if data["card"] else "")
    if kind == "CardDiscarded":
        return f"{who} discards {data['card']}"
    if kind == "Knocked":
        return f"{who} knocks" + (f", discarding {data['card']} face down" if data["card"] else "")
    if kind == "HandScored":
        points = ", ".join(f"{names[int(s)]} {p}" for s, p in data["points"].items())
        return f"scored ({data['outcome']}): {points}"
    details = ", ".join(f"{k}={v}" for k, v in data.items() if k != "seat" and k != "deck")
    return f"{kind}{' ' + who if who else ''}{': ' + details if details else ''}"


class Command(BaseCommand):
    help = "Print a game hand by hand as its event log replays."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        game = Game.objects.filter(pk=options["game_id"]).first()
        if game is None:
            raise CommandError(f"there is no game {options['game_id']}")
        rows = list(GameEvent.objects.filter(game_id=game.pk).order_by("seq"))
        state = None
        names = [seat["name"] for seat in game.seats]
        self.stdout.write(f"Game {game.pk}: {game.ruleset.get('preset')}, {game.mode}, {', '.join(names)}")
        for row, event in zip(rows, store.to_engine(rows), strict=True):
            if isinstance(event, engine.HandDealt):
                dealer = names[event.dealer]
                self.stdout.write(f"\nHand {event.hand_number} (dealer {dealer})")
            state = engine.apply(state, event)
            names = [seat.name for seat in state.seats]
            self.stdout.write(f"  {row.seq:>4} {describe(event, names)}")
            if isinstance(event, engine.HandScored):
                scores = ", ".join(f"{n} {s}" for n, s in zip(names, state.scores, strict=True))
                self.stdout.write(f"       scores: {scores}")
        if state is not None:
            self.stdout.write(f"\n{state.status} at version {state.version}")
            if state.result is not None:
                ranking = " > ".join("/".join(names[s] for s in place) for place in state.result.ranking)
                self.stdout.write(f"result: {ranking}")
