"""The showdown preview bounds its work at the boundary: a card list longer than the
hand can hold is refused before the engine searches it (issue 24, item 3)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.test import Client

from engine.cards import ALL_CARDS
from tests.support.record import Night, club_night, record

pytestmark = pytest.mark.django_db

DECK = " ".join(card.code for card in ALL_CARDS[:52])


def showdown(make_user: Any, preset: str = "knock-rummy") -> Night:
    """Cy knocked unseen; nobody has revealed yet."""
    night = club_night(make_user, preset=preset)
    for command in (
        {"type": "DealHand", "upcard": "7H"},
        {"type": "DrawFromDiscard", "seat": 1},
        {"type": "Discard", "seat": 1, "card": "QS"},
        {"type": "DrawFromStock", "seat": 2},
        {"type": "Knock", "seat": 2, "card": None},
    ):
        record(night, command)
    return night


def preview(night: Night, **query: str) -> tuple[int, str, float]:
    c = Client()
    c.force_login(night.scorekeeper)
    started = time.perf_counter()
    response = c.get(night.url + "/preview", query)
    return response.status_code, response.content.decode(), time.perf_counter() - started


def test_the_whole_deck_is_refused_at_once(make_user: Any) -> None:
    night = showdown(make_user)
    status, html, seconds = preview(night, seat="0", cards=DECK)
    assert status == 200
    assert "Ann holds 7 cards: 52 is more than that hand can hold." in html
    assert seconds < 2


def test_picked_cards_count_towards_the_bound(make_user: Any) -> None:
    night = showdown(make_user)
    c = Client()
    c.force_login(night.scorekeeper)
    picked = [card.code for card in ALL_CARDS[:52]]
    response = c.get(night.url + "/preview", {"seat": "0", "cards": "", "picked": picked})
    assert "Ann holds 7 cards: 52 is more than that hand can hold." in response.content.decode()


def test_one_card_too_many_is_still_arranged_and_explained(make_user: Any) -> None:
    night = showdown(make_user)
    status, html, _ = preview(night, seat="0", cards="AC 2C 3C 4D 5D 6D 8S 9H")
    assert status == 200 and "8 of 7 cards" in html and 'class="meld"' in html
    assert "Ann holds 7 cards but 8 were revealed" in html


def test_a_joker_the_rules_do_not_use_is_a_message_not_an_error(make_user: Any) -> None:
    night = showdown(make_user)
    status, html, _ = preview(night, seat="0", cards="X1 AC 2C")
    assert status == 200 and "Joker is not in play: this rule set uses no jokers" in html


def test_the_largest_hand_allowed_against_a_gin_knockers_melds_answers_at_once(make_user: Any) -> None:
    """The worst the bound lets through: one card more than the hand, laid off against
    the knocker's revealed melds (the layoff search) after the set search."""
    night = club_night(make_user, preset="gin", names=("Ann", "Bo"))
    for command in (
        {"type": "DealHand", "upcard": "KS"},
        {"type": "PassUpcard", "seat": 1},
        {"type": "PassUpcard", "seat": 0},
        {"type": "DrawFromStock", "seat": 1},
        {"type": "Knock", "seat": 1, "card": None},
        {
            "type": "RevealHand",
            "seat": 1,
            "cards": ["5C", "6C", "7C", "9H", "9D", "9S", "AH", "AD", "2S", "3S"],
        },
    ):
        record(night, command)
    status, html, seconds = preview(night, seat="0", cards="4C 8C TH JH QH KH 2H 4H 6H 8H 3D")
    assert status == 200 and "11 of 10 cards" in html and "Lays off" in html
    assert seconds < 2
