"""The standings and ratings as the public pages show them, read from League II's
projections (:mod:`league.projection` for the standings, each row with its rating
ordinal; :func:`league.selectors.player_ratings` for a player's rating history). Nothing is computed here
but the presentation: the as-of query read from the page's form, the comparison of two
timelines (rows that differ are marked), each row's rating ordinal, and the rating
history as chart series."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_lazy

from games import selectors as game_selectors
from league.figures import rounded
from league.models import Player, RatingEntry, Round, Table, Tournament
from league.projection import (
    CORRECTED,
    RECORDED,
    Moment,
    StandingsQueryError,
    check_after_round,
    read_standings,
    settings_of,
    standings_changes,
)
from league.selectors import player_ratings
from league.standings import REGISTRY, Settings
from web.corrections import correction_title, hand_change, word_correction
from web.public_reads import PUBLIC_ROUND_STATUSES
from web.rating_chart import Point, Series

LEADERS = 3
FAMILY_NAMES = dict(RatingEntry.Family.choices)


@dataclass(frozen=True)
class Query:
    """The page's as-of form: ``after_round`` (None: every round), ``timeline`` and, on
    the recorded timeline, ``at`` (a time or a position). ``error`` says in words what
    was wrong with the input; the page then shows the live standings and the message."""

    after_round: int | None = None
    timeline: str = CORRECTED
    at_text: str = ""
    moment: Moment | None = None
    error: str = ""
    error_code: str = ""

    @property
    def is_live(self) -> bool:
        return self.after_round is None and self.timeline == CORRECTED and self.moment is None

    @property
    def compares(self) -> bool:
        """Whether a second timeline is shown beside the first (a recorded moment)."""
        return self.moment is not None


MAX_POSITION = 2**63 - 1  # event positions are 64-bit


def _moment(raw: str) -> Moment:
    if raw.isascii() and raw.isdigit():
        if len(raw) > 19 or int(raw) > MAX_POSITION:
            raise StandingsQueryError("invalid_at", f"“{raw}” is past the last possible event position")
        return Moment(position=int(raw))
    try:
        when = parse_datetime(raw)
    except ValueError:  # well formed but not a date, like 2026-13-45T00:00
        when = None
    if when is None:
        raise StandingsQueryError(
            "invalid_at", f"“{raw}” is neither a time (2026-11-23T21:40) nor an event position"
        )
    if timezone.is_naive(when):
        when = timezone.make_aware(when, timezone.get_current_timezone())
    return Moment(time=when)


def _played(tournament: Tournament, after_round: int) -> None:
    """Not "Standings after round 7" of a tournament that has played 3: said in words."""
    try:
        check_after_round(tournament.pk, after_round)
    except StandingsQueryError as exc:
        last = exc.params.get("last", 0)
        said = (
            gettext("Round %(round)s has not been played: the last round played is %(last)s.")
            if last
            else gettext("Round %(round)s has not been played: no round has been played yet.")
        )
        raise StandingsQueryError(exc.code, said % {"round": after_round, "last": last}) from None


def parse_query(params: Mapping[str, str], tournament: Tournament) -> Query:
    raw_round = (params.get("after_round") or "").strip()
    timeline = (params.get("timeline") or CORRECTED).strip()
    at_text = (params.get("at") or "").strip()
    try:
        after_round: int | None = None
        if raw_round:
            if (
                not (raw_round.isascii() and raw_round.isdigit() and len(raw_round) <= 9)
                or int(raw_round) < 1
            ):
                raise StandingsQueryError(
                    "invalid_after_round", "After round must be a round number (1, 2, …)."
                )
            after_round = int(raw_round)
            _played(tournament, after_round)
        if timeline not in (CORRECTED, RECORDED):
            raise StandingsQueryError(
                "invalid_timeline", "Timeline must be “as corrected now” or “as shown then”."
            )
        moment = None
        if timeline == RECORDED:
            if not at_text:
                raise StandingsQueryError(
                    "at_required", "“As shown then” needs a time (or an event position)."
                )
            moment = _moment(at_text)
        return Query(after_round, timeline, at_text if moment else "", moment)
    except StandingsQueryError as error:
        # a position is refused only for being too large
        key = (
            "at_too_late"
            if error.code == "invalid_at" and at_text.isascii() and at_text.isdigit()
            else error.code
        )
        words = QUERY_ERRORS.get(key)
        said = str(words) % {"at": at_text} if words is not None else str(error)
        return Query(at_text=at_text, error=said, error_code=error.code)


# The query's refusals in the reader's words (the raised messages are English, for logs).
QUERY_ERRORS = {
    "at_too_late": gettext_lazy("“%(at)s” is past the last possible event position."),
    "invalid_at": gettext_lazy("“%(at)s” is neither a time (2026-11-23T21:40) nor an event position."),
    "invalid_after_round": gettext_lazy("After round must be a round number (1, 2, …)."),
    "invalid_timeline": gettext_lazy("Timeline must be “as corrected now” or “as shown then”."),
    "at_required": gettext_lazy("“As shown then” needs a time (or an event position)."),
}


def round_numbers(tournament: Tournament) -> list[int]:
    return list(
        Round.objects.filter(tournament=tournament, status__in=PUBLIC_ROUND_STATUSES)
        .order_by("number")
        .values_list("number", flat=True)
    )


@dataclass(frozen=True)
class Number:
    """A figure as people read it — ``shown``, a decimal of at most two places that the
    template formats for the reader's locale — and ``exact``, the stored value ("249/5"),
    given on hover when it differs."""

    shown: Decimal | str
    exact: str = ""

    def __str__(self) -> str:
        return str(self.shown)

    def __bool__(self) -> bool:
        return self.shown != ""


@dataclass
class Row:
    rank: int | None
    player_id: int
    name: str
    points: Number
    played: int
    tiebreaks: list[Number]
    ordinal: str
    changed: bool = False
    other_rank: int | None = None
    other_points: Number | str = ""


@dataclass
class StandingsTable:
    timeline: str
    after_round: int | None
    position: int
    recorded_at: datetime | None
    tiebreak_names: list[str]
    rows: list[Row]
    other_label: str = ""  # the compared timeline, when there is one
    changed: int = 0
    # (heading, what it means) of each tiebreak column
    tiebreak_columns: list[tuple[str, str]] = field(default_factory=list)
    # what the tiebreaks with no column mean (the seeded draw), for a printed legend
    unshown_tiebreaks: list[str] = field(default_factory=list)


def number(value: Any) -> Number:
    """A stored figure (an exact fraction's text, an int, a float) for people: rounded to
    at most two places (league.decimals), the exact value kept beside it when it differs."""
    if value is None or value == "":
        return Number("")
    if isinstance(value, float):
        return Number(rounded(Fraction(value).limit_denominator(10**6)), f"{value:g}")
    try:
        exact = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        return Number(str(value))
    shown = rounded(exact)
    return Number(shown, "" if Fraction(shown) == exact else str(exact))


def _ordinal_text(row: Mapping[str, Any]) -> str:
    """The row's rating ordinal (read with the standings, see :func:`read_standings`)."""
    ordinal = (row.get("rating") or {}).get("ordinal")
    return "" if ordinal is None else number_format(ordinal, 1)


def _table(tournament: Tournament, document: dict[str, Any]) -> StandingsTable:
    # the tournament's tiebreaks (the preset's when none are set)
    tiebreaks = Settings.from_mapping(settings_of(tournament), stored=True).tiebreaks
    # the columns the registry shows (not the seeded draw, whose number means nothing to a reader)
    names = [name for name in tiebreaks if REGISTRY[name].shown]
    recorded_at = document["current_to"].get("recorded_at")
    return StandingsTable(
        timeline=document["timeline"],
        after_round=document["after_round"],
        position=document["current_to"]["position"],
        recorded_at=parse_datetime(recorded_at) if recorded_at else None,
        tiebreak_names=names,
        tiebreak_columns=[
            (gettext(REGISTRY[name].abbreviation), gettext(REGISTRY[name].label)) for name in names
        ],
        unshown_tiebreaks=[gettext(REGISTRY[name].label) for name in tiebreaks if not REGISTRY[name].shown],
        rows=[
            Row(
                rank=row["rank"],
                player_id=row["player"]["id"],
                name=row["player"]["name"],
                points=number(row["points"]),
                played=row["played"],
                tiebreaks=[number(row.get("tiebreaks", {}).get(name)) for name in names],
                ordinal=_ordinal_text(row),
            )
            for row in document["rows"]
        ],
    )


def live(tournament: Tournament) -> StandingsTable:
    return _table(tournament, read_standings(tournament))


def leaders(tournament: Tournament) -> list[Row]:
    return [row for row in live(tournament).rows if row.rank is not None][:LEADERS]


def as_of(tournament: Tournament, query: Query) -> StandingsTable:
    """The standings the query asks for; at a recorded moment, compared with the same
    rounds as corrected now: a row whose rank or points differ is marked changed."""
    shown = _table(
        tournament,
        read_standings(tournament, after_round=query.after_round, timeline=query.timeline, at=query.moment),
    )
    if not query.compares:
        return shown
    now = _table(tournament, read_standings(tournament, after_round=query.after_round))
    by_player = {row.player_id: row for row in now.rows}
    for row in shown.rows:
        other = by_player.get(row.player_id)
        row.other_rank = other.rank if other is not None else None
        row.other_points = other.points if other is not None else ""
        row.changed = other is None or (other.rank, other.points) != (row.rank, row.points)
    shown.other_label = gettext("as corrected now")
    shown.changed = sum(row.changed for row in shown.rows)
    return shown


def corrections(tournament: Tournament) -> list[dict[str, Any]]:
    """The corrections that changed standings already shown, newest first, each with its
    time as a ``datetime`` (``when``) for the page to format, each correction's
    ``title`` in words and a corrected hand's change (``words``), from
    :mod:`web.corrections`."""
    changes = [
        {
            **change,
            "when": parse_datetime(change["recorded_at"]),
            "rows": [
                {
                    **row,
                    "points_before": number(row["points_before"]),
                    "points_after": number(row["points_after"]),
                }
                for row in change["rows"]
            ],
        }
        for change in reversed(standings_changes(tournament))
    ]
    for change in changes:
        for c in (change, *change["corrections"]):
            c["title"] = correction_title(c["type"])
    _word_hand_corrections(changes)
    return changes


def _word_hand_corrections(changes: list[dict[str, Any]]) -> None:
    """Add ``words`` to each ``HandCorrected`` of ``changes`` (the change and its list of
    corrections): three queries when there is any."""
    corrected = [
        c for change in changes for c in (change, *change["corrections"]) if c["type"] == "HandCorrected"
    ]
    if not corrected:
        return
    found = game_selectors.hand_corrections(c["position"] for c in corrected)
    games = {change["game"] for change in changes}
    names = {
        game: [str(s.get("name", "")) for s in seats]
        for game, seats in game_selectors.seats_of(games).items()
    }
    tables = dict(Table.objects.filter(game_id__in=games).values_list("game_id", "number"))
    for change in changes:
        for c in (change, *change["corrections"]):
            if c["type"] == "HandCorrected" and c["position"] in found:
                data, scored = found[c["position"]]
                by = (c.get("by") or {}).get("username")
                game = change["game"]
                c["words"] = word_correction(
                    hand_change(data, scored), names.get(game, []), table=tables.get(game), by=by
                )


def rating_series(player: Player) -> list[Series]:
    """The player's rating after each rated game, one series per game family."""
    return [
        Series(
            FAMILY_NAMES.get(family["family"], family["family"]),
            tuple(
                Point(gettext("game %(id)s") % {"id": entry["game"]}, entry["mu"], entry["ordinal"])
                for entry in family["history"]
            ),
        )
        for family in player_ratings(player)
        if family["history"]
    ]


__all__ = [
    "Number",
    "Query",
    "Row",
    "StandingsTable",
    "as_of",
    "corrections",
    "leaders",
    "live",
    "number",
    "parse_query",
    "rating_series",
    "round_numbers",
]
