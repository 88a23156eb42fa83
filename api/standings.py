"""The standings read API: public, as of any moment on two timelines, JSON and CSV."""

from __future__ import annotations

import csv
import io
import re
from datetime import datetime
from typing import Any

from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from api.views import ApiView, error_responses
from core import DomainError, Kind
from league.access import access_tournament_by_id
from league.figures import decimal_text
from league.models import Registration, Tournament
from league.projection import (
    CORRECTED,
    RECORDED,
    Moment,
    check_after_round,
    read_standings,
    standings_changes,
)
from league.standings import REGISTRY, StandingsError

MAX_ROUND = 10**4
MAX_POSITION = 2**62
_DIGITS = re.compile(r"\A[0-9]{1,19}\Z")

PARAMETERS = [
    OpenApiParameter(
        "after_round",
        {"type": "integer", "minimum": 0, "maximum": MAX_ROUND},
        OpenApiParameter.QUERY,
        description="Only the games of rounds up to this one",
    ),
    OpenApiParameter(
        "timeline",
        {"type": "string", "enum": [CORRECTED, RECORDED]},
        OpenApiParameter.QUERY,
        description="corrected (default): every event, later corrections included; "
        "recorded: only what was recorded up to `at`",
    ),
    OpenApiParameter(
        "at",
        OpenApiTypes.STR,
        OpenApiParameter.QUERY,
        description="With timeline=recorded: an ISO 8601 time with its offset, or a global event position",
    ),
]


def _params(request: Request, *, also: frozenset[str] = frozenset()) -> dict[str, Any]:
    query = request.query_params
    unknown = sorted(set(query) - {"after_round", "timeline", "at"} - also)
    if unknown:
        raise DomainError("unknown_parameter", f"unknown query parameter(s): {', '.join(unknown)}")
    after_round: int | None = None
    raw = query.get("after_round")
    if raw is not None:
        if not _DIGITS.match(raw) or int(raw) > MAX_ROUND:
            raise DomainError(
                "invalid_after_round", f"after_round is a round number 0..{MAX_ROUND}, not {raw[:40]!r}"
            )
        after_round = int(raw)
    timeline = query.get("timeline", CORRECTED)
    if timeline not in (CORRECTED, RECORDED):
        raise DomainError("invalid_timeline", f"timeline is corrected or recorded, not {timeline[:40]!r}")
    at: Moment | None = None
    raw_at = query.get("at")
    if raw_at is not None:
        if timeline != RECORDED:
            raise DomainError("at_needs_recorded", "at= reads the recorded timeline: add timeline=recorded")
        at = _moment(raw_at)
    return {"after_round": after_round, "timeline": timeline, "at": at}


def _moment(raw: str) -> Moment:
    if _DIGITS.match(raw):
        position = int(raw)
        if position > MAX_POSITION:
            raise DomainError("invalid_at", f"at is a position up to {MAX_POSITION} or an ISO time")
        return Moment(position=position)
    try:
        when = datetime.fromisoformat(raw.replace("Z", "+00:00").replace(" ", "+"))
    except ValueError:
        raise DomainError(
            "invalid_at",
            f"at is an ISO 8601 time (with its UTC offset) or an event position, not {raw[:60]!r}",
        ) from None
    if timezone.is_naive(when):
        raise DomainError("invalid_at", "at needs a UTC offset (such as Z or +01:00)")
    return Moment(time=when)


def _unusable(exc: StandingsError) -> DomainError:
    """Stored settings the standings cannot use: the tournament's state is at fault, not
    the request."""
    return DomainError(
        exc.code, f"the tournament's standings settings are unusable: {exc}", kind=Kind.CONFLICT
    )


def _document(
    tournament: Tournament, request: Request, *, also: frozenset[str] = frozenset()
) -> dict[str, Any]:
    # A StandingsQueryError (a moment outside the log) is the request's: it passes as it is.
    params = _params(request, also=also)
    # standings "after round 7" of a tournament of 3 rounds: refused, not those after round 3
    check_after_round(tournament.pk, params["after_round"])
    try:
        return read_standings(tournament, **params)
    except StandingsError as exc:
        raise _unusable(exc) from exc


