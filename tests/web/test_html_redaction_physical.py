"""Redaction in HTML at a physical table: what a scorekeeper enters is the recorders' to
see (the digital game's audit is tests/web/test_html_redaction.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import store
from games.models import Game
from league.models import Player, Round, Tournament
from tests.support.record import Night, club_night
from tests.support.record import record as record_entry
from tests.support.web_games import shown

# --- a physical game: what a scorekeeper enters is the recorders' to see -----------------

PHYSICAL_ROLES: dict[str, tuple[str | None, bool]] = {
    "seated player": ("ann", False),
    "club player": ("pia", False),
    "spectator": (None, False),
    "signed-in stranger": ("stu", False),
    "club director": ("dora", True),
    "club scorekeeper": ("sam", True),
}

DRAWN = "JC"  # the card the scorekeeper entered for Bo's draw from the stock


@dataclass
class Recorded:
    night: Night
    users: dict[str, Any]
    player_ids: list[int]

    def pages(self) -> list[str]:
        night = self.night
        game, tournament, table = night.game.pk, night.tournament.pk, night.table.pk
        return [
            "/",
            f"/games/{game}/",
            *[f"/games/{game}/?step={n}" for n in range(1, Game.objects.get(pk=game).version + 1)],
            f"/clubs/{night.club.slug}/",
            f"/tournaments/{tournament}/",
            f"/tournaments/{tournament}/?after_round=1",
            f"/tournaments/{tournament}/?timeline=recorded&at=3",
            f"/tournaments/{tournament}/live/",
            *[f"/players/{pk}/" for pk in self.player_ids],
            f"/tournaments/{tournament}/desk",
            f"/tournaments/{tournament}/desk/rounds/1/live",
            f"/tournaments/{tournament}/desk/tables/{table}",
            f"/tables/{table}/record",
            f"/tables/{table}/record/undo",
            f"/tables/{table}/record/preview?seat=0&cards=AS",
            f"/games/{game}/record",
            f"/games/{game}/record/undo",
            f"/tournaments/{tournament}/print/pairings",
            f"/tournaments/{tournament}/print/standings",
            f"/tournaments/{tournament}/print/slips",
            f"/tournaments/{tournament}/print/score-sheets",
            f"/tournaments/{tournament}/projector",
            f"/tournaments/{tournament}/projector/live",
            f"/t/{table}",
        ]


@pytest.fixture
def recorded(make_user: Any) -> Recorded:
    night = club_night(make_user)
    Tournament.objects.filter(pk=night.tournament.pk).update(status=Tournament.Status.RUNNING)
    Round.objects.filter(pk=night.round.pk).update(published_at=timezone.now())
    ann = make_user("ann")
    people = [seat.player for seat in night.table.seats.select_related("player").order_by("position")]
    Player.objects.filter(pk=people[0].pk).update(user=ann)
    record_entry(night, {"type": "DealHand", "upcard": "7H"})
    record_entry(night, {"type": "DrawFromStock", "seat": 1, "card": DRAWN})
    state = store.load_state(Game.objects.get(pk=night.game.pk), use_cache=False)
    assert state.hand is not None and state.hand.phase == "discard" and state.to_move == 1
    users = {"ann": ann, "pia": night.player, "dora": night.director, "sam": night.scorekeeper}
    users["stu"] = make_user("stu")
    return Recorded(night, users, [p.pk for p in people if p is not None])


@pytest.mark.django_db
@pytest.mark.parametrize("role", list(PHYSICAL_ROLES))
def test_a_card_entered_at_a_physical_table_is_shown_to_its_recorders_only(
    recorded: Recorded, role: str
) -> None:
    username, records = PHYSICAL_ROLES[role]
    client = Client()
    if username is not None:
        client.force_login(recorded.users[username])
    seen_by_recorder = False
    for url in recorded.pages():
        response = client.get(url)
        assert response.status_code in (200, 302, 403), (url, response.status_code)
        html = response.content.decode()
        if records:
            seen_by_recorder |= shown(html, DRAWN)
        else:
            assert not shown(html, DRAWN), f"{url} shows {role} the card Bo drew ({DRAWN})"
    # the recorders' pages do show what was entered: the audit would catch it elsewhere
    assert seen_by_recorder == records
