"""Pure standings: no Django. Table results from event logs, scoring schemes, the
tiebreak registry, and :func:`standings_from_logs`, the recomputation from nothing but
the rounds and the games' logs (the archive verifier calls it; the projection in
:mod:`league.projection` stores its results).

>>> settings = {"preset": "knock-rummy", "scoring": "match", "tiebreaks": ["wins"]}
>>> rounds = [{"number": 1, "byes": [3], "tables": [{"seats": [{"player": 1}, {"player": 2}], "game": None}]}]
>>> [(row["player"], row["points"], row["in_play"]) for row in standings_from_logs(settings, rounds, {})]
[(3, '1/2', 0), (1, '0', 1), (2, '0', 1)]
"""

from league.standings.compute import Settings, check_settings, rank, records, standings, standings_from_logs
from league.standings.results import (
    CORRECTIONS,
    READ_TYPES,
    TRIGGERS,
    GameFold,
    StandingsError,
    Step,
    TableResult,
    table_result,
)
from league.standings.scoring import SCHEMES, awards, bye_award, placement_award
from league.standings.tiebreaks import DEFAULTS, REGISTRY, default_tiebreaks, random_draw

__all__ = [
    "CORRECTIONS",
    "DEFAULTS",
    "READ_TYPES",
    "REGISTRY",
    "SCHEMES",
    "TRIGGERS",
    "GameFold",
    "Settings",
    "StandingsError",
    "Step",
    "TableResult",
    "awards",
    "bye_award",
    "check_settings",
    "default_tiebreaks",
    "placement_award",
    "random_draw",
    "rank",
    "records",
    "standings",
    "standings_from_logs",
    "table_result",
]
