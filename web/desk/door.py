"""Registration at the door, on the director's desk (docs/running-a-tournament.md,
"Registration at the door"):

- ``/tournaments/<pk>/desk/door``: paste the names (one a line) or choose a CSV file
  (its ``name`` column); **preview** says what each line would do — a new club player,
  an existing one (case and accents aside), or nothing and why — and writes nothing;
  **confirm** registers them all at once (:func:`league.services.register_list`, one
  transaction), checked in if the box is ticked, once per form (:func:`web.once.once`);
- ``/tournaments/<pk>/desk/registrations/<id>/drop``: the step that confirms a drop-out
  before the desk's form sends it.

Only the club's directors (``league.access.require_director``); every refusal is worded
by :mod:`web.refusals` and changes nothing. Routes in :mod:`web.desk.urls`."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from core import DomainError
from league import limits, services
from league.models import Registration, Tournament
from league.services import ListPreview
from league.services import registration_lists as lists
from web.desk.common import desk_url, director_tournament
from web.forms import BadField, posted_whole
from web.once import Outcome, once
from web.refusals import page_status, words


def _registrations_url(tournament: Tournament) -> str:
    return desk_url(tournament, "registrations")


def _next_round(tournament: Tournament) -> int:
    last = tournament.round_set.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def reason_text(verdict: str, same_as_line: int | None, player_name: str) -> str:
    """Why a listed line registers nobody (or what it registers), for the preview."""
    if verdict == lists.NEW:
        return _("a new club player")
    if verdict == lists.EXISTING:
        return _("the club's %(name)s") % {"name": player_name}
    if verdict == lists.ALREADY_REGISTERED:
        return _("%(name)s is registered already") % {"name": player_name}
    if verdict == lists.DUPLICATE:
        return _("the same name as line %(line)s") % {"line": same_as_line}
    if verdict == lists.TOO_LONG:
        return _("longer than %(limit)s characters") % {"limit": limits.PLAYER_NAME_LENGTH}
    return _("not a name (control characters or no letters)")


def _context(tournament: Tournament, **more: Any) -> dict[str, Any]:
    rounds = tournament.round_set.exists()
    return {
        "tournament": tournament,
        "club": tournament.club,
        "late": rounds,
        "next_number": _next_round(tournament),
        "max_names": limits.MAX_LISTED_NAMES,
        "max_kilobytes": limits.MAX_LIST_BYTES // 1024,
        "check_in": True,
        "names": "",
        **more,
    }


def _refusal(
    request: HttpRequest, tournament: Tournament, error: str, status: int, **more: Any
) -> HttpResponse:
    return render(request, "desk/door.html", _context(tournament, error=error, **more), status=status)


@login_required
@require_GET
def door_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = director_tournament(request, pk)
    if tournament.status == Tournament.Status.FINISHED:
        closed = _("“%(name)s” is closed: nobody can register any more.") % {"name": tournament.name}
        return _refusal(request, tournament, closed, 409, closed=True)
    return render(request, "desk/door.html", _context(tournament))


def _from_round(request: HttpRequest) -> int | None:
    return posted_whole(
        request.POST, "from_round", _("The first round"), 1, limits.MAX_ROUNDS, required=False
    )


@login_required
@require_POST
def door_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """What registering the list would do; nothing is written."""
    tournament = director_tournament(request, pk)
    check_in = request.POST.get("check_in") == "on"
    text = str(request.POST.get("names", ""))
    kept = {"check_in": check_in, "names": text[: limits.MAX_LIST_BYTES]}
    try:
        from_round = _from_round(request)
        upload = request.FILES.get("file")
        if upload is not None and upload.size:
            if upload.size > limits.MAX_LIST_BYTES:
                raise services.LeagueError(
                    "list_too_long",
                    "the file is too large",
                    field="file",
                    params={"names": limits.MAX_LISTED_NAMES, "kilobytes": limits.MAX_LIST_BYTES // 1024},
                )
            lines, ignored = services.names_from_csv(upload.read())
        else:
            lines, ignored = services.names_from_text(text), ()
        preview = services.preview_list(tournament, lines, ignored)
    except BadField as exc:
        return _refusal(request, tournament, exc.message, 400, **kept)
    except DomainError as exc:
        return _refusal(request, tournament, words(exc), page_status(exc), **kept)
    if not preview.names:
        return _refusal(request, tournament, _("Type or paste at least one name, one a line."), 400, **kept)
    return render(
        request,
        "desk/door.html",
        _context(
            tournament,
            preview=preview,
            rows=_rows(preview),
            to_register="\n".join(listed.name for listed in preview.to_register),
            from_round=from_round,
            **kept,
        ),
    )


def _rows(preview: ListPreview) -> list[dict[str, Any]]:
    return [
        {
            "listed": listed,
            "reason": reason_text(listed.verdict, listed.same_as_line, listed.player_name),
        }
        for listed in preview.names
    ]


@login_required
@require_POST
def door_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """Register the previewed list, all at once; a second send of the same form registers
    nobody again and says what the first did."""
    tournament = director_tournament(request, pk)
    check_in = request.POST.get("check_in") == "on"
    back = reverse("desk-door", args=[tournament.pk])
    try:
        from_round = _from_round(request)
        lines = services.names_from_text(str(request.POST.get("names", "")))
    except BadField as exc:
        messages.error(request, exc.message)
        return redirect(back)
    except DomainError as exc:
        messages.error(request, words(exc))
        return redirect(back)

    def register_all() -> Outcome:
        result = services.register_list(tournament, lines, check_in=check_in, from_round=from_round)
        count = len(result.registrations)
        said = (
            ngettext(
                "%(count)s player registered and checked in",
                "%(count)s players registered and checked in",
                count,
            )
            if check_in
            else ngettext("%(count)s player registered", "%(count)s players registered", count)
        ) % {"count": count}
        if result.new_players:
            said += ngettext(
                " (%(new)s new to the club)", " (%(new)s new to the club)", result.new_players
            ) % {"new": result.new_players}
        return Outcome(_registrations_url(tournament), said + ".")

    try:
        outcome = once(request, f"door-{tournament.pk}", register_all)
    except DomainError as exc:
        messages.error(request, words(exc))
        return redirect(back)
    if outcome.message:
        messages.success(request, outcome.message)
    return redirect(outcome.location)


@login_required
@require_GET
def drop_page(request: HttpRequest, pk: int, registration_id: int) -> HttpResponse:
    """Confirm a drop-out: the player is seated in no later round."""
    tournament = director_tournament(request, pk)
    registration = get_object_or_404(
        Registration.objects.select_related("player"), pk=registration_id, tournament=tournament
    )
    if registration.status != Registration.Status.CHECKED_IN:
        messages.error(
            request,
            _("%(name)s is not checked in: there is nothing to drop.") % {"name": registration.player.name},
        )
        return redirect(_registrations_url(tournament))
    last = _next_round(tournament) - 1
    return render(
        request,
        "desk/drop.html",
        {"tournament": tournament, "club": tournament.club, "registration": registration, "after": last},
    )
