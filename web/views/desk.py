"""The director's desk: the club page, the tournament form, registrations, rounds
(generate, preview, swap or move, publish), round control with each table's live
status, corrections at a table, and closing.

Every write goes through ``league.services`` (tournaments, registrations, rounds) or
the one submit path, ``games.services.submit_as`` (corrections); who may open the desk is
``league.access``'s to say, and every refusal is worded by ``web.refusals``. Plain form posts work without
JavaScript (POST, redirect, GET); with htmx the desk swaps only its own part of the
page. Each form carries its own key: corrections hand it to ``submit_command`` as the
idempotency key, the league's writes run through :func:`web.once.once`."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

import engine
from core import DomainError
from engine import GameState
from engine.errors import EngineError
from games import selectors as game_selectors
from games import services as game_services
from games import store
from games.models import Game, Source
from league import clock, limits, services
from league.access import is_director, require_director
from league.limits import LATE_FIELDS
from league.models import Club, Player, Registration, Round, Table, Tournament
from league.results import finished_tournaments
from league.seating import notes as say
from league.seating.notes import note_of
from league.selectors import RoundTable, round_tables, visible_tournaments
from league.wording import change_text, notes_text, round_names
from web.corrections import CODES as CORRECTION_CODES
from web.corrections import correction_action, correction_change, word_change
from web.desk_forms import TournamentForm, initial_of, shown_default
from web.forms import BadField, posted_key, posted_text, posted_whole
from web.once import Outcome, once
from web.recording import effective, last_entry
from web.refusals import words
from web.views.desk_corrections import hands_context
from web.words import describe, game_status_text, points_text, score_text, seat_name

Action = Callable[[], Outcome]


# --- helpers ------------------------------------------------------------------------------


def _tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), pk=pk)


def _director_tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = _tournament(pk)
    require_director(request.user, tournament.club_id)
    return tournament


def desk_url(tournament: Tournament, anchor: str = "") -> str:
    return reverse("desk", args=[tournament.pk]) + (f"#{anchor}" if anchor else "")


def _act(request: HttpRequest, scope: str, action: Action, fallback: str) -> HttpResponse:
    """Run a league write once per form; a refusal is shown as a message (nothing changed)."""
    try:
        outcome = once(request, scope, action)
    except DomainError as exc:  # league.services.LeagueError among them
        messages.error(request, words(exc))
        return redirect(fallback)
    if outcome.message:
        messages.success(request, outcome.message)
    return redirect(outcome.location)


_POINTS = re.compile(r"^-?\d{1,6}(?:/\d{1,6}|\.\d{1,3})?$")


def _refused(request: HttpRequest, exc: BadField, back: str) -> HttpResponse:
    """A bad posted field: said (naming the field), nothing changed."""
    messages.error(request, exc.message)
    return redirect(back)


def _htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


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


# --- the tournament form ------------------------------------------------------------------


def _options_partial(request: HttpRequest, form: TournamentForm) -> HttpResponse:
    return render(request, "desk/_options.html", {"form": form})


@login_required
def tournament_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    require_director(request.user, club.pk)
    if request.method == "GET":
        form = TournamentForm(preset=request.GET.get("preset") or None)
        if _htmx(request) and request.GET.get("preset"):
            return _options_partial(request, form)
        return render(request, "desk/tournament_form.html", {"form": form, "club": club, "tournament": None})
    if request.method != "POST":
        return HttpResponse(status=405)
    form = TournamentForm(request.POST)
    if form.preset_changed:
        form = form.with_new_preset()
        return render(request, "desk/tournament_form.html", {"form": form, "club": club, "tournament": None})
    if form.is_valid():

        def create() -> Outcome:
            with transaction.atomic():
                tournament = services.create_tournament(club, form.service_data(), request.user)
                if form.cleaned_data.get("round_minutes") is not None:
                    clock.set_round_minutes(tournament, form.cleaned_data["round_minutes"], request.user)
            return Outcome(
                desk_url(tournament), f"Tournament “{tournament.name}” created. Register its players."
            )

        try:
            outcome = once(request, "tournament-new", create)
        except DomainError as exc:
            form.add_service_error(exc)
        else:
            if outcome.message:
                messages.success(request, outcome.message)
            return redirect(outcome.location)
    return render(
        request, "desk/tournament_form.html", {"form": form, "club": club, "tournament": None}, status=400
    )


@login_required
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _director_tournament(request, pk)
    club = tournament.club
    locked = tournament.round_set.exists()
    context = {"club": club, "tournament": tournament}
    if tournament.status == Tournament.Status.FINISHED:
        messages.error(request, "The tournament is closed; its settings can no longer change.")
        return redirect(desk_url(tournament))
    if request.method == "GET":
        preset = request.GET.get("preset") or None
        form = TournamentForm(initial=initial_of(tournament), preset=preset, locked=locked, editing=True)
        if _htmx(request) and preset:
            return _options_partial(request, form)
        return render(request, "desk/tournament_form.html", {**context, "form": form})
    if request.method != "POST":
        return HttpResponse(status=405)
    form = TournamentForm(request.POST, initial=initial_of(tournament), locked=locked, editing=True)
    if form.preset_changed:
        return render(request, "desk/tournament_form.html", {**context, "form": form.with_new_preset()})
    if form.is_valid():
        changes = form.changes_from(tournament)
        if locked:
            changes = {k: v for k, v in changes.items() if k in LATE_FIELDS}

        minutes = form.cleaned_data.get("round_minutes") or tournament.round_minutes

        def update() -> Outcome:
            if changes or minutes != tournament.round_minutes:
                with transaction.atomic():
                    if changes:
                        services.update_tournament(tournament, changes, request.user)
                    if minutes != tournament.round_minutes:
                        clock.set_round_minutes(tournament, minutes, request.user)
                return Outcome(desk_url(tournament), "Settings saved.")
            return Outcome(desk_url(tournament), "Nothing was changed.")

        try:
            outcome = once(request, "tournament-edit", update)
        except DomainError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, outcome.message)
            return redirect(outcome.location)
    return render(request, "desk/tournament_form.html", {**context, "form": form}, status=400)


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
        SeatRow(seat.player_id, seat.name if seat.player_id is not None else f"{seat.bot} bot", seat.bot)
        for seat in table.seats
    ]


def live_status(state: GameState | None) -> tuple[str, str, int, list[str]]:
    """A table's progress (playing, result: waiting for it, complete), its game's status
    in words, its hand number and its running scores, from the game's public view (no
    card is read). ``state``: the table's game, None before it is opened."""
    if state is None:
        return "playing", game_status_text(""), 0, []
    public = engine.view(state, None)
    scores = [score_text(s) for s in public.scores]
    label = game_status_text(state.status)
    if state.status in game_services.FINAL_STATUSES:
        return "complete", label, public.hand_number, scores
    if state.status == "showdown":
        # a physical showdown waits for the revealed hands (or the hand's result)
        return "result", label, public.hand_number, scores
    return "playing", label, public.hand_number, scores


