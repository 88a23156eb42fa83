"""A round's tables as people read them off paper or a screen: seats in order with who
deals first, and the per-table link (``/t/<id>``) that opens a table's page.

Reads only what the public may know (names, table numbers, seats): never a card. Three
queries for a round, however many tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from league.models import Player, Round, Table, Tournament
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
        return sorted(lines, key=lambda line: (name_key(line.name), line.table, line.seat))

    @property
    def players(self) -> int:
        return sum(1 for table in self.tables for seat in table.seats if seat.player_id is not None)


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
