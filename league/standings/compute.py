"""Standings from rounds and table results: scheme points, tiebreaks, ranks.

Effects, in every scheme:

- **finished game**: each seated player scores the scheme's award for their seat.
- **game in play** (or a table whose game is not opened yet): counts nothing yet; the
  row's ``in_play`` counts it.
- **abandoned game** (a ``GameAbandoned`` in effect): counts nothing for anyone — no
  points, not played; the row's ``abandoned`` counts it. Retracting the abandonment
  brings the game back.
- **bye**: the tournament's ``bye_points``, or an average game when unset (see
  :func:`league.standings.scoring.bye_award`); a bye is not a game played, has no
  opponent and no place.
- **knocked out** (a round seated by a method that eliminates, a knockout): a player
  who lost a two-player table of such a round is out of the event from then on; a bye
  listed for them later (rounds seated before the seating said "out") is not a bye and
  scores nothing, and in a final table's round (tables of more than two) nobody left
  out has a bye.
- **drop-out**: a player who stops playing keeps what they scored and stays ranked;
  rounds they miss score nothing. In a league season ``min_games`` decides who
  qualifies.
- **replaced seat** (``SeatReplaced``: a substitute or a bot finished it): the seat's
  result still goes to the player the round seated there — the seat is the unit the
  tournament scores; the row's ``replaced`` counts it, so a director can see it and
  adjust.
- **bots** seated at a digital table are opponents for places and the match share, but
  have no row and do not count for the tiebreaks that read opponents' points.
- **league season** (``kind == "league"``): cumulative over its rounds (club nights);
  players with fewer than ``min_games`` games played are listed after the qualified
  ones, unranked (``rank`` null, ``qualified`` false).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from league import limits
from league.seating import RECORDS
from league.standings.results import ABANDONED, SETTLED, StandingsError, TableResult, table_result
from league.standings.scoring import SCHEMES, awards, bye_award
from league.standings.tiebreaks import REGISTRY, PlayedGame, Record, check_tiebreaks, default_tiebreaks

KINDS = ("tournament", "league")
T = TypeVar("T")
NO_PLACES: tuple[Fraction, ...] = ()  # the scheme's default placement points
logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Settings:
    preset: str
    scoring: str
    placement_points: tuple[Fraction, ...]
    tiebreaks: tuple[str, ...]
    bye_points: str
    min_games: int
    seed: str
    kind: str

    @classmethod
    def from_mapping(cls, settings: Mapping[str, Any], *, stored: bool = False) -> Settings:
        """Checked settings; StandingsError with a stable code on bad ones. Empty
        ``tiebreaks`` take the preset's defaults.

        ``stored``: settings read back from the database, where every write checked them
        (league.limits). Should one still be out of range (a row written before the
        limits), the standings are computed with that field's default rather than fail:
        one bad setting never stops a tournament's standings, nor the catch-up of the
        others. The field is logged."""
        preset = str(settings.get("preset") or "")
        scoring = settings.get("scoring") or "points"
        if scoring not in SCHEMES:
            raise StandingsError(
                "unknown_scoring", f"unknown scoring {scoring!r}; known: {', '.join(SCHEMES)}"
            )
        placement = _stored_or_default(
            stored,
            settings,
            "placement_points",
            NO_PLACES,
            lambda: _placement_points(settings.get("placement_points")),
        )
        tiebreaks = check_tiebreaks(settings.get("tiebreaks") or ()) or default_tiebreaks(preset)
        bye_points = _stored_or_default(
            stored, settings, "bye_points", "", lambda: _bye_points(settings.get("bye_points"))
        )
        min_games = _stored_or_default(
            stored,
            settings,
            "min_games",
            0,
            lambda: limits.whole(
                settings.get("min_games") or 0, "min_games", 0, limits.MAX_MIN_GAMES, "invalid_min_games"
            ),
        )
        kind = settings.get("kind") or "tournament"
        if kind not in KINDS:
            raise StandingsError("invalid_kind", f"kind is one of {', '.join(KINDS)}, not {kind!r}")
        return cls(
            preset,
            scoring,
            placement,
            tiebreaks,
            bye_points,
            min_games,
            str(settings.get("seed") or ""),
            kind,
        )


def _placement_points(raw: Any) -> tuple[Fraction, ...]:
    raw = raw or []
    if isinstance(raw, str) or not isinstance(raw, Sequence):
        raise StandingsError("invalid_placement_points", "placement_points is a list of numbers")
    if len(raw) > limits.MAX_PLACES:
        raise StandingsError(
            "invalid_placement_points", f"placement_points has at most {limits.MAX_PLACES} places"
        )
    return tuple(limits.points(v, "each of placement_points", "invalid_placement_points") for v in raw)


def _bye_points(raw: Any) -> str:
    """The bye's points as stored (text; empty: an average game), checked."""
    if raw in ("", None):
        return ""
    limits.points(raw, "bye_points", "invalid_bye_points")
    return str(raw).strip()