class TournamentStandingsView(ApiView):
    permission_classes: list[Any] = []

    @extend_schema(
        operation_id="tournaments_standings",
        parameters=PARAMETERS,
        responses={200: OpenApiTypes.OBJECT, **error_responses(400, 404)},
        summary="The tournament's standings, as of any round or moment (public)",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(_document(access_tournament_by_id(request.user, tournament_id), request))


# The CSV's two forms (docs/standings.md): ``decimal=point`` (the default: commas between
# cells, a point in numbers) and ``decimal=comma`` (semicolons between cells, a comma in
# numbers: what a French-language spreadsheet opens as numbers).
CSV_FORMS = {"point": (",", "."), "comma": (";", ",")}
CSV_PARAMETERS = [
    *PARAMETERS,
    OpenApiParameter(
        "decimal",
        {"type": "string", "enum": list(CSV_FORMS)},
        OpenApiParameter.QUERY,
        description="point (default): comma-separated, decimal points; "
        "comma: semicolon-separated, decimal commas (French spreadsheets)",
    ),
]


def registration_status(registration: Registration | None) -> str:
    """A player's registration as the CSV's status column says it."""
    if registration is None:
        return ""
    if registration.status == Registration.Status.DROPPED:
        if registration.dropped_after:
            return _("dropped after round %(round)s") % {"round": registration.dropped_after}
        return _("dropped")
    words = {
        Registration.Status.CHECKED_IN.value: _("checked in"),
        Registration.Status.REGISTERED.value: _("registered"),
        Registration.Status.WITHDRAWN.value: _("withdrawn"),
    }
    return words.get(str(registration.status), str(registration.status))


class TournamentStandingsCsvView(ApiView):
    permission_classes: list[Any] = []

    @extend_schema(
        operation_id="tournaments_standings_csv",
        parameters=CSV_PARAMETERS,
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="One row per player"),
            **error_responses(400, 404),
        },
        summary="The standings as CSV, with the JSON's parameters (public)",
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        tournament = access_tournament_by_id(request.user, tournament_id)
        form = request.query_params.get("decimal", "point")
        if form not in CSV_FORMS:
            raise DomainError(
                "invalid_decimal", f"decimal is point or comma, not {form[:40]!r}", field="decimal"
            )
        separator, point = CSV_FORMS[form]
        document = _document(tournament, request, also=frozenset({"decimal"}))
        tiebreaks: list[str] = [name for name in document["tiebreaks"] if REGISTRY[name].shown]
        registrations = {
            r.player_id: r
            for r in Registration.objects.filter(tournament=tournament).only(
                "player_id", "status", "dropped_after"
            )
        }

        def number(value: Any) -> str:
            return "" if value is None else decimal_text(value, point=point)

        out = io.StringIO()
        writer = csv.writer(out, delimiter=separator, lineterminator="\n")
        writer.writerow(
            [
                "rank",
                "player_id",
                "player",
                "status",
                "points",
                "played",
                "byes",
                "abandoned",
                "replaced",
                "in_play",
                "qualified",
                "rating_ordinal",
                *tiebreaks,
            ]
        )
        for row in document["rows"]:
            writer.writerow(
                [
                    "" if row["rank"] is None else row["rank"],
                    row["player"]["id"],
                    _cell(row["player"]["name"]),
                    registration_status(registrations.get(row["player"]["id"])),
                    number(row["points"]),
                    row["played"],
                    row["byes"],
                    row["abandoned"],
                    row["replaced"],
                    row["in_play"],
                    "yes" if row["qualified"] else "no",
                    _ordinal(row["rating"]["ordinal"]).replace(".", point),
                    *[number(row["tiebreaks"].get(t)) for t in tiebreaks],
                ]
            )
        suffix = "" if form == "point" else "-decimal-comma"
        response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = (
            f'attachment; filename="tournament-{tournament.pk}-standings{suffix}.csv"'
        )
        response["X-Current-To-Position"] = str(document["current_to"]["position"])
        return response


def _ordinal(value: float | None) -> str:
    """A rating ordinal to three decimals; empty before the player's first rated game."""
    return "" if value is None else f"{value:.3f}"


def _cell(text: str) -> str:
    """A name as a CSV cell that no spreadsheet runs as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


class TournamentStandingsChangesView(ApiView):
    permission_classes: list[Any] = []

    @extend_schema(
        operation_id="tournaments_standings_changes",
        responses={200: OpenApiTypes.OBJECT, **error_responses(400, 404)},
        summary="Every correction that changed the standings: who, when, why, and its effect (public)",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = access_tournament_by_id(request.user, tournament_id)
        if request.query_params:
            raise DomainError("unknown_parameter", "this list takes no query parameters")
        try:
            changes = standings_changes(tournament)
        except StandingsError as exc:
            raise _unusable(exc) from exc
        return Response({"tournament": tournament.pk, "changes": changes})