def _table_rows(round_: Round, *, live: bool) -> list[TableRow]:
    """The round's tables (:func:`league.selectors.round_tables`) and, ``live``, each
    game's progress from its cached state: a fixed number of queries."""
    tables = round_tables([round_.pk])[round_.pk]
    games = [t.game_id for t in tables if t.game_id is not None]
    states = game_selectors.current_states(games) if live else {}
    names = round_names(round_.request)
    rows = []
    for table in tables:
        row = TableRow(table, _seat_rows(table), notes_text(table.notes, names))
        if live and table.game_id is not None:
            row.status, row.label, row.hand, row.scores = live_status(states.get(table.game_id))
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
    pick = _int(request.GET.get("pick"))
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
        "why_no_round": " ".join(b.advice for b in blockers),
        "may_force": bool(blockers) and all(b.overridable for b in blockers),
        "draft": draft,
        "finished": tournament.status == Tournament.Status.FINISHED,
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


def _changed_options(tournament: Tournament) -> list[str]:
    """The rule options that differ from the preset's defaults, in words."""
    try:
        defaults = engine.get_ruleset(tournament.preset).options()
    except EngineError:
        return []
    return [
        f"{name.replace('_', ' ')}: {shown_default(value)}"
        for name, value in tournament.options.items()
        if defaults.get(name) != value
    ]


def _exports(tournament: Tournament) -> list[tuple[str, str]]:
    """The standings CSV and the tournament archive (docs/standings.md, docs/archive.md)."""
    return [
        ("Standings (CSV)", reverse("tournament-standings-csv", args=[tournament.pk])),
        ("Tournament archive (JSON)", reverse("tournament-archive", args=[tournament.pk])),
    ]


