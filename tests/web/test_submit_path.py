"""One submit path: the API, the desk's corrections, the scorekeeper's page and the play
page all send a person's command through ``games.services.submit_as``, which checks who
may send it (``games.access``) before anything is decided; and every refusal they show is
worded by ``web.refusals`` — seats by the player's name, never by a seat number."""

from __future__ import annotations

import re
from collections.abc import Mapping
from html import unescape
from typing import Any

import pytest
from django.test import Client

import engine
from core import DomainError, Kind
from core.messages import Message
from games import access, services
from games.models import Game, GameEvent
from tests.support.games import client_for, new_game
from tests.support.record import Night, club_night
from web.refusals import refusal, words

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def visible_text(html: str) -> str:
    html = re.sub(r"<datalist.*?</datalist>", " ", html, flags=re.S)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


@pytest.fixture
def night(make_user: Any) -> Night:
    return club_night(make_user)


@pytest.fixture
def authorised(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The type of every command the one submit path authorised, in order."""
    seen: list[str] = []
    check = access.authorize_command

    def spy(game_access: access.GameAccess, command: Mapping[str, Any]) -> None:
        seen.append(str(command.get("type")))
        check(game_access, command)

    monkeypatch.setattr(services, "authorize_command", spy)
    return seen


def test_the_record_page_authorises_what_it_records(night: Night, authorised: list[str]) -> None:
    # The page used to hand its commands straight to submit_command, unauthorised.
    answer = signed_in(night.scorekeeper).post(
        night.url, {"action": "deal", "upcard": "7h", "version": "1", "idempotency_key": "record-deal-1"}
    )
    assert answer.status_code == 303
    assert authorised == ["DealHand"]


def test_the_desk_the_api_and_the_play_page_go_the_same_way(
    night: Night, authorised: list[str], ann: Any, bob: Any
) -> None:
    desk = f"/tournaments/{night.tournament.pk}/desk/tables/{night.table.pk}"
    fields = {"kind": "adjust", "seat": "1", "points": "-5", "reason": "slow play", "confirmed": "yes"}
    corrected = signed_in(night.director).post(
        desk, {**fields, "version": "1", "idempotency_key": "desk-adj-1"}
    )
    assert corrected.status_code == 302
    api = client_for(night.scorekeeper).post(
        f"/api/v1/games/{night.game.pk}/commands",
        {"expected_version": 2, "command": {"type": "DealHand", "upcard": "7H"}},
        format="json",
    )
    assert api.status_code == 201, api.json()
    game = new_game(ann, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(user_id=bob.pk)]).game
    played = signed_in(ann).post(f"/games/{game.pk}/play", {"move": "DrawFromStock", "version": "2"})
    assert played.status_code == 302
    assert authorised == ["AdjustScore", "DealHand", "DrawFromStock"]


def test_submit_as_refuses_before_anything_is_decided(night: Night, make_user: Any) -> None:
    stranger = make_user("stan")
    command = {"type": "DealHand", "upcard": "7H"}
    with pytest.raises(DomainError) as refused:
        services.submit_as(
            stranger, night.game.pk, command, expected_version=1, idempotency_key=None, source="web"
        )
    assert (refused.value.code, refused.value.kind) == ("permission_denied", Kind.FORBIDDEN)
    with pytest.raises(DomainError) as missing:
        services.submit_as(
            night.director, 10**9, command, expected_version=1, idempotency_key=None, source="web"
        )
    assert (missing.value.code, missing.value.kind) == ("not_found", Kind.NOT_FOUND)
    theirs = access.access_for(night.director, night.game, for_action="read")
    with pytest.raises(ValueError, match="another user's"):
        services.submit_as(
            night.scorekeeper, theirs, command, expected_version=1, idempotency_key=None, source="web"
        )
    assert GameEvent.objects.filter(game=night.game).count() == 1  # only the game's start


# --- the words -------------------------------------------------------------------------


def _record(night: Night, user: Any, **fields: str) -> Any:
    version = str(Game.objects.get(pk=night.game.pk).version)
    key = f"form-{len(fields)}-{sorted(fields.items())!s:.40}".replace(" ", "")
    data = {
        "version": version,
        "idempotency_key": re.sub(r"[^A-Za-z0-9_]", "", key)[:90] or "k" * 10,
        **fields,
    }
    return signed_in(user).post(night.url, data)


def test_a_card_entered_in_two_hands_is_refused_without_a_seat_number(night: Night) -> None:
    # The quick path before any deal: the scoring finds the card twice, in seats 0 and 2;
    # the page's rewording by pattern left "seats 0 and 2" as it was.
    refused = _record(
        night,
        night.scorekeeper,
        action="result_hands",
        knocker="0",
        **{
            "hands-0": "as 2s 3s 4s 5s 6s 7s",
            "hands-1": "ah 2h 3h 4h 5h 6h 7h",
            "hands-2": "as kd qd jd td 9d 8d",
        },
    )
    assert refused.status_code == 400
    text = visible_text(refused.content.decode())
    assert (
        "That hand does not fit what the table has seen. A♠ is entered twice; one deck holds it once." in text
    )
    assert not re.search(r"\bseats? \d", text)


def test_refusals_name_the_players() -> None:
    names = ["Ann", "Bo", "Cy"]
    turn = DomainError("not_your_turn", "it is seat 0's turn, not seat 2's", params={"seat": 2, "to_move": 0})
    assert words(turn, names) == "It is another player's turn. It is Ann's turn, not Cy's."
    seen = DomainError(
        "card_not_in_hand",
        "seat 1 cannot hold QS: it is in seat 2's hand",
        params={"seat": 1, "card": "QS", "place": "hand", "holder": 2},
    )
    assert (
        words(seen, names)
        == "That player cannot be holding that card. Bo cannot hold Q♠: it is in Cy's hand."
    )
    history = {"QS": Message("discarded", {"seat": 1, "turn": 4})}
    assert refusal(seen, names, history).detail == "Q♠ was already discarded by Bo in turn 4."
    # without the names (or with a seat out of range) a player, never a number
    assert words(turn) == "It is another player's turn. It is that player's turn, not that player's."


def test_a_code_worded_nowhere_shows_the_domain_message_unless_it_names_a_seat() -> None:
    league = DomainError("some_league_rule", "a published round is still in play", kind=Kind.CONFLICT)
    assert words(league) == "a published round is still in play"
    # the league's codes are worded here, from their params, like the engine's
    worded = DomainError("round_in_play", "a published round is still in play", kind=Kind.CONFLICT)
    assert words(worded) == "A published round is still being played: let its games end first."
    blocker = DomainError("round_in_draft", "round 2 is still a draft", params={"round": 2})
    assert words(blocker) == "The last round is still a draft. Publish round 2 first."
    seated = DomainError("invalid_setup", "seat 3 needs a name", params={"seat": 3})
    assert "3" not in words(seated, ["Ann"])
    unknown = DomainError("some_new_code", "seat 3 did something", params={"seat": 3})
    assert words(unknown) == "That was refused."


def test_the_engines_refusals_of_a_recorded_hand_name_no_seat_number() -> None:
    """Refusals met at a physical table, worded for the page: each carries the params its
    words need (the seat, the card, where the card was seen), so no seat number shows."""
    from engine import Card, DealHand, Discard, DrawFromDiscard, DrawFromStock, Knock, RecordHandResult
    from tests.support.table import Table

    names = ["Ann", "Bo", "Cy"]
    table = Table(engine.get_ruleset("knock-rummy"), [engine.Seat(n) for n in names], mode="physical")
    refused: list[tuple[engine.IllegalMove, str]] = []

    def refuse(command: engine.Command, name: str) -> None:
        with pytest.raises(engine.IllegalMove) as caught:
            table.do(command)
        refused.append((caught.value, name))

    table.do(DealHand(upcard=Card.parse("7H")))
    refuse(DrawFromStock(2), "Cy")  # Bo is to move
    refuse(Discard(1, Card.parse("QS")), "Bo")  # Bo must draw first
    table.do(DrawFromDiscard(1))
    refuse(Discard(1, Card.parse("7H")), "Bo")  # the card just taken
    refuse(DrawFromStock(1), "Bo")  # already drew
    table.do(Discard(1, Card.parse("QS")))
    table.do(DrawFromStock(2))
    refuse(Discard(2, Card.parse("QS")), "Cy")  # in the discard pile
    refuse(Discard(2, Card.parse("7H")), "Cy")  # in Bo's hand
    refuse(Knock(2, Card.parse("7H")), "Cy")
    refuse(RecordHandResult(knocker=1, deadwood={0: 5, 1: 5, 2: 5}), "")  # nobody knocked yet
    for error, name in refused:
        text = words(error, names)
        assert not re.search(r"\bseats? \d|\b[0-2]'s\b", text), (error.code, text)
        assert name in text, (error.code, text)
    assert words(refused[-2][0], names).endswith("Cy cannot hold 7♥: it is in Bo's hand.")


# --- the desk's form: a refusal under the field it names --------------------------------


def test_the_tournament_form_puts_a_service_refusal_under_the_field_it_names() -> None:
    from league.errors import LeagueError
    from web.desk.forms import TournamentForm

    data = {
        "name": "Cup",
        "kind": "tournament",
        "preset": "knock-rummy",
        "options_for": "knock-rummy",
        "mode": "physical",
        "table_min": "3",
        "table_max": "4",
        "seating": "balanced",
        "rounds": "4",
    }
    for name, value in engine.get_ruleset("knock-rummy").options().items():
        if name == "cards_dealt":
            data[f"opt_{name}"] = ", ".join(f"{p}:{c}" for p, c in value.items())
        elif value is not None and value is not False:
            data[f"opt_{name}"] = "on" if value is True else str(value)
    form = TournamentForm(data)
    assert form.is_valid(), form.errors
    params = {"preset": "gin-rummy", "most": 2}
    form.add_service_error(LeagueError("invalid_table_size", "gin-rummy seats at most 2", params=params))
    form.add_service_error(LeagueError("invalid_request", "rounds cannot go below 5", field="rounds"))
    form.add_service_error(LeagueError("round_in_play", "a round is in play", 409))
    assert form.errors["table_max"] == [
        "Those table sizes cannot be seated. gin-rummy seats at most 2 players at a table."
    ]
    assert form.errors["rounds"] == ["rounds cannot go below 5"]  # worded nowhere: its message
    assert form.non_field_errors() == ["A published round is still being played: let its games end first."]


@pytest.mark.parametrize(
    ("error", "status", "shown"),
    [
        (
            DomainError("permission_denied", "x", kind=Kind.FORBIDDEN, params={"role": "director"}),
            403,
            "Only the club&#x27;s directors may open this page.",
        ),
        (
            DomainError("not_found", "there is no tournament 9", kind=Kind.NOT_FOUND),
            404,
            "There is nothing at this address.",
        ),
        (DomainError("not_authenticated", "sign in", kind=Kind.UNAUTHENTICATED), 302, ""),
        (DomainError("round_in_play", "a round is in play", kind=Kind.CONFLICT), 400, ""),
    ],
    ids=["forbidden", "not-found", "unauthenticated", "conflict"],
)
def test_a_refusal_no_page_caught_is_its_page_in_words(
    error: DomainError, status: int, shown: str, ann: Any
) -> None:
    from django.test import RequestFactory

    from web.refusals import RefusalMiddleware

    request = RequestFactory().get("/tournaments/9/desk")
    request.user = ann
    response = RefusalMiddleware(lambda r: None).process_exception(request, error)  # type: ignore[arg-type,return-value]
    assert response is not None and response.status_code == status
    assert shown in response.content.decode()
    if status == 302:
        assert response["Location"].startswith("/login/?next=/tournaments/9/desk")
    assert RefusalMiddleware(lambda r: None).process_exception(request, ValueError("x")) is None  # type: ignore[arg-type,return-value]
