"""Tags of the door and the round's clock and progress on other pages:

- ``{% round_progress_of round as progress %}`` (the desk's round control): "3 of 4
  tables done", the tables still playing and for how long (:mod:`league.progress`);
- ``{% clock_of_round round as clock %}`` (the desk) and ``{% clock_of_game game as
  clock %}`` (the record page): the round clock (:mod:`league.clock`), for
  ``clock/_clock.html`` or ``clock/_clock_line.html``;
- ``{% unplayed_rounds tournament as unplayed %}`` (the close page): the rounds planned
  and never played, so closing says what it gives up."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import template

from league.clock import Clock, game_clock, round_clock
from league.models import Round, Tournament
from league.progress import RoundProgress, round_progress

register = template.Library()


@register.simple_tag
def round_progress_of(round_: Round) -> RoundProgress:
    return round_progress(round_)


@register.simple_tag
def clock_of_round(round_: Round) -> Clock | None:
    return round_clock(round_) if round_.status == Round.Status.PUBLISHED else None


@register.simple_tag
def clock_of_game(game: Any) -> Clock | None:
    pk = getattr(game, "pk", None)
    return game_clock(pk) if isinstance(pk, int) else None


@dataclass(frozen=True)
class Unplayed:
    planned: int  # the tournament's rounds (0: a league season, as many as it takes)
    complete: int
    in_play: int  # published rounds not complete: closing waits for them
    numbers: tuple[int, ...]  # planned rounds never played


@register.simple_tag
def unplayed_rounds(tournament: Tournament) -> Unplayed:
    statuses = dict(tournament.round_set.values_list("number", "status"))
    complete = sum(1 for status in statuses.values() if status == Round.Status.COMPLETE)
    in_play = sum(1 for status in statuses.values() if status == Round.Status.PUBLISHED)
    planned = tournament.rounds or 0
    played = {number for number, status in statuses.items() if status != Round.Status.DRAFT}
    numbers = tuple(n for n in range(1, planned + 1) if n not in played)
    return Unplayed(planned, complete, in_play, numbers)
