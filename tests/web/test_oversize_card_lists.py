"""Oversize card lists, sent to every place that reads cards from a person: the
scorekeeper's previews and entries, the desk's correction of a hand, and the game API's
commands. Each is answered at once with a refusal (or the page's own explanation), never a
500, and a refusal records nothing (issue 24: any work whose cost grows with an input is
bounded at the boundary)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from engine.cards import ALL_CARDS
from games.models import Game, GameEvent
from tests.support.record import Night, club_night, record

pytestmark = pytest.mark.django_db

DECK = [card.code for card in ALL_CARDS[:52]]

# Card lists of every oversize kind: the deck, the deck three times over, thousands of
# one card, and a 100 KB list; as lists (the API) and as typed text (the pages).
LISTS: dict[str, list[str]] = {
    "deck": DECK,
    "deck_three_times": DECK * 3,
    "five_thousand_aces": ["AS"] * 5000,
    "hundred_kb": (DECK * 700)[:33_000],
}

# A request that reads a card list answers well within this (the unbounded preview took
# minutes on 52 cards); generous, for a loaded machine.
PROMPT = 3.0


def showdown(make_user: Any, preset: str) -> Night:
    """Bo knocked unseen at a table of three; nobody has revealed yet."""
    night = club_night(
        make_user, preset=preset, names=("Ann", "Bo") if preset == "gin" else ("Ann", "Bo", "Cy")
    )
    opening: list[dict[str, Any]] = [{"type": "DealHand", "upcard": "7H"}]
    if preset == "gin":
        opening += [{"type": "PassUpcard", "seat": 1}, {"type": "PassUpcard", "seat": 0}]
    for command in (
        *opening,
        {"type": "DrawFromStock", "seat": 1},
        {"type": "Knock", "seat": 1, "card": None},
    ):
        record(night, command)
    return night


def finished_hand(make_user: Any) -> Night:
    """Hand 1 recorded by its counts, so the desk can correct it."""
    night = club_night(make_user)
    record(night, {"type": "RecordHandResult", "knocker": 1, "deadwood": {"0": 12, "1": 4, "2": 20}})
    return night


def events() -> int:
    return GameEvent.objects.count()


def timed(send: Callable[[], Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    response = send()
    return response, time.perf_counter() - started


def refused_at_once(name: str, send: Callable[[], Any], *, page_explains: bool = False) -> list[str]:
    """What went wrong with one request (empty: nothing). ``page_explains``: the preview
    answers 200 with its own explanation, and writes nothing either way."""
    before = events()
    response, seconds = timed(send)
    problems = []
    if response.status_code >= 500:
        problems.append(f"{name}: {response.status_code}")
    elif not page_explains and not 400 <= response.status_code < 500:
        problems.append(f"{name}: answered {response.status_code}, not a refusal")
    if events() != before:
        problems.append(f"{name}: recorded {events() - before} events")
    if seconds > PROMPT:
        problems.append(f"{name}: took {seconds:.1f} s")
    return problems


@pytest.mark.parametrize("preset", ["knock-rummy", "gin"])
def test_the_scorekeepers_pages_refuse_oversize_card_lists_at_once(make_user: Any, preset: str) -> None:
    night = showdown(make_user, preset)
    client = Client(raise_request_exception=False)
    client.force_login(night.scorekeeper)
    version = Game.objects.get(pk=night.game.pk).version
    problems: list[str] = []
    for kind, cards in LISTS.items():
        text = " ".join(cards)
        for url in (night.url, f"/games/{night.game.pk}/record"):
            problems += refused_at_once(
                f"{url} preview {kind}",
                lambda url=url, text=text: client.get(url + "/preview", {"seat": "0", "cards": text}),
                page_explains=True,
            )
            problems += refused_at_once(
                f"{url} preview picked {kind}",
                lambda url=url, cards=cards: client.get(
                    url + "/preview", {"seat": "0", "picked": cards[:5000]}
                ),
                page_explains=True,
            )
        for action, field in (("reveal", "cards"), ("result_hands", "hands-0")):
            form = {
                "action": action,
                "seat": "0",
                "knocker": "1",
                field: text,
                "version": str(version),
                "idempotency_key": f"{action}-{kind}",
            }
            problems += refused_at_once(
                f"record {action} {kind}",
                lambda form=form: client.post(night.url, form),
                page_explains=True,
            )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("moment", ["at the showdown", "between hands"])
@pytest.mark.parametrize("preset", ["knock-rummy", "gin"])
def test_the_game_api_refuses_oversize_card_lists_at_once(make_user: Any, preset: str, moment: str) -> None:
    if moment == "at the showdown":
        night = showdown(make_user, preset)
    else:  # a result by final hands, nothing recorded of the hand's play
        night = club_night(
            make_user, preset=preset, names=("Ann", "Bo") if preset == "gin" else ("Ann", "Bo", "Cy")
        )
    client = Client(raise_request_exception=False)
    client.force_login(night.director)
    url = f"/api/v1/games/{night.game.pk}/commands"
    seats = ["0", "1"] if preset == "gin" else ["0", "1", "2"]
    version = Game.objects.get(pk=night.game.pk).version
    problems: list[str] = []
    for kind, cards in LISTS.items():
        for command in (
            {"type": "RevealHand", "seat": 0, "cards": cards},
            {"type": "RecordHandResult", "knocker": 1, "hands": {seat: cards for seat in seats}},
            {"type": "RecordHandResult", "knocker": None, "hands": {seat: cards for seat in seats}},
        ):
            body = json.dumps({"command": command, "expected_version": version})

            def send(body: str = body) -> Any:
                return client.post(url, body, content_type="application/json")

            found = refused_at_once(f"{command['type']} {kind}", send)
            if not found:
                answer = send().json()
                assert answer["code"] and answer["message"], answer
            problems += found
    assert not problems, "\n".join(problems)


def test_the_desks_correction_of_a_hand_refuses_oversize_card_lists_at_once(make_user: Any) -> None:
    night = finished_hand(make_user)
    client = Client(raise_request_exception=False)
    client.force_login(night.director)
    url = f"/tournaments/{night.tournament.pk}/desk/tables/{night.table.pk}/hands/1"
    assert client.get(url).status_code == 200
    problems: list[str] = []
    for kind, cards in LISTS.items():
        text = " ".join(cards)
        form = {
            "kind": "hands",
            "knocker": "1",
            **{f"hands-{seat}": text for seat in range(3)},
            "reason": "a hostile list",
            "idempotency_key": f"correct-{kind}",
            "version": str(Game.objects.get(pk=night.game.pk).version),
        }
        problems += refused_at_once(f"correct hand 1 {kind}", lambda form=form: client.post(url, form))
        problems += refused_at_once(
            f"correct hand 1 confirmed {kind}",
            lambda form=form: client.post(url, {**form, "confirmed": "yes"}),
        )
    assert not problems, "\n".join(problems)
