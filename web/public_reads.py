"""What the public pages show, read for them: a tournament's rounds and tables with their
results, a player's results and head-to-head record, the running tournaments, and the
marker a live poll compares (its ETag).

Only what anyone may know is read: a table's players, its game's status and the scores
of its scored hands (public once scored), the finishing order of a finished game. No
card, hand or stock is read into these values. No game is replayed: a table's status,
scores and places come from the standings projection's table views
(:mod:`league.table_views`), kept by the refresh that reads each result, in one query
whatever the number of games (the tables carry their games' statuses)."""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.db import connection
from django.db.models import Max, Q
from django.http import Http404
from django.utils.http import quote_etag
from django.utils.translation import get_language

from league.models import Player, Round, StandingsState, TableSeat, Tournament
from league.selectors import RoundTable, round_tables
from league.table_views import TableView, table_views, tables_views
from league.tables import FIRST_DEALER_POSITION as FIRST_DEALER
from league.tables import PlayerLine, alphabetical
from web.words import game_status_text, score_text

PUBLIC_ROUND_STATUSES = (Round.Status.PUBLISHED, Round.Status.COMPLETE)
PUBLIC_TOURNAMENT_STATUSES = (
    Tournament.Status.REGISTRATION,
    Tournament.Status.RUNNING,
    Tournament.Status.FINISHED,
)


@dataclass(frozen=True, slots=True)
class SeatLine:
    position: int
    name: str
    player_id: int | None
    bot: str
    score: str  # the running total of scored hands ("" before the first)
    place: int | None  # once the game is finished


@dataclass(frozen=True, slots=True)
class TableLine:
    number: int
    game_id: int | None
    status: str  # the game's status, "" when it has no game
    hands_scored: int
    seats: tuple[SeatLine, ...]

    @property
    def status_text(self) -> str:
        return game_status_text(self.status)


@dataclass(frozen=True, slots=True)
class RoundLine:
    number: int
    status: str
    tables: tuple[TableLine, ...]
    byes: tuple[str, ...]

    def by_player(self) -> list[PlayerLine]:
        """The round by player name, alphabetical: where each player sits (bots left out)."""
        return alphabetical(
            [
                PlayerLine(
                    seat.name, seat.player_id, table.number, seat.position + 1, seat.position == FIRST_DEALER
                )
                for table in self.tables
                for seat in table.seats
                if seat.player_id is not None
            ]
        )


def public_tournament(tournament_id: int) -> Tournament | None:
    """The tournament, unless it is a draft (a director's, not yet public)."""
    return (
        Tournament.objects.select_related("club")
        .filter(pk=tournament_id, status__in=PUBLIC_TOURNAMENT_STATUSES)
        .first()
    )


def _seat_score(view: TableView | None, position: int) -> str:
    """A seat's running total once a hand is scored or the game is over; "" before."""
    score = view.score(position) if view is not None else None
    return "" if score is None else score_text(score)


def _table_line(table: RoundTable, views: dict[int, TableView]) -> TableLine:
    view = views.get(table.game_id) if table.game_id is not None else None
    places = view.places if view is not None else None
    seats = []
    for seat in table.seats:
        seats.append(
            SeatLine(
                position=seat.position,
                name=seat.name if seat.player_id is not None else seat.bot,
                player_id=seat.player_id,
                bot=seat.bot,
                score=_seat_score(view, seat.position),
                place=places[seat.position] if places is not None else None,
            )
        )
    return TableLine(
        number=table.number,
        game_id=table.game_id,
        status=view.status if view is not None else "",
        hands_scored=view.hands_scored if view is not None else 0,
        seats=tuple(seats),
    )


_ROUND_FIELDS = ("id", "number", "status", "byes", "tournament_id")


def _public_rounds(tournament_id: int) -> list[Round]:
    return list(
        Round.objects.filter(tournament_id=tournament_id, status__in=PUBLIC_ROUND_STATUSES)
        .order_by("-number")
        .only(*_ROUND_FIELDS)
    )


def round_lines(rounds: list[Round]) -> list[RoundLine]:
    """``rounds`` with their tables, in the order given: four queries whatever their
    number (their tables and seats, the tables' views, the byes' names)."""
    tables = round_tables(round_.pk for round_ in rounds)
    views = tables_views(t for ts in tables.values() for t in ts)
    bye_ids = {pid for round_ in rounds for pid in round_.byes}
    names = dict(Player.objects.filter(pk__in=bye_ids).values_list("pk", "name")) if bye_ids else {}
    return [
        RoundLine(
            number=round_.number,
            status=round_.status,
            tables=tuple(_table_line(table, views) for table in tables[round_.pk]),
            byes=tuple(names.get(pid, f"player {pid}") for pid in round_.byes),
        )
        for round_ in rounds
    ]


