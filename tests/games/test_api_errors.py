"""api.errors: a refusal's kind decides its status, in one table; the body is the same
``{"code", "message", "detail"}`` whichever layer refused."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.test import APIRequestFactory

from api.errors import STATUS_OF_CODE, STATUS_OF_KIND
from api.views import ApiView
from core import DomainError, Kind
from engine import IllegalMove
from league.errors import LeagueError
from league.limits import OutOfLimits
from league.seating import SeatingError
from league.standings import StandingsError


class Refusing(ApiView):
    error: Exception = DomainError("x", "y")

    def get(self, request: Request) -> Response:
        raise self.error


def answer(error: Exception) -> Any:
    view = Refusing.as_view(error=error)
    return view(APIRequestFactory().get("/api/v1/anything"))


@pytest.mark.parametrize(
    ("kind", "status"),
    [
        (Kind.INVALID, 400),
        (Kind.UNAUTHENTICATED, 401),
        (Kind.FORBIDDEN, 403),
        (Kind.NOT_FOUND, 404),
        (Kind.CONFLICT, 409),
    ],
)
def test_each_kind_has_its_status(kind: Kind, status: int) -> None:
    response = answer(DomainError("some_code", "some words", kind=kind, field="f", params={"a": 1}))
    assert response.status_code == status == STATUS_OF_KIND[kind]
    # field and params are for the pages: the body is as it always was
    assert response.data == {"code": "some_code", "message": "some words", "detail": {}}


def test_every_kind_is_in_the_table_and_the_exceptions_are_beside_it() -> None:
    assert set(STATUS_OF_KIND) == set(Kind)
    assert STATUS_OF_CODE == {"idempotency_key_reused": 422, "request_too_large": 413}
    assert answer(DomainError("idempotency_key_reused", "used")).status_code == 422


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        (IllegalMove("it is seat 0's turn", "not_your_turn", params={"seat": 1}), 400, "not_your_turn"),
        (LeagueError("round_in_play", "a round is in play", 409), 409, "round_in_play"),
        (LeagueError("not_found", "no such player", 404), 404, "not_found"),
        (LeagueError("tournament_started", "too late", kind=Kind.CONFLICT), 409, "tournament_started"),
        (OutOfLimits("invalid_request", "rounds must be 1 to 100", field="rounds"), 400, "invalid_request"),
        (SeatingError("a knockout needs two players", "too_few_players"), 400, "too_few_players"),
        (StandingsError("unknown_tiebreak", "no such tiebreak"), 400, "unknown_tiebreak"),
    ],
    ids=["engine", "league-409", "league-404", "league-kind", "limits", "seating", "standings"],
)
def test_every_family_of_refusal_is_a_domain_error(error: DomainError, status: int, code: str) -> None:
    assert isinstance(error, DomainError)
    response = answer(error)
    assert (response.status_code, response.data["code"], response.data["message"]) == (
        status,
        code,
        str(error),
    )


def test_errors_that_concern_one_input_name_it() -> None:
    assert OutOfLimits("invalid_request", "x", field="table_size.min").field == "table_size.min"
    assert StandingsError("duplicate_tiebreak", "twice").field == "tiebreaks"
    assert LeagueError("unknown_method", "no such method").field == "seating"
    assert LeagueError("invalid_request", "x", field="rounds").field == "rounds"