@login_required
@require_GET
def desk(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _director_tournament(request, pk)
    return render(request, "desk/desk.html", _desk_context(request, tournament))


@login_required
@require_GET
def live_tables(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Round control's table statuses: the part of the desk htmx polls."""
    tournament = _director_tournament(request, pk)
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
    """What round control shows changes only with the round's status or a game's
    version (every entry, correction or replaced seat is an event): one query."""
    versions = round_.tables.order_by("number").values_list("game_id", "game__version")
    return f'"{round_.status}:' + ",".join(f"{game}.{version}" for game, version in versions) + '"'


# --- registrations ------------------------------------------------------------------------


@login_required
@require_POST
def register(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _director_tournament(request, pk)
    check_in = request.POST.get("check_in") == "on"
    try:
        name = posted_text(request.POST, "name", "The player's name", limits.PLAYER_NAME_LENGTH)
        from_round = posted_whole(
            request.POST, "from_round", "The first round", 1, limits.MAX_ROUNDS, required=False
        )
    except BadField as exc:
        return _refused(request, exc, desk_url(tournament, "registrations"))
    if not name:
        messages.error(request, "Type the player's name.")
        return redirect(desk_url(tournament, "registrations"))

    def add() -> Outcome:
        registration = services.register(tournament, name=name, from_round=from_round)
        said = f"{registration.player.name} registered"
        if registration.from_round > 1:
            said += f" (a late entry, from round {registration.from_round})"
        if check_in:
            services.set_registration_status(registration, Registration.Status.CHECKED_IN)
            said += " and checked in"
        return Outcome(desk_url(tournament, "registrations"), said + ".")

    return _act(request, "register", add, desk_url(tournament, "registrations"))


STATUS_WORDS: dict[str, str] = {
    Registration.Status.CHECKED_IN: "checked in",
    Registration.Status.REGISTERED: "no longer checked in",
    Registration.Status.DROPPED: "dropped out",
    Registration.Status.WITHDRAWN: "withdrawn",
}


@login_required
@require_POST
def registration_status(request: HttpRequest, pk: int, registration_id: int) -> HttpResponse:
    """Check in, undo a check-in, drop out or withdraw: the posted status is the one
    wanted (not a toggle), so sending it twice changes nothing more."""
    tournament = _director_tournament(request, pk)
    registration = get_object_or_404(
        Registration.objects.select_related("player", "tournament"), pk=registration_id, tournament=tournament
    )
    status = request.POST.get("status", "")
    back = desk_url(tournament, "registrations")

    def change() -> Outcome:
        services.set_registration_status(registration, status)
        return Outcome(back, f"{registration.player.name}: {STATUS_WORDS.get(status, status)}.")

    return _act(request, f"registration-{registration.pk}", change, back)


@login_required
@require_POST
def check_in_all(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _director_tournament(request, pk)
    back = desk_url(tournament, "registrations")

    def check_in() -> Outcome:
        waiting = list(tournament.registrations.filter(status=Registration.Status.REGISTERED))
        for registration in waiting:
            services.set_registration_status(registration, Registration.Status.CHECKED_IN)
        return Outcome(back, f"{len(waiting)} player{'s' if len(waiting) != 1 else ''} checked in.")

    return _act(request, "check-in-all", check_in, back)


# --- rounds -------------------------------------------------------------------------------


@login_required
@require_POST
def generate(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _director_tournament(request, pk)
    back = desk_url(tournament, "rounds")
    try:
        reason = posted_text(request.POST, "force_reason", "The reason", limits.REASON_LENGTH, lines=True)
    except BadField as exc:
        return _refused(request, exc, back)

    def make() -> Outcome:
        # say why first, in the desk's words, for the rules generate_round enforces and
        # the one only the desk does (too few players); a reason overrides a round still
        # in play (a repeated form never gets here: once() answers it as the first post)
        for blocker in services.round_blockers(tournament):
            if not (blocker.overridable and reason):
                raise services.LeagueError(blocker.code, blocker.advice, blocker.status)
        manual = services.manual_start(tournament)  # None unless the director seats by hand
        round_ = services.generate_round(tournament, request.user, force_reason=reason, manual=manual)
        sizes = "+".join(str(len(t.seats)) for t in round_tables([round_.pk])[round_.pk])
        byes = f", {len(round_.byes)} bye{'s' if len(round_.byes) != 1 else ''}" if round_.byes else ""
        return Outcome(back, f"Round {round_.number} generated as a draft: tables of {sizes}{byes}.")

    return _act(request, "generate", make, back)


def _draft(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


@login_required
@require_POST
def edit_round(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Swap two players, move one to a table, or give one a bye (the second click)."""
    tournament = _director_tournament(request, pk)
    round_ = _draft(tournament, number)
    back = desk_url(tournament, "rounds")
    edits: dict[str, Any]
    post = request.POST
    try:
        if post.get("op") == "swap":
            player = posted_whole(post, "player", "The player", 1, limits.MAX_ID)
            edits = {"swap": [player, posted_whole(post, "with", "The other player", 1, limits.MAX_ID)]}
        elif post.get("op") == "move":
            player = posted_whole(post, "player", "The player", 1, limits.MAX_ID)
            # "bye", or a table's number: anything else is refused, never read as a bye
            table = (
                None
                if post.get("table") == "bye"
                else posted_whole(post, "table", "The table", 1, limits.MAX_TABLES)
            )
            edits = {"move": {"player": player, "table": table}}
        else:
            raise BadField("op", "Choose a player, then where they go.")
    except BadField as exc:
        return _refused(request, exc, back)

    def edit() -> Outcome:
        edited = services.edit_draft(round_, edits, request.user)
        notes = [note_of(n) for n in edited.notes]
        change = next((n for n in reversed(notes) if n.code in say.EDITS), None)
        if change is None:
            return Outcome(back, gettext("Round %(number)d edited.") % {"number": number})
        said = change_text(change, round_names(edited.request))
        return Outcome(back, gettext("Round %(number)d %(change)s.") % {"number": number, "change": said})

    return _act(request, f"edit-{round_.pk}", edit, back)


@login_required
@require_POST
def publish(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = _director_tournament(request, pk)
    round_ = _draft(tournament, number)
    back = desk_url(tournament, "rounds")
    try:
        reason = (
            posted_text(request.POST, "edit_reason", "The reason", limits.REASON_LENGTH, lines=True)
            if "edit_reason" in request.POST
            else None
        )
    except BadField as exc:
        return _refused(request, exc, back)

    def go() -> Outcome:
        published = services.publish_round(round_, request.user, edit_reason=reason)
        tables = published.tables.count()
        return Outcome(
            back, f"Round {number} published: {tables} table{'s' if tables != 1 else ''} can start playing."
        )

    return _act(request, f"publish-{round_.pk}", go, back)


@login_required
def close(request: HttpRequest, pk: int) -> HttpResponse:
    """Close the tournament, after a confirmation page."""
    tournament = _director_tournament(request, pk)
    if request.method == "GET":
        return render(request, "desk/close.html", {"tournament": tournament, "club": tournament.club})
    if request.method != "POST":
        return HttpResponse(status=405)

    def finish() -> Outcome:
        services.close_tournament(tournament, request.user)
        return Outcome(desk_url(tournament), f"“{tournament.name}” is closed. Nothing can change any more.")

    return _act(request, "close", finish, desk_url(tournament))


# --- corrections --------------------------------------------------------------------------

# The fields of the correction forms that a refusal is shown under.
SHOWN_FIELDS = frozenset({"reason", "seat", "points", "name"})
# A game's version in a posted form: more than any game reaches.
MAX_VERSION = 10**9
KINDS = {
    "retract": "Undo the last entry",
    "adjust": "Adjust a score",
    "replace": "Replace a seat",
    "abandon": "Abandon the game",
}


def _table(tournament: Tournament, table_id: int) -> Table:
    table = get_object_or_404(
        Table.objects.select_related("round", "game"), pk=table_id, round__tournament=tournament
    )
    if table.game is None:
        raise Http404("this table has no game yet: its round is a draft")
    return table


def corrections_made(game: Game) -> list[dict[str, Any]]:
    """The corrections in the game's log: what, by whom, when, and why. Their data are a
    seat, points, a name and a reason, a corrected hand's result: no card of a hand in play."""
    log = game_selectors.game_rows(game)
    rows = [row for row in log if row.type in CORRECTION_CODES]
    users = get_user_model().objects.in_bulk({row.actor_id for row in rows if row.actor_id is not None})
    names = [str(s["name"]) for s in game.seats]
    made = []
    for row in rows:
        data = row.data
        actor = users.get(row.actor_id) if row.actor_id is not None else None
        # a corrected hand's new score follows it
        scored = log[row.seq].data if row.type == "HandCorrected" and row.seq < len(log) else None
        change = correction_change(row.type, data, scored)
        made.append(
            {
                "what": correction_action(row.type),
                "change": change,
                "detail": word_change(change, names),
                "reason": data.get("reason", ""),
                "by": actor.get_username() if actor is not None else "the system",
                "at": row.recorded_at,
                "seq": row.seq,
            }
        )
    return made


def _seat_name(game: Game, seat: Any) -> str:
    return seat_name([str(s["name"]) for s in game.seats], seat)


def _last_entry(game: Game) -> str:
    """The last entry in effect, in words, from the public (redacted) form of the log: the
    move that began it (a hand's result, say, with the scoring and game end it caused)."""
    entry = _last_events(game)
    if not entry:
        return ""
    return describe(entry[0], [str(s["name"]) for s in game.seats]).rstrip(".")


def _last_events(game: Game) -> list[Any]:
    """The events of the last entry in effect (public form): what "undo" undoes together."""
    if game.version <= 1:
        return []
    events, _ = game_selectors.viewer_events(game, after=0, seat=None)
    return last_entry(effective(events)[0])


def _undo_refused(game: Game) -> str:
    """Why the last entry cannot be undone ('' when it can): the page offers only what the
    engine would accept (a digital deal is never undone, for one)."""
    count = len(_last_events(game))
    if not count:
        return ""
    try:
        # a retraction goes back through the game's history, which only a full replay has
        engine.decide(store.load_state(game, use_cache=False), engine.Retract(count, "asked by the desk"))
    except EngineError as exc:
        return words(exc, [str(s["name"]) for s in game.seats], page="desk")
    return ""


def _command(kind: str, post: Any, game: Game) -> tuple[dict[str, Any], str]:
    """The engine command a correction form asks for, and the sentence confirming it.
    Malformed input raises :class:`BadField` naming the field, with a message for it."""
    reason = posted_text(post, "reason", "The reason", limits.REASON_LENGTH, lines=True)
    # the engine's ReplaceSeat carries no reason: the log says who took the seat, and who did it
    if not reason and kind != "replace":
        raise BadField("reason", "Say why: a correction needs a reason.")
    seat = None
    if kind in ("adjust", "replace"):
        seat = posted_whole(post, "seat", "The seat", 0, len(game.seats) - 1, required=False)
        if seat is None:
            raise BadField("seat", "Choose a seat.")
    if kind == "retract":
        # the whole entry: a hand's result with the scoring and the game end it caused
        count = max(1, len(_last_events(game)))
        return {"type": "Retract", "count": count, "reason": reason}, "Undo the last entry"
    if kind == "abandon":
        return {"type": "AbandonGame", "reason": reason}, "Abandon the game (it ends without a result)"
    if kind == "adjust":
        text = str(post.get("points", "")).strip()
        try:
            if not _POINTS.match(text):
                raise ValueError(text)
            amount = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise BadField(
                "points", "Points are a whole number or a fraction, like -10, 5/2 or 2.5."
            ) from None
        if amount == 0:
            raise BadField("points", "An adjustment of 0 changes nothing.")
        assert seat is not None
        return (
            {"type": "AdjustScore", "seat": seat, "points": str(amount), "reason": reason},
            f"Adjust {_seat_name(game, seat)}'s score by {points_text(amount)}",
        )
    if kind == "replace":
        name = posted_text(post, "name", "The name", limits.PLAYER_NAME_LENGTH)
        if not name:
            raise BadField(
                "name", f"Name the player taking the seat (1 to {limits.PLAYER_NAME_LENGTH} characters)."
            )
        assert seat is not None
        return (
            {"type": "ReplaceSeat", "seat": seat, "name": name, "bot": None},
            f"Give {_seat_name(game, seat)}'s seat to {name}",
        )
    raise BadField("kind", "Choose a correction.")


def _table_context(tournament: Tournament, table: Table) -> dict[str, Any]:
    assert table.game is not None
    status, label, hand, scores = live_status(store.load_state(table.game))
    return {
        "tournament": tournament,
        "club": tournament.club,
        "table": table,
        "game": table.game,
        "status": status,
        "label": label,
        "hand": hand,
        "seats": list(
            zip([s["name"] for s in table.game.seats], scores or [""] * len(table.game.seats), strict=False)
        ),
        "corrections": corrections_made(table.game),
        "last_entry": _last_entry(table.game),
        "undo_refused": _undo_refused(table.game),
        "over": table.game.status in game_services.FINAL_STATUSES,
        "kinds": KINDS,
        **hands_context(tournament, table),
    }


@login_required
def table_corrections(request: HttpRequest, pk: int, table_id: int) -> HttpResponse:
    """A table's corrections: the forms (each confirmed on a second page) and those made."""
    tournament = _director_tournament(request, pk)
    table = _table(tournament, table_id)
    context = _table_context(tournament, table)
    if request.method == "GET":
        return render(request, "desk/table.html", context)
    if request.method != "POST":
        return HttpResponse(status=405)
    game = table.game
    assert game is not None
    kind = request.POST.get("kind", "")
    try:
        command, sentence = _command(kind, request.POST, game)
        version = posted_whole(request.POST, "version", "The version", 0, MAX_VERSION, required=False)
    except BadField as exc:
        return render(
            request,
            "desk/table.html",
            # under its field when the form shows one, else above the forms
            {
                **context,
                "error": exc.message,
                "error_kind": kind,
                "error_field": exc.field if exc.field in SHOWN_FIELDS else "",
            },
            status=400,
        )
    if request.POST.get("confirmed") != "yes":
        # The confirmation: the same correction, with the version it was decided on.
        return render(
            request,
            "desk/confirm.html",
            {**context, "command": command, "sentence": sentence, "kind": kind, "post": request.POST},
        )
    back = reverse("desk-table", args=[tournament.pk, table.pk])
    try:
        result = game_services.submit_as(
            request.user,
            game,
            command,
            expected_version=version if version is not None else game.version,
            idempotency_key=posted_key(request, f"correct-{game.pk}"),
            source=Source.WEB,
        )
    except game_services.VersionConflict as exc:
        messages.error(request, words(exc, page="desk"))
        return redirect(back)
    except DomainError as exc:
        names = [str(seat["name"]) for seat in game.seats]
        return render(
            request,
            "desk/table.html",
            {
                **_table_context(tournament, table),
                "error": words(exc, names, page="desk"),
                "error_kind": kind,
            },
            status=409,
        )
    if not result.replayed and game.status in game_services.FINAL_STATUSES:
        # the outbox task does this too; doing it here shows the round complete at once
        services.game_ended(game.pk)
    messages.success(
        request, f"Table {table.number}: {sentence[0].lower()}{sentence[1:]} — done by {request.user}."
    )
    return redirect(back)


urlpatterns = [
    path("clubs/<slug:slug>/", club_page, name="club"),
    path("clubs/<slug:slug>/tournaments/new", tournament_new, name="tournament-new"),
    path("tournaments/<int:pk>/desk", desk, name="desk"),
    path("tournaments/<int:pk>/edit", tournament_edit, name="tournament-edit"),
    path("tournaments/<int:pk>/desk/register", register, name="desk-register"),
    path("tournaments/<int:pk>/desk/check-in-all", check_in_all, name="desk-check-in-all"),
    path(
        "tournaments/<int:pk>/desk/registrations/<int:registration_id>",
        registration_status,
        name="desk-registration",
    ),
    path("tournaments/<int:pk>/desk/rounds", generate, name="desk-generate"),
    path("tournaments/<int:pk>/desk/rounds/<int:number>/edit", edit_round, name="desk-edit-round"),
    path("tournaments/<int:pk>/desk/rounds/<int:number>/publish", publish, name="desk-publish"),
    path("tournaments/<int:pk>/desk/rounds/<int:number>/live", live_tables, name="desk-live"),
    path("tournaments/<int:pk>/desk/tables/<int:table_id>", table_corrections, name="desk-table"),
    path("tournaments/<int:pk>/desk/close", close, name="desk-close"),
]