def tournament_rounds(tournament: Tournament) -> list[RoundLine]:
    """The published and completed rounds, newest first, with their tables."""
    return round_lines(_public_rounds(tournament.pk))


def is_current(round_: Round, newest: int) -> bool:
    """Whether a public round is in the live part: the newest round, and any round still
    being played. The others are complete: the earlier rounds (:func:`earlier_rounds`)."""
    return round_.number == newest or round_.status != Round.Status.COMPLETE


def current_rounds(tournament: Tournament) -> list[RoundLine]:
    """The rounds the live part shows (:func:`is_current`), newest first, with their
    tables."""
    rounds = _public_rounds(tournament.pk)
    newest = rounds[0].number if rounds else 0
    return round_lines([round_ for round_ in rounds if is_current(round_, newest)])


@dataclass(frozen=True, slots=True)
class EarlierRound:
    """A complete round before the newest, and its version: what a correction of one of
    its games changes (the standings refresh that reads it moves the tournament's
    ``StandingsState.complete_rounds_position``), so its rendering is kept until then."""

    round_id: int
    number: int
    version: str


@functools.cache
def _earlier_sql() -> str:
    quote = connection.ops.quote_name
    round_, tournament, state = (quote(m._meta.db_table) for m in (Round, Tournament, StandingsState))
    return (
        f"SELECT r.id, r.number, r.published_at, COALESCE(s.complete_rounds_position, 0) "
        f"FROM {round_} r JOIN {tournament} t ON t.id = r.tournament_id "
        f"LEFT JOIN {state} s ON s.tournament_id = t.id "
        "WHERE r.tournament_id = %s AND t.status IN (%s, %s, %s) AND r.status = %s AND r.number < "
        f"(SELECT MAX(n.number) FROM {round_} n "
        "WHERE n.tournament_id = r.tournament_id AND n.status IN (%s, %s)) "
        "ORDER BY r.number DESC"
    )


def earlier_rounds(tournament_id: int) -> list[EarlierRound]:
    """The tournament's complete rounds before its newest, newest first, with their
    versions, in one query that reads a row a round, not their tables (none for a
    tournament that is not public)."""
    if not 0 < tournament_id < 2**63:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            _earlier_sql(),
            [
                tournament_id,
                *PUBLIC_TOURNAMENT_STATUSES,
                Round.Status.COMPLETE,
                *PUBLIC_ROUND_STATUSES,
            ],
        )
        rows = cursor.fetchall()
    return [
        EarlierRound(pk, number, f"{pk}.{_digits(published)}.{corrected}")
        for pk, number, published, corrected in rows
    ]


def earlier_round_lines(round_ids: list[int]) -> dict[int, RoundLine]:
    """The lines of the given (earlier) rounds, by round id."""
    rounds = list(
        Round.objects.filter(pk__in=round_ids).only("id", "number", "status", "byes", "tournament_id")
    )
    return {round_.pk: line for round_, line in zip(rounds, round_lines(rounds), strict=True)}


@functools.cache
def _marker_sql() -> str:
    quote = connection.ops.quote_name
    tournament, state, round_ = (quote(m._meta.db_table) for m in (Tournament, StandingsState, Round))
    rounds = f"SELECT COUNT(*) FROM {round_} r WHERE r.tournament_id = t.id AND r.status"
    return (
        f"SELECT s.position, t.status, t.updated_at, ({rounds} IN (%s, %s)), ({rounds} = %s) "
        f"FROM {tournament} t LEFT JOIN {state} s ON s.tournament_id = t.id "
        "WHERE t.id = %s AND t.status IN (%s, %s, %s)"
    )


def public_tournament_or_404(tournament_id: int) -> Tournament:
    tournament = public_tournament(tournament_id)
    if tournament is None:
        raise Http404("No such tournament.")
    return tournament


def live_etag(tournament_id: int) -> str:
    """The live parts' ETag (the public page's and the projector's): the
    :func:`live_marker`, and the reader's language (a part worded in another language is
    another version); a 404 when the tournament is not public."""
    marker = live_marker(tournament_id)
    if marker is None:
        raise Http404("No such tournament.")
    return quote_etag(f"{marker}-{get_language()}")


