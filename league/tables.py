"""A round's tables as people read them off paper or a screen: seats in order with who
deals first, and the per-table link (``/t/<id>``) that opens a table's page; where one
player sits in the rounds being played (:func:`seats_now`), and the tables a club's
scorekeeper may record (:func:`tables_to_record`).

Reads only what the public may know (names, table numbers, seats, a game's status):
never a card. Three queries for a round, however many tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from league.models import Player, Round, Table, TableSeat, Tournament
from league.names import name_key

# Every tournament table's game starts with its first seat dealing (league.services
# publishes each game with ``first_dealer=0``): the seat printed as dealing first.
FIRST_DEALER_POSITION = 0
# Rounds the public sees (a draft is its directors' and scorekeepers' only).
SHOWN_ROUNDS = (Round.Status.PUBLISHED, Round.Status.COMPLETE)


@dataclass(frozen=True, slots=True)
class Seat:
    position: int  # 0-based; people read position + 1
    name: str
    player_id: int | None
    bot: str

    @property
    def number(self) -> int:
        return self.position + 1


@dataclass(frozen=True, slots=True)
class TableLine:
    table_id: int
    number: int
    game_id: int | None
    seats: tuple[Seat, ...]

    @property
    def dealer(self) -> Seat | None:
        return next((s for s in self.seats if s.position == FIRST_DEALER_POSITION), None)


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One player's place in a round: the line of the pairings sheet pinned at the door."""

    name: str
    player_id: int | None
    table: int
    seat: int  # 1-based, as printed
    deals_first: bool


@dataclass(frozen=True, slots=True)
class RoundTables:
    round_id: int
    number: int
    status: str
    tables: tuple[TableLine, ...]
    byes: tuple[str, ...]

    def by_player(self) -> list[PlayerLine]:
        """Everyone seated (bots left out) and every bye, alphabetical by name."""
        lines = [
            PlayerLine(seat.name, seat.player_id, table.number, seat.number, seat is table.dealer)
            for table in self.tables
            for seat in table.seats
            if seat.player_id is not None
        ]
        return alphabetical(lines)

    @property
    def players(self) -> int:
        return sum(1 for table in self.tables for seat in table.seats if seat.player_id is not None)


def alphabetical(lines: list[PlayerLine]) -> list[PlayerLine]:
    """Pairings by player as they are pinned up: by name as people read it
    (:func:`league.names.name_key`), then table and seat."""
    return sorted(lines, key=lambda line: (name_key(line.name), line.table, line.seat))


def shown_round(tournament: Tournament, number: int | None = None) -> Round | None:
    """Round ``number`` of the tournament, or its latest, if published or complete."""
    rounds = Round.objects.filter(tournament=tournament, status__in=SHOWN_ROUNDS)
    if number is not None:
        return rounds.filter(number=number).first()
    return rounds.order_by("-number").first()


def round_tables(round_: Round) -> RoundTables:
    """The round's tables with their seats in order, and its byes by name."""
    tables = list(Table.objects.filter(round=round_).prefetch_related("seats__player").order_by("number"))
    byes = list(round_.byes)
    names = dict(Player.objects.filter(pk__in=byes).values_list("pk", "name")) if byes else {}
    return RoundTables(
        round_id=round_.pk,
        number=round_.number,
        status=round_.status,
        tables=tuple(
            TableLine(
                table_id=table.pk,
                number=table.number,
                game_id=table.game_id,
                seats=tuple(
                    Seat(
                        seat.position,
                        seat.player.name if seat.player is not None else seat.bot,
                        seat.player_id,
                        seat.bot,
                    )
                    for seat in table.seats.all()
                ),
            )
            for table in tables
        ),
        byes=tuple(sorted((names.get(pid, "") for pid in byes), key=name_key)),
    )


def linked_table(table_id: int) -> Table | None:
    """The table a per-table link names, with its round, tournament and game."""
    if not 0 < table_id < 2**63:
        return None
    return Table.objects.select_related("round__tournament", "game").filter(pk=table_id).first()


# --- one player's seats, one scorekeeper's tables -----------------------------------------

# A round being played is published, in a tournament not closed.
_CLOSED = Tournament.Status.FINISHED


