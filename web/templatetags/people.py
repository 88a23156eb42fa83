"""Tags of the people's parts of other pages:

- ``{% my_seats %}`` (home) and ``{% player_seats player %}`` (a player's page): "Round 3:
  table 2, seat 3, Bo deals first", with a link to play a digital table for the player
  themselves;
- ``{% self_check_in_box tournament %}`` (the desk's registration): open or close self
  check-in, and its code with the QR code;
- ``{% table_keepers round as keepers %}`` then ``{% keeper_form keepers table %}`` (the
  desk's round control): who keeps each table's score, and the form to assign one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import template
from django.utils.translation import gettext as _

from league import access
from league.models import Player, Round, Table, TableScorekeeper, Tournament
from league.selectors import RoundTable
from web.mine import seat_lines
from web.people.checkin import code_context

register = template.Library()


@register.inclusion_tag("people/_seats.html", takes_context=True)
def my_seats(context: template.Context) -> dict[str, Any]:
    """The signed-in player's seats now (nothing for anyone else)."""
    mine = context.get("mine")
    player_id = getattr(mine, "player_id", None)
    if player_id is None:
        return {"lines": []}
    return {"lines": seat_lines(player_id, "", own=True), "heading": _("Where you sit now")}


@register.inclusion_tag("people/_seats.html", takes_context=True)
def player_seats(context: template.Context, player: Player) -> dict[str, Any]:
    user = context.get("user")
    own = bool(user is not None and user.is_authenticated and player.user_id == user.pk)
    heading = _("Where you sit now") if own else _("Where %(name)s sits now") % {"name": player.name}
    return {"lines": seat_lines(player.pk, player.name, own=own), "heading": heading}


@register.inclusion_tag("people/_self_check_in.html", takes_context=True)
def self_check_in_box(context: template.Context, tournament: Tournament) -> dict[str, Any]:
    return {**code_context(context["request"], tournament), "csrf_token": context.get("csrf_token")}


@dataclass(frozen=True)
class Keepers:
    """A round's assigned scorekeepers (table id → user id) and whom the desk may choose."""

    tournament_id: int
    assigned: dict[int, int]
    choices: list[tuple[int, str]]


@register.simple_tag
def table_keepers(round_: Round) -> Keepers:
    """Two queries for the whole round, whatever the number of tables."""
    rows = TableScorekeeper.objects.filter(table__round=round_).values_list("table_id", "user_id")
    return Keepers(round_.tournament_id, dict(rows), access.recorders(round_.tournament.club_id))


@register.inclusion_tag("people/_keeper_form.html", takes_context=True)
def keeper_form(context: template.Context, keepers: Keepers, table: Table | RoundTable) -> dict[str, Any]:
    return {
        "table": table,
        "tournament_id": keepers.tournament_id,
        "assigned": keepers.assigned.get(table.pk),
        "choices": keepers.choices,
        "csrf_token": context.get("csrf_token"),
    }
