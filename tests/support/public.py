"""A small tournament for the public pages' tests: four players, round 1 finished (one
result corrected), round 2 under way with a bye; built with the ORM and recorded
through the games services (tests/support/tournaments.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from league.models import Club, Player, Round, Tournament
from tests.support.tournaments import add_round, command, make_tournament, open_game, players, record_hand


@dataclass
class Cup:
    club: Club
    tournament: Tournament
    ann: Player
    bo: Player
    cy: Player
    di: Player
    round1: Round
    round2: Round
    games: dict[str, int]
    # The event position just before the correction: the standings as shown then.
    before_correction: int


def autumn_cup(recorder: Any) -> Cup:
    from games.models import GameEvent

    club = Club.objects.create(name="Riverside Knock Rummy Club", slug="riverside")
    tournament = make_tournament(club, name="Autumn cup", rounds=3)
    ann, bo, cy, di = players(club, "Ann", "Bo", "Cy", "Di")
    round1 = add_round(tournament, 1, [[ann, bo], [cy, di]])
    t1, t2 = round1.tables.order_by("number")
    g1, g2 = open_game(t1, recorder), open_game(t2, recorder)
    record_hand(g1, recorder, 0, [3, 20])  # Ann knocks with 3 and wins 17
    record_hand(g2, recorder, 0, [5, 9])  # Cy knocks with 5 and wins 4
    before = int(GameEvent.objects.order_by("-position").values_list("position", flat=True)[0])
    # The scorekeeper entered table 1 the wrong way round: Bo knocked, Ann held 30.
    command(g1, recorder, {"type": "Retract", "count": 3, "reason": "deadwood entered for the wrong seats"})
    record_hand(g1, recorder, 1, [30, 2])
    round1.status = Round.Status.COMPLETE
    round1.save(update_fields=["status"])
    round2 = add_round(tournament, 2, [[ann, cy, "greedy"]], byes=[bo])
    (t3,) = round2.tables.all()
    g3 = open_game(t3, recorder)
    return Cup(club, tournament, ann, bo, cy, di, round1, round2, {"t1": g1, "t2": g2, "t3": g3}, before)