@dataclass(frozen=True, slots=True)
class SeatNow:
    """Where a player sits in a round being played — "Round 3: table 2, seat 3, Bo deals
    first" — or that they have a bye (``table`` None)."""

    tournament_id: int
    tournament_name: str
    digital: bool
    round_number: int
    table_id: int | None
    table: int | None
    seat: int | None  # 1-based, as printed
    dealer: str  # who deals first; "" when it is this player
    game_id: int | None
    game_status: str

    @property
    def bye(self) -> bool:
        return self.table is None


def _seat_name(seat: TableSeat) -> str:
    return seat.player.name if seat.player is not None else f"{seat.bot} bot"


def seats_now(player_id: int) -> list[SeatNow]:
    """The player's seat (or bye) in every round being played, newest tournament first
    (three queries)."""
    seats = list(
        TableSeat.objects.filter(player_id=player_id, table__round__status=Round.Status.PUBLISHED)
        .exclude(table__round__tournament__status=_CLOSED)
        .select_related("table__round__tournament", "table__game")
    )
    dealers = {
        seat.table_id: seat
        for seat in TableSeat.objects.filter(
            table_id__in=[s.table_id for s in seats], position=FIRST_DEALER_POSITION
        ).select_related("player")
    }
    found = []
    for seat in seats:
        table, dealer = seat.table, dealers.get(seat.table_id)
        tournament = table.round.tournament
        found.append(
            SeatNow(
                tournament_id=tournament.pk,
                tournament_name=tournament.name,
                digital=tournament.mode == Tournament.Mode.DIGITAL,
                round_number=table.round.number,
                table_id=table.pk,
                table=table.number,
                seat=seat.position + 1,
                dealer="" if dealer is None or dealer.pk == seat.pk else _seat_name(dealer),
                game_id=table.game_id,
                game_status=table.game.status if table.game is not None else "",
            )
        )
    rounds = (
        Round.objects.filter(status=Round.Status.PUBLISHED, tournament__registrations__player_id=player_id)
        .exclude(tournament__status=_CLOSED)
        .select_related("tournament")
    )
    for round_ in rounds:
        if player_id in round_.byes:
            tournament = round_.tournament
            digital = tournament.mode == Tournament.Mode.DIGITAL
            found.append(
                SeatNow(
                    tournament.pk, tournament.name, digital, round_.number, None, None, None, "", None, ""
                )
            )
    return sorted(found, key=lambda s: (-s.tournament_id, -s.round_number))


@dataclass(frozen=True, slots=True)
class TableToRecord:
    """A table of a round being played, for a scorekeeper's "My tables"."""

    table_id: int
    number: int
    round_number: int
    tournament_id: int
    tournament_name: str
    club_name: str
    physical: bool
    names: tuple[str, ...]
    game_id: int | None
    game_status: str
    scorekeeper: str  # the username assigned to the table, "" when none
    mine: bool  # assigned to the reader

    @property
    def over(self) -> bool:
        return self.game_status in ("finished", "abandoned")


def tables_to_record(club_ids: list[int], user_id: int) -> list[TableToRecord]:
    """The tables of the clubs' rounds being played: those assigned to ``user_id`` first,
    then those still in play, then those over; each by tournament, round and number
    (three queries)."""
    tables = (
        Table.objects.filter(round__tournament__club_id__in=club_ids, round__status=Round.Status.PUBLISHED)
        .exclude(round__tournament__status=_CLOSED)
        .select_related("round__tournament__club", "game", "scorekeeper__user")
        .prefetch_related("seats__player")
    )
    found = []
    for table in tables:
        tournament = table.round.tournament
        keeper = getattr(table, "scorekeeper", None)
        found.append(
            TableToRecord(
                table_id=table.pk,
                number=table.number,
                round_number=table.round.number,
                tournament_id=tournament.pk,
                tournament_name=tournament.name,
                club_name=tournament.club.name,
                physical=tournament.mode == Tournament.Mode.PHYSICAL,
                names=tuple(_seat_name(seat) for seat in table.seats.all()),
                game_id=table.game_id,
                game_status=table.game.status if table.game is not None else "",
                scorekeeper=keeper.user.get_username() if keeper is not None else "",
                mine=keeper is not None and keeper.user_id == user_id,
            )
        )
    return sorted(
        found,
        key=lambda t: (not t.mine, t.over, t.tournament_name, t.tournament_id, t.round_number, t.number),
    )