def live_marker(tournament_id: int) -> str | None:
    """What a live poll compares (its ETag), in one query: the position the standings
    projection is current to, the tournament's published and completed rounds (a new
    round's tables show before any result), its status (closing it writes no other
    field) and when the tournament itself last changed.
    None when the tournament is not public (or no row could have its id).

    The statement is written once (like :func:`games.store.read_game`): compiling the
    same query from a queryset on every poll costs several times its database time."""
    if not 0 < tournament_id < 2**63:
        return None
    with connection.cursor() as cursor:
        cursor.execute(
            _marker_sql(),
            [*PUBLIC_ROUND_STATUSES, Round.Status.COMPLETE, tournament_id, *PUBLIC_TOURNAMENT_STATUSES],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    position, status, updated, published, complete = row
    return f"p{position or 0}-r{published}.{complete}-{status}{_digits(updated)}"


def _digits(moment: object) -> str:
    """A time read by a written statement, as its digits: SQLite hands it back as text,
    PostgreSQL as a datetime."""
    return re.sub(r"\D", "", str(moment))


# --- a player's page -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameLine:
    """One of the player's tournament games."""

    round_number: int
    table_number: int
    game_id: int | None
    status: str
    opponents: tuple[str, ...]
    score: str
    place: int | None
    seats: int

    @property
    def status_text(self) -> str:
        return game_status_text(self.status)


@dataclass
class TournamentResults:
    tournament_id: int
    name: str
    status: str
    games: list[GameLine] = field(default_factory=list)
    finished: int = 0
    wins: int = 0
    total: Fraction = Fraction(0)

    @property
    def total_text(self) -> str:
        return score_text(self.total)

    @property
    def status_text(self) -> str:
        return str(Tournament.Status(self.status).label)


@dataclass
class HeadToHead:
    """The player's record against one opponent, over finished games where both sat."""

    opponent_id: int
    opponent: str
    games: int = 0
    won: int = 0  # finished above the opponent
    tied: int = 0
    lost: int = 0
    net: Fraction = Fraction(0)  # the player's game points minus the opponent's, summed

    @property
    def net_text(self) -> str:
        return score_text(self.net)


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    tournaments: list[TournamentResults]
    head_to_head: list[HeadToHead]


def player_record(player: Player) -> PlayerRecord:
    """The player's tournament games (published rounds of public tournaments), newest
    tournament first, and their head-to-head record against every human opponent."""
    seats = list(
        TableSeat.objects.filter(
            player=player,
            table__round__status__in=PUBLIC_ROUND_STATUSES,
            table__round__tournament__status__in=PUBLIC_TOURNAMENT_STATUSES,
        )
        .select_related("table__round__tournament")
        .order_by(
            "-table__round__tournament__created_at", "table__round__tournament_id", "table__round__number"
        )
    )
    table_ids = [seat.table_id for seat in seats]
    others: dict[int, list[TableSeat]] = defaultdict(list)
    for other in (
        TableSeat.objects.filter(table_id__in=table_ids).select_related("player").order_by("position")
    ):
        others[other.table_id].append(other)
    game_ids = [seat.table.game_id for seat in seats if seat.table.game_id is not None]
    views = table_views(game_ids)

    by_tournament: dict[int, TournamentResults] = {}
    h2h: dict[int, HeadToHead] = {}
    for seat in seats:
        table = seat.table
        tournament = table.round.tournament
        entry = by_tournament.get(tournament.pk)
        if entry is None:
            entry = by_tournament[tournament.pk] = TournamentResults(
                tournament.pk, tournament.name, tournament.status
            )
        view = views.get(table.game_id) if table.game_id is not None else None
        places = view.places if view is not None else None
        points = view.points if view is not None else None
        opponents = [o for o in others[table.pk] if o.position != seat.position]
        entry.games.append(
            GameLine(
                round_number=table.round.number,
                table_number=table.number,
                game_id=table.game_id,
                status=view.status if view is not None else "",
                opponents=tuple(o.player.name if o.player is not None else o.bot for o in opponents),
                score=_seat_score(view, seat.position),
                place=places[seat.position] if places is not None else None,
                seats=len(others[table.pk]),
            )
        )
        if places is None or points is None:
            continue
        mine = places[seat.position]
        entry.finished += 1
        entry.wins += mine == 1
        entry.total += points[seat.position]
        for other in opponents:
            if other.player is None:
                continue
            record = h2h.get(other.player.pk)
            if record is None:
                record = h2h[other.player.pk] = HeadToHead(other.player.pk, other.player.name)
            theirs = places[other.position]
            record.games += 1
            record.won += mine < theirs
            record.tied += mine == theirs
            record.lost += mine > theirs
            record.net += points[seat.position] - points[other.position]
    return PlayerRecord(
        tournaments=list(by_tournament.values()),
        head_to_head=sorted(h2h.values(), key=lambda r: (-r.games, r.opponent)),
    )


def running_tournaments(limit: int = 10) -> list[Tournament]:
    """Tournaments being played now, latest first, with their club."""
    return list(
        Tournament.objects.filter(status=Tournament.Status.RUNNING)
        .select_related("club")
        .annotate(
            rounds_played=Max("round_set__number", filter=Q(round_set__status__in=PUBLIC_ROUND_STATUSES))
        )
        .order_by("-created_at", "-id")[:limit]
    )
