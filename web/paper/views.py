"""The print pages and the per-table link.

- Pairings (public): a round by table — seats in order, who deals first — or by player,
  alphabetical (name → table, seat): the sheet pinned at the door.
- Standings (public): now or after a round, with the tiebreaks named, on A4 portrait.
- Table slips and score sheets (the club's directors and scorekeepers): one slip per
  table (A6, or four to an A4 sheet) with the table's short address and its QR code; a
  score sheet per table for its preset.
- ``/t/<id>``: the per-table link the slips carry. It opens the table's record page for
  the club's directors and scorekeepers, and its live view (the game page) for everyone
  else — a seated player of a digital table their play page.

Each page is a plain HTML page for A4 or A6 (``templates/print/``, ``css/print.css``):
on screen a bar offers to print it; printed, only the sheet is left. Only public
rounds (published or complete) are printed, and nothing on them is a card.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from engine.errors import EngineError
from games.services import RuleSetRefused, ruleset_named
from league import limits
from league.access import is_recorder, require_recorder
from league.models import Round, Tournament
from league.tables import RoundTables, linked_table, round_tables, shown_round
from web import public_standings
from web.forms import BadField, posted_whole
from web.paper.qr import qr_svg, table_address
from web.paper.sheets import sheet_for
from web.public_reads import public_tournament

LAYOUTS = ("a4", "a6")  # table slips: four to an A4 sheet, or one per A6 card
ORDERS = ("table", "player")


class Refused(Exception):
    """A query parameter that is not what the page takes: shown, nothing else read."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _refused(request: HttpRequest, tournament: Tournament, message: str) -> HttpResponse:
    return render(request, "print/refused.html", {"tournament": tournament, "message": message}, status=400)


def _choice(request: HttpRequest, name: str, choices: tuple[str, ...]) -> str:
    value = request.GET.get(name, choices[0])
    if value not in choices:
        raise Refused(
            _("%(name)s must be one of %(choices)s.") % {"name": name, "choices": ", ".join(choices)}
        )
    return value


def _round(request: HttpRequest, tournament: Tournament) -> Round:
    """The round the page prints: ``?round=N``, or the latest published one."""
    try:
        number = posted_whole(request.GET, "round", _("The round"), 1, limits.MAX_ROUNDS, required=False)
    except BadField as exc:
        raise Refused(exc.message) from None
    round_ = shown_round(tournament, number)
    if round_ is None:
        raise Refused(
            _("Round %(number)s has not been published.") % {"number": number}
            if number is not None
            else _("No round has been published yet: there is nothing to print.")
        )
    return round_


def _public(tournament_id: int) -> Tournament:
    tournament = public_tournament(tournament_id)
    if tournament is None:
        raise Http404("No such tournament.")
    return tournament


def _staff(request: HttpRequest, tournament_id: int) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=tournament_id)
    require_recorder(request.user, tournament.club_id)
    return tournament


def _context(tournament: Tournament, tables: RoundTables, **more: Any) -> dict[str, Any]:
    return {"tournament": tournament, "round": tables, **more}


@require_safe
def pairings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _public(tournament_id)
    try:
        order = _choice(request, "by", ORDERS)
        tables = round_tables(_round(request, tournament))
    except Refused as exc:
        return _refused(request, tournament, exc.message)
    return render(
        request,
        "print/pairings.html",
        _context(tournament, tables, order=order, lines=tables.by_player() if order == "player" else []),
    )


@require_safe
def standings_sheet(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _public(tournament_id)
    query = public_standings.parse_query(request.GET, tournament)
    if query.error:
        return _refused(request, tournament, query.error)
    standings = public_standings.as_of(tournament, query)
    finished = tournament.status == Tournament.Status.FINISHED and query.is_live
    return render(
        request,
        "print/standings.html",
        {"tournament": tournament, "standings": standings, "final": finished, "query": query},
    )


@login_required
@require_safe
def slips(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _staff(request, tournament_id)
    try:
        layout = _choice(request, "layout", LAYOUTS)
        tables = round_tables(_round(request, tournament))
    except Refused as exc:
        return _refused(request, tournament, exc.message)
    cards = []
    for table in tables.tables:
        address = table_address(request, table.table_id)
        title = _("Table %(number)s: its page") % {"number": table.number}
        cards.append({"table": table, "address": address, "qr": qr_svg(address, title)})
    # four slips to a sheet: each sheet its own page
    sheets = [cards[i : i + 4] for i in range(0, len(cards), 4)] if layout == "a4" else [[c] for c in cards]
    return render(request, "print/slips.html", _context(tournament, tables, layout=layout, sheets=sheets))


@login_required
@require_safe
def score_sheets(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _staff(request, tournament_id)
    try:
        tables = round_tables(_round(request, tournament))
        rules = ruleset_named(tournament.preset, tournament.options)
    except Refused as exc:
        return _refused(request, tournament, exc.message)
    except (RuleSetRefused, EngineError):  # a stored rule set the engine no longer takes
        return _refused(request, tournament, _("This tournament's rules cannot be read: no score sheet."))
    sheet = sheet_for(rules)
    return render(
        request,
        "print/score_sheets.html",
        _context(tournament, tables, sheet=sheet, hands=range(1, sheet.rows + 1), rules=rules),
    )


@require_safe
def table_link(request: HttpRequest, table_id: int) -> HttpResponse:
    """Where a table's short address leads (see the module's docstring)."""
    table = linked_table(table_id)
    if table is None:
        raise Http404("No such table.")
    round_ = table.round
    tournament = round_.tournament
    recorder = is_recorder(request.user, tournament.club_id)
    physical = tournament.mode == Tournament.Mode.PHYSICAL
    if recorder and physical:
        return redirect(reverse("table-record", args=[table.pk]))
    hidden = tournament.status == Tournament.Status.DRAFT or round_.status == Round.Status.DRAFT
    if hidden and not recorder:
        raise Http404("No such table.")
    game = table.game
    if game is None:
        return redirect(reverse("public-tournament", args=[tournament.pk]))
    if not physical and game.seats_of(getattr(request.user, "pk", None)):
        return redirect(reverse("game-play", args=[game.pk]))
    return redirect(reverse("game-page", args=[game.pk]))


urlpatterns = [
    path("t/<int:table_id>", table_link, name="table-link"),
    path("tournaments/<int:tournament_id>/print/pairings", pairings, name="print-pairings"),
    path("tournaments/<int:tournament_id>/print/standings", standings_sheet, name="print-standings"),
    path("tournaments/<int:tournament_id>/print/slips", slips, name="print-slips"),
    path("tournaments/<int:tournament_id>/print/score-sheets", score_sheets, name="print-score-sheets"),
]
