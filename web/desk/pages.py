"""The desk's pages: the club page, the desk itself (registrations, the draft, round
control) and the part of round control htmx polls, with each table's live status read
from the standings projection's table views (:mod:`league.table_views`) and its game's
row: no game is replayed to list a round's tables."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import OuterRef, Subquery
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

import engine
from core import DomainError
from engine import GameState
from engine.errors import EngineError
from games import services as game_services
from league import services
from league.access import is_director
from league.models import Club, Player, Registration, Round, StandingsGame, Tournament
from league.results import finished_tournaments
from league.seating.notes import note_of
from league.selectors import RoundTable, round_tables, visible_tournaments
from league.table_views import TableView, tables_views
from league.wording import notes_text, round_names
from web.desk.common import director_tournament, whole_or_none
from web.desk.forms import method_label, option_label, shown_default
from web.refusals import words
from web.words import game_status_text, score_text

# --- the club page ------------------------------------------------------------------------


@require_GET
def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's tournaments and players, for everyone; links to the desk for directors."""
    club = get_object_or_404(Club, slug=slug)
    directs = is_director(request.user, club.pk)
    # a tournament in draft is listed to the club's staff only
    tournaments = list(visible_tournaments(request.user, club).order_by("-created_at", "-id"))
    for t in tournaments:
        t.public_url = reverse("public-tournament", args=[t.pk])  # type: ignore[attr-defined]
    return render(
        request,
        "desk/club.html",
        {
            "club": club,
            "tournaments": tournaments,
            "players": club.players.order_by("name"),
            "is_director": directs,
            "finished": finished_tournaments(club),
        },
    )


# --- the desk -----------------------------------------------------------------------------


@dataclass
class SeatRow:
    player_id: int | None
    name: str
    bot: str = ""


@dataclass
class TableRow:
    table: RoundTable
    seats: list[SeatRow]
    notes: list[str]
    status: str = ""
    label: str = ""
    hand: int = 0
    scores: list[str] = field(default_factory=list)
    record_url: str = ""
    game_url: str = ""


def _seat_rows(table: RoundTable) -> list[SeatRow]:
    return [
        SeatRow(
            seat.player_id,
            seat.name if seat.player_id is not None else gettext("%(bot)s bot") % {"bot": seat.bot},
            seat.bot,
        )
        for seat in table.seats
    ]


def live_status(state: GameState | None) -> tuple[str, str, int, list[str]]:
    """A table's progress (playing, result: waiting for it, complete), its game's status
    in words, its hand number and its running scores, from the game's public view (no
    card is read). ``state``: the table's game, None before it is opened."""
    if state is None:
        return "playing", game_status_text(""), 0, []
    public = engine.view(state, None)
    return _status(state.status, public.hand_number, public.scores)


def view_status(view: TableView | None, seats: int) -> tuple[str, str, int, list[str]]:
    """What :func:`live_status` says of a table, from its stored view
    (:func:`league.table_views.table_views`) rather than its game's replay: the same
    words, hand and scores (0 each until the projection has read the game)."""
    if view is None:
        return "playing", game_status_text(""), 0, []
    return _status(view.status, view.hand, view.scores or (Fraction(0),) * seats)


def _status(status: str, hand: int, scores: tuple[Fraction, ...]) -> tuple[str, str, int, list[str]]:
    shown = [score_text(s) for s in scores]
    label = game_status_text(status)
    if status in game_services.FINAL_STATUSES:
        return "complete", label, hand, shown
    if status == "showdown":
        # a physical showdown waits for the revealed hands (or the hand's result)
        return "result", label, hand, shown
    return "playing", label, hand, shown


def _table_rows(round_: Round, *, live: bool) -> list[TableRow]:
    """The round's tables (:func:`league.selectors.round_tables`) and, ``live``, each
    game's progress from its stored view and its row's status: a fixed number of
    queries, no event read."""
    tables = round_tables([round_.pk])[round_.pk]
    views = tables_views(tables) if live else {}
    names = round_names(round_.request)
    rows = []
    for table in tables:
        row = TableRow(table, _seat_rows(table), notes_text(table.notes, names))
        if live and table.game_id is not None:
            row.status, row.label, row.hand, row.scores = view_status(
                views.get(table.game_id), len(table.seats)
            )
            row.record_url = reverse("table-record", args=[table.pk])
            row.game_url = reverse("game-page", args=[table.game_id])
        rows.append(row)
    return rows


def _names(ids: list[int]) -> list[SeatRow]:
    players = {p.pk: p.name for p in Player.objects.filter(pk__in=ids)}
    return [SeatRow(p, players.get(p, f"#{p}")) for p in ids]


