"""Publishing a draft: one game per table through :mod:`games.services`, linked to
the table and to the club."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils import timezone

import engine
from games import services as game_services
from games.models import Game, Source
from league.errors import LeagueError
from league.locks import round_for_update, tournament_for_update
from league.models import ClubGame, Round, Table, TableSeat, Tournament
from league.selectors import RoundTable, round_tables
from league.services.checks import _edit_reason, _open_for_changes
from league.services.completion import _complete_if_done
from league.services.rounds import departs_from_generated


def publish_round(round_: Round, by: Any, *, edit_reason: str | None = None) -> Round:
    """Publish a draft: one game per table through the games services, linked to the
    table and to the club (whose directors and scorekeepers then record it). A round
    whose tables differ from the generated seating needs an ``edit_reason``. The first
    published round starts the tournament (``running``).

    The round's tables are read once (:func:`league.selectors.round_tables`) and the
    links written together after the games, so the queries grow per table only by what
    :func:`games.services.create_game` writes for one game."""
    with transaction.atomic():
        # league.locks: the tournament, then the round; never the club (the games' foreign
        # keys check it at commit while their writes hold the event store's lock)
        tournament_for_update(round_.tournament_id)
        round_ = round_for_update(round_.pk)
        tournament = round_.tournament
        _open_for_changes(tournament)
        if round_.status != Round.Status.DRAFT:
            raise LeagueError("round_not_draft", f"round {round_.number} is already {round_.status}", 409)
        if edit_reason is not None:
            round_.edit_reason = _edit_reason(edit_reason)
        tables = round_tables([round_.pk])[round_.pk]
        if departs_from_generated(round_, tables) and not round_.edit_reason:
            raise LeagueError(
                "edit_reason_required",
                "the tables differ from the generated seating: say why (edit_reason) before publishing",
                field="edit_reason",
            )
        ruleset = engine.RuleSet.from_dict(
            {"schema_version": 1, "preset": tournament.preset, "options": tournament.options}
        )
        bot_seats: list[TableSeat] = []
        games = [_open_table_game(round_, table, ruleset, by, bot_seats) for table in tables]
        TableSeat.objects.bulk_create(bot_seats)
        ClubGame.objects.bulk_create(ClubGame(club_id=tournament.club_id, game=game) for game in games)
        Table.objects.bulk_update(
            [Table(pk=table.pk, game=game) for table, game in zip(tables, games, strict=True)], ["game"]
        )
        round_.status = Round.Status.PUBLISHED
        round_.published_by = by if getattr(by, "is_authenticated", False) else None
        round_.published_at = timezone.now()
        round_.save(update_fields=["status", "published_by", "published_at", "edit_reason"])
        if tournament.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
            tournament.status = Tournament.Status.RUNNING
        if not tables:
            # everyone has a bye: the round is complete at once (a new game never is)
            _complete_if_done(round_)
        return round_


def _open_table_game(
    round_: Round, table: RoundTable, ruleset: engine.RuleSet, by: Any, bot_seats: list[TableSeat]
) -> Game:
    """The table's new game (not linked yet); the bot seats a digital table is filled
    with are added to ``bot_seats``, for the caller to write with the others."""
    tournament = round_.tournament
    players = [s for s in table.seats if s.player_id is not None]
    digital = tournament.mode == Tournament.Mode.DIGITAL
    seats = []
    for player in players:
        if digital and player.user_id is None:
            raise LeagueError(
                "player_has_no_login",
                f"{player.name} has no login and cannot play a digital game: give them one, or seat them out",
            )
        seats.append(game_services.SeatSpec(name=player.name, user_id=player.user_id))
    if digital and tournament.bots:
        for n in range(len(players), max(tournament.table_min, len(players))):
            bot_seats.append(TableSeat(table_id=table.pk, position=n, bot=tournament.bot))
            seats.append(
                game_services.SeatSpec(name=f"{tournament.bot.capitalize()} bot {n + 1}", bot=tournament.bot)
            )
    if len(seats) < 2:
        raise LeagueError("invalid_seating", f"table {table.number} has fewer than two seats")
    try:
        return game_services.create_game(
            ruleset=ruleset,
            mode=tournament.mode,
            seats=seats,
            first_dealer=0,
            stake=Fraction(tournament.stake),
            owner=by,
            source=Source.SYSTEM,
            idempotency_key=f"league-round-{round_.pk}-table-{table.number}",
            context={"club": tournament.club_id, "round": round_.pk, "table": table.number},
            followed=True,
        ).game
    except engine.IllegalMove as exc:
        raise LeagueError(exc.code, f"table {table.number}: {exc.message}") from None