def _stored_or_default(
    stored: bool, settings: Mapping[str, Any], field: str, default: T, read: Callable[[], T]
) -> T:
    try:
        return read()
    except limits.OutOfLimits as exc:
        if not stored:
            raise StandingsError(exc.code, exc.message) from None
    except StandingsError:
        if not stored:
            raise
    logger.warning(
        "standings: stored %s %.80r is out of range; its default is used", field, settings.get(field)
    )
    return default


def check_settings(settings: Mapping[str, Any]) -> None:
    """Raise StandingsError (stable ``code``) if the standings cannot use ``settings``;
    for the tournament create body."""
    Settings.from_mapping(settings)


def records(
    settings: Settings, rounds: Sequence[Mapping[str, Any]], results: Mapping[int, TableResult]
) -> dict[int, Record]:
    """Every player's record over ``rounds`` with the table ``results`` (game id → result)."""
    out: dict[int, Record] = {}

    def record(player: int) -> Record:
        if player not in out:
            out[player] = Record(player)
        return out[player]

    bye = bye_award(settings.scoring, settings.bye_points, settings.placement_points)
    knocked_out: set[int] = set()
    for rnd in rounds:
        number = int(rnd.get("number", 0))
        record_ = RECORDS.get(str(rnd.get("method") or ""))
        eliminating = record_ is not None and record_.eliminates
        tables = rnd.get("tables") or ()
        in_pairs = all(len(table.get("seats") or ()) == 2 for table in tables)
        for player in rnd.get("byes") or ():
            if eliminating and (not in_pairs or int(player) in knocked_out):
                record(int(player))
                continue
            r = record(int(player))
            r.byes += 1
            r.points += bye
        for table in rnd.get("tables") or ():
            seats = [seat.get("player") for seat in table.get("seats") or ()]
            for player in seats:
                if player is not None:
                    record(int(player))
            game = table.get("game")
            result = results.get(int(game)) if game is not None else None
            if result is None or result.status not in SETTLED:
                for player in seats:
                    if player is not None:
                        record(int(player)).in_play += 1
                continue
            if result.status == ABANDONED:
                for player in seats:
                    if player is not None:
                        record(int(player)).abandoned += 1
                continue
            if result.seats != len(seats):
                raise StandingsError(
                    "seats_mismatch", f"game {game} has {result.seats} seats, its table {len(seats)}"
                )
            assert result.places is not None
            if eliminating and len(seats) == 2:
                knocked_out.update(
                    int(p) for i, p in enumerate(seats) if p is not None and result.places[i] > 1
                )
            scored = awards(settings.scoring, result, settings.placement_points)
            for i, player in enumerate(seats):
                if player is None:
                    continue
                r = record(int(player))
                r.points += scored[i]
                if i in result.replaced:
                    r.replaced += 1
                opponents = tuple(
                    (None if other is None else int(other), result.places[j])
                    for j, other in enumerate(seats)
                    if j != i
                )
                r.add_game(PlayedGame(number, int(game), scored[i], result.places[i], len(seats), opponents))
    return out


def _json(value: Any) -> Any:
    return str(value) if isinstance(value, Fraction) else value