def _desk_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    registrations = list(tournament.registrations.select_related("player").order_by("player__name"))
    registered_ids = {r.player_id for r in registrations}
    rounds = list(tournament.round_set.select_related("created_by", "published_by").order_by("number"))
    last = rounds[-1] if rounds else None
    draft = last if last is not None and last.status == Round.Status.DRAFT else None
    current = next((r for r in reversed(rounds) if r.status != Round.Status.DRAFT), None)
    blockers = services.round_blockers(tournament, rounds)
    pick = whole_or_none(request.GET.get("pick"))
    context: dict[str, Any] = {
        "tournament": tournament,
        "club": tournament.club,
        "registrations": registrations,
        "counts": {
            status: sum(1 for r in registrations if r.status == status)
            for status in Registration.Status.values
        },
        "club_players": [
            p.name for p in tournament.club.players.order_by("name") if p.pk not in registered_ids
        ],
        "rounds": rounds,
        "next_number": (last.number if last else 0) + 1,
        "why_no_round": " ".join(words(DomainError(b.code, b.advice, params=b.params)) for b in blockers),
        "may_force": bool(blockers) and all(b.overridable for b in blockers),
        "draft": draft,
        "finished": tournament.status == Tournament.Status.FINISHED,
        "badge": status_badge(tournament, draft),
        "seating_label": method_label(tournament.seating),
        "options_changed": _changed_options(tournament),
        "exports": _exports(tournament),
    }
    if draft is not None:
        draft_tables = _table_rows(draft, live=False)
        seated = {seat.player_id for row in draft_tables for seat in row.seats}
        context.update(
            draft_tables=draft_tables,
            draft_notes=notes_text(map(note_of, draft.notes), round_names(draft.request)),
            draft_byes=_names(list(draft.byes)),
            departs=services.departs_from_generated(draft),
            draft_version=services.draft_version(
                [row.table.player_ids for row in draft_tables], list(draft.byes)
            ),
            pick=pick if pick in seated or pick in draft.byes else None,
        )
        if context["pick"] is not None:
            context["pick_name"] = (
                Player.objects.filter(pk=context["pick"]).values_list("name", flat=True).first()
            )
    if current is not None:
        context.update(
            current=current,
            current_tables=_table_rows(current, live=True),
            live_headers=json.dumps({"If-None-Match": _live_etag(current)}),
        )
        context["current_byes"] = _names(list(current.byes))
    return context


def status_badge(tournament: Tournament, draft: Round | None) -> dict[str, str]:
    """The desk's badge beside the tournament's name: what it is doing now. A draft
    round is named as such ("Round 1 (draft)"), not by the tournament's status
    (still "Registration" before the first round is published)."""
    if tournament.status == Tournament.Status.FINISHED:
        return {"text": tournament.get_status_display(), "tone": ""}
    if draft is not None:
        return {"text": gettext("Round %(number)s (draft)") % {"number": draft.number}, "tone": "warn"}
    running = tournament.status == Tournament.Status.RUNNING
    return {"text": tournament.get_status_display(), "tone": "ok" if running else "warn"}


def _changed_options(tournament: Tournament) -> list[str]:
    """The rule options that differ from the preset's defaults, in words."""
    try:
        defaults = engine.get_ruleset(tournament.preset).options()
    except EngineError:
        return []
    return [
        gettext("%(option)s: %(value)s") % {"option": option_label(name), "value": shown_default(value)}
        for name, value in tournament.options.items()
        if defaults.get(name) != value
    ]


def _exports(tournament: Tournament) -> list[tuple[str, str]]:
    """The standings CSV and the tournament archive (docs/standings.md, docs/archive.md)."""
    return [
        (gettext("Standings (CSV)"), reverse("tournament-standings-csv", args=[tournament.pk])),
        (gettext("Tournament archive (JSON)"), reverse("tournament-archive", args=[tournament.pk])),
    ]


@login_required
@require_GET
def desk(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = director_tournament(request, pk)
    return render(request, "desk/desk.html", _desk_context(request, tournament))


@login_required
@require_GET
def live_tables(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Round control's table statuses: the part of the desk htmx polls."""
    tournament = director_tournament(request, pk)
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    if round_.status == Round.Status.DRAFT:
        raise Http404("a draft round has no games yet")
    etag = _live_etag(round_)
    if request.headers.get("If-None-Match") == etag:
        unchanged = HttpResponseNotModified()
        unchanged["ETag"] = etag
        return unchanged
    response = render(
        request,
        "desk/_live.html",
        {
            "tournament": tournament,
            "current": round_,
            "current_tables": _table_rows(round_, live=True),
            "current_byes": _names(list(round_.byes)),
            "live_headers": json.dumps({"If-None-Match": etag}),
        },
    )
    response["ETag"] = etag
    return response


def _live_etag(round_: Round) -> str:
    """What round control shows changes only with the round's status, a game's version
    (every entry, correction or replaced seat is an event) or what the standings
    projection has read of a game (its scores and hands): one query."""
    read = StandingsGame.objects.filter(tournament_id=round_.tournament_id, game_id=OuterRef("game_id"))
    versions = (
        round_.tables.order_by("number")
        .annotate(read=Subquery(read.values("seq")[:1]))
        .values_list("game_id", "game__version", "read")
    )
    minute = timezone.now().strftime("%H%M")  # round progress's "playing for N min" moves on each minute
    tables = ",".join(f"{game}.{version}.{seq or 0}" for game, version, seq in versions)
    return f'"{round_.status}:{minute}:{tables}"'