def rank(settings: Settings, recs: Mapping[int, Record]) -> list[dict[str, Any]]:
    """The ranked rows: by points, then the tiebreaks in order, each splitting only the
    players still level; players level on all share a rank (``1, 1, 3``). A row's value
    of a tiebreak that uses the tied group is the value it had when applied (among the
    players then level), or null when the player was separated before it."""
    names = settings.tiebreaks
    values: dict[tuple[str, int], Any] = {}
    applied: dict[tuple[str, int], Any] = {}  # a tied-group tiebreak's value as applied

    def value(name: str, player: int, tied: frozenset[int]) -> Any:
        tiebreak = REGISTRY[name]
        if tiebreak.uses_tied_group:
            applied[name, player] = tiebreak.function(recs, player, tied, settings.seed)
            return applied[name, player]
        key = (name, player)
        if key not in values:
            values[key] = tiebreak.function(recs, player, tied, settings.seed)
        return values[key]

    def sort_key(name: str, v: Any) -> tuple[int, Any]:
        if v is None:
            return (1, 0)
        return (0, -v if REGISTRY[name].higher_is_better else v)

    def split(group: list[int], keys: Sequence[str]) -> list[list[int]]:
        if len(group) <= 1 or not keys:
            return [sorted(group)]
        name, rest = keys[0], keys[1:]
        tied = frozenset(group)
        keyed = sorted(((sort_key(name, value(name, p, tied)), p) for p in group), key=lambda kp: kp[0])
        out: list[list[int]] = []
        i = 0
        while i < len(keyed):
            j = i
            while j < len(keyed) and keyed[j][0] == keyed[i][0]:
                j += 1
            out.extend(split([p for _, p in keyed[i:j]], rest))
            i = j
        return out

    league = settings.kind == "league" and settings.min_games > 0
    qualified = [p for p in recs if not league or recs[p].played >= settings.min_games]
    others = [p for p in recs if p not in set(qualified)]
    rows: list[dict[str, Any]] = []
    for members, ranked in ((qualified, True), (others, False)):
        place = 1
        for group in split(members, ("points", *names)):
            for player in group:
                r = recs[player]
                tb: dict[str, Any] = {}
                for name in names:
                    tiebreak = REGISTRY[name]
                    if tiebreak.uses_tied_group:
                        v = applied.get((name, player))
                    else:
                        v = value(name, player, frozenset())
                    tb[name] = str(v) if tiebreak.as_text and v is not None else _json(v)
                rows.append(
                    {
                        "rank": place if ranked else None,
                        "player": player,
                        "points": str(r.points),
                        "played": r.played,
                        "byes": r.byes,
                        "abandoned": r.abandoned,
                        "replaced": r.replaced,
                        "in_play": r.in_play,
                        "qualified": ranked,
                        "tiebreaks": tb,
                    }
                )
            place += len(group)
    return rows


def standings(
    settings: Mapping[str, Any] | Settings,
    rounds: Sequence[Mapping[str, Any]],
    results: Mapping[int, TableResult],
) -> list[dict[str, Any]]:
    """Ranked rows from table results already extracted (game id → TableResult)."""
    s = settings if isinstance(settings, Settings) else Settings.from_mapping(settings)
    return rank(s, records(s, rounds, results))


def standings_from_logs(
    settings: Mapping[str, Any],
    rounds: Sequence[Mapping[str, Any]],
    logs: Mapping[int, Sequence[Mapping[str, Any]]],
) -> list[dict[str, Any]]:
    """The standings recomputed from nothing but the games' logs.

    ``settings``: ``{preset, scoring, placement_points, tiebreaks, bye_points,
    min_games, seed, kind}``; ``rounds``: ``[{"number", "byes": [player ids],
    "tables": [{"seats": [{"player": id | None, "bot": str}], "game": id | None}]}]``
    (seat ``i`` of a table is seat ``i`` of its game); ``logs``: game id → its events as
    the games' export gives them. Returns the ranked rows (``player`` is the id)."""
    results = {int(game): table_result(events) for game, events in logs.items()}
    return standings(settings, rounds, results)
