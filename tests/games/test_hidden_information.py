"""The hidden-information audit: over random games of every preset, digital and
physical, no role ever receives a card code it may not know, from any endpoint or page.

What a role may know is derived here from the engine's states, step by step, not from
the redaction code: the discard pile and revealed hands are public from the moment they
are seen; a seat knows every card its hand has held (in a physical game: every card
recorded in it); a physical game's recorders know all they recorded. The first hand is
audited while it is in play (once it is scored every card is public, and the next deal
reuses the same codes).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from rest_framework.test import APIClient

import engine
from engine import GameState
from engine.cards import ALL_CARDS, mask_to_cards
from games import services, store
from games.models import Game, GameEvent
from league.models import Club, ClubGame, Membership, Round, Tournament
from league.models import Table as TournamentTable
from tests.support.games import client_for, new_game
from tests.support.json_values import strings_in
from web.templatetags.site import card_name

pytestmark = pytest.mark.django_db

PRESETS = ("knock-rummy", "knock-rummy-hoyle", "knock-rami", "gin-rummy")
ALL_CODES = frozenset(card.code for card in ALL_CARDS)
HTML_CODE = re.compile(r"\b(" + "|".join(sorted(ALL_CODES, key=len, reverse=True)) + r")\b")
AUDIT_EVERY = 4  # steps between audits of every read (each answer to a move is audited)
MAX_STEPS = 40
KEEP_PLAYING = 0.85  # how often a move that could end the hand is passed over


@dataclass
class Knowledge:
    """Card codes each seat and the public have seen so far in the first hand."""

    seats: int
    public: set[str] = field(default_factory=set)
    private: dict[int, set[str]] = field(default_factory=dict)

    def learn(self, state: GameState) -> None:
        hand = state.hand
        assert hand is not None
        self.public |= {ALL_CARDS[i].code for i in hand.pile}
        for seat in range(self.seats):
            self.private.setdefault(seat, set()).update(c.code for c in mask_to_cards(hand.hands[seat]))
            if hand.revealed and hand.revealed[seat] >= 0:
                self.public |= {c.code for c in mask_to_cards(hand.revealed[seat])}
        if hand.knocker >= 0 and hand.knock_card >= 0:
            self.private.setdefault(hand.knocker, set()).add(ALL_CARDS[hand.knock_card].code)

    def known_to(self, seat: int | None) -> set[str]:
        return self.public | (self.private.get(seat, set()) if seat is not None else set())


def first_hand_live(state: GameState) -> bool:
    return state.hand is not None and state.hand.number == 1 and state.status in ("playing", "showdown")


def knowledge_now(game_id: int) -> Knowledge | None:
    """What everyone may know now, folded from the stored log through the engine; None
    once the first hand is over."""
    state: GameState | None = None
    knowledge: Knowledge | None = None
    for event in store.to_engine(GameEvent.objects.filter(game_id=game_id).order_by("seq")):
        state = engine.apply(state, event)
        if state.hand is None:
            continue
        if not first_hand_live(state):
            return None
        knowledge = knowledge or Knowledge(len(state.seats))
        knowledge.learn(state)
    return knowledge


def codes_in(value: Any) -> Iterator[str]:
    return (string for string in strings_in(value) if string in ALL_CODES)


# A page draws a card as a face read out by name (web's ``card`` filter): the name counts.
FACE_NAMES = {card_name(card.code): card.code for card in ALL_CARDS if not card.code.startswith("X")}
FACE = re.compile(r'aria-label="([a-z]+ of [a-z]+)"')


def leaked(body: Any, known: set[str]) -> set[str]:
    if isinstance(body, str):
        found = set(HTML_CODE.findall(body))
        found |= {FACE_NAMES[name] for name in FACE.findall(body) if name in FACE_NAMES}
    else:
        found = set(codes_in(body))
    return found - known


@dataclass
class Table:
    game_id: int
    mode: str
    users: dict[str, Any]  # role -> user (None: anonymous)
    seat_of: dict[str, int]
    tournament_id: int  # the club's tournament whose table holds the game (its archive is audited)
    clients: dict[str, APIClient] = field(default_factory=dict)

    def client(self, role: str) -> APIClient:
        """The role's client, signed in once for the whole game (as a person stays)."""
        if role not in self.clients:
            self.clients[role] = client_for(self.users[role])
        return self.clients[role]

    def knows(self, role: str, knowledge: Knowledge) -> set[str] | None:
        """None: this role may know every card (a physical game's recorder)."""
        if self.mode == "physical" and role in ("owner", "scorekeeper", "director"):
            return None
        return knowledge.known_to(self.seat_of.get(role))


@pytest.fixture
def people(make_user: Any) -> dict[str, Any]:
    names = {"seat0": "ann", "seat1": "bob", "owner": "olga", "scorekeeper": "sam", "director": "dora"}
    users: dict[str, Any] = {role: make_user(name) for role, name in names.items()}
    users["stranger"] = make_user("stan")
    users["anonymous"] = None
    club = Club.objects.create(name="Club", slug="club")
    Membership.objects.create(club=club, user=users["scorekeeper"], role=Membership.Role.SCOREKEEPER)
    Membership.objects.create(club=club, user=users["director"], role=Membership.Role.DIRECTOR)
    users["club"] = club
    return users


def open_table(people: dict[str, Any], preset: str, mode: str) -> Table:
    seats = [services.SeatSpec(user_id=people["seat0"].pk), services.SeatSpec(user_id=people["seat1"].pk)]
    result = new_game(people["owner"], seats, mode=mode, preset=preset)
    ClubGame.objects.create(club=people["club"], game=result.game)
    tournament = Tournament.objects.create(
        club=people["club"],
        name=f"Cup {preset} {mode}",
        slug=f"cup-{preset}-{mode}",
        preset=preset,
        table_min=2,
        table_max=2,
        seed="s",
        mode=mode,
    )
    round_ = Round.objects.create(
        tournament=tournament, number=1, method="manual", seed="s", status="published"
    )
    TournamentTable.objects.create(round=round_, number=1, game=result.game)
    users = {role: user for role, user in people.items() if role != "club"}
    return Table(result.game.pk, mode, users, {"seat0": 0, "seat1": 1}, tournament.pk)


def physical_deal(state: GameState, rng: random.Random) -> dict[str, Any]:
    """A dealt hand as a scorekeeper records it: the upcard, and seat 0's hand."""
    codes = [card.code for card in engine.shuffled_deck(state.ruleset, seed=rng.randrange(2**32))]
    trial = engine.apply(state, engine.decide(state, engine.DealHand(upcard=codes[0]))[0])
    assert trial.hand is not None
    size = trial.hand.sizes[0]
    return {"type": "DealHand", "upcard": codes[0], "hands": {"0": codes[1 : 1 + size]}}


def pick(legal: Any, rng: random.Random) -> dict[str, Any]:
    """A random legal command, mostly not one that ends the hand: the audit wants the
    hand to last a while."""
    going_on = [c for c in legal if c.TYPE not in ("Knock", "RecordHandResult")]
    choices = going_on if going_on and rng.random() < KEEP_PLAYING else list(legal)
    return engine.command_to_dict(rng.choice(choices))


def next_move(table: Table, state: GameState, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """Who sends which random legal command next (the seat to move, or the recorder)."""
    if table.mode == "physical":
        if state.status == "awaiting_deal":
            return "owner", physical_deal(state, rng)
        legal = engine.legal_commands(state)
        return ("owner", pick(legal, rng)) if legal else None
    seat = state.to_move
    if seat is None:
        return None
    legal = engine.view(state, seat).legal_commands
    return (f"seat{seat}", pick(legal, rng)) if legal else None


def audit_reads(table: Table, knowledge: Knowledge, where: str) -> list[str]:
    problems = []
    base = f"/api/v1/games/{table.game_id}"
    # ?seat=1 asks for the seat whose turn it mostly is not: only seat1 may have it.
    queries = ("", "?seat=1")
    for role in table.users:
        known = table.knows(role, knowledge)
        client = table.client(role)
        urls = [base + q for q in queries] + [f"{base}/events" + q for q in queries] + [f"{base}/export"]
        # The game's HTML pages: the replay viewer, and the play page (seated players only).
        pages = {f"/games/{table.game_id}/", f"/games/{table.game_id}/play"}
        urls += sorted(pages)
        urls.append(f"/api/v1/tournaments/{table.tournament_id}/archive")  # every game's whole log
        if role in ("anonymous", "seat0"):
            urls.append("/")  # the home page lists games the same way for everyone
        if role in ("owner", "scorekeeper", "director", "seat0", "stranger"):
            urls.append(f"/games/{table.game_id}/record")  # the recorder's page (403 for others)
        for url in urls:
            response = client.get(url)
            assert response.status_code in (200, 302, 403), (url, response.status_code)
            html = not url.startswith("/api/")
            body = response.content.decode() if html else response.json()
            extra = leaked(body, known) if known is not None else set()
            if extra:
                problems.append(f"{where} {role} GET {url}: {sorted(extra)}")
    return problems


def audit_conflict(table: Table, knowledge: Knowledge, version: int, where: str) -> list[str]:
    """A stale command's 409 names the events since, redacted for the sender."""
    problems = []
    senders = ("owner",) if table.mode == "physical" else ("seat0", "seat1")
    for role in senders:
        command = {"type": "DrawFromStock", "seat": table.seat_of.get(role, 0)}
        response = table.client(role).post(
            f"/api/v1/games/{table.game_id}/commands",
            {"expected_version": max(version - 3, 0), "command": command},
            format="json",
        )
        assert response.status_code == 409, response.json()
        known = table.knows(role, knowledge)
        extra = leaked(response.json(), known) if known is not None else set()
        if extra:
            problems.append(f"{where} {role} 409: {sorted(extra)}")
    return problems


@pytest.mark.parametrize("mode", ["digital", "physical"])
@pytest.mark.parametrize("preset", PRESETS)
def test_no_role_sees_a_card_it_may_not_know(people: dict[str, Any], preset: str, mode: str) -> None:
    rng = random.Random(f"{preset}/{mode}")
    table = open_table(people, preset, mode)
    problems: list[str] = []
    audited = 0
    for step in range(MAX_STEPS):
        game = Game.objects.get(pk=table.game_id)
        state = store.load_state(game)
        knowledge = knowledge_now(table.game_id)
        if knowledge is not None and (audited < 2 or step % AUDIT_EVERY == 0) and step < MAX_STEPS // 2:
            where = f"{preset}/{mode} v{game.version}"
            problems += audit_reads(table, knowledge, where)
            problems += audit_conflict(table, knowledge, game.version, where)
            audited += 1
        move = next_move(table, state, rng)
        if move is None or (knowledge is None and step > 0):
            break
        role, command = move
        response = table.client(role).post(
            f"/api/v1/games/{table.game_id}/commands",
            {"expected_version": game.version, "command": command},
            format="json",
        )
        assert response.status_code == 201, (role, command, response.json())
        after = knowledge_now(table.game_id)
        known = table.knows(role, after) if after is not None else None
        extra = leaked(response.json(), known) if known is not None else set()
        if extra:
            problems.append(f"{preset}/{mode} {role} {command['type']} answer: {sorted(extra)}")
    assert audited >= 2, "the first hand ended before the audit saw it"
    assert not problems, "\n".join(problems)


def test_the_audit_catches_a_leak() -> None:
    """The audit's own check: a seat's card in a public body is found."""
    knowledge = Knowledge(2, public={"QH"}, private={0: {"AS"}, 1: {"KD"}})
    body = {"view": {"hand": ["AS"], "discard_top": "QH", "legal_commands": [{"card": "KD"}]}}
    assert leaked(body, knowledge.known_to(0)) == {"KD"}
    assert leaked(body, knowledge.known_to(1)) == {"AS"}
    assert leaked("<td>KD</td> <td>QH</td>", knowledge.known_to(None)) == {"KD"}
    assert leaked({"name": "ASK"}, set()) == set()
    assert leaked('<span class="card red" aria-label="king of diamonds">K♦</span>', set()) == {"KD"}


def test_anonymous_home_page_shows_no_card(people: dict[str, Any]) -> None:
    table = open_table(people, "knock-rummy", "digital")
    knowledge = knowledge_now(table.game_id)
    assert knowledge is not None
    page = APIClient().get("/").content.decode()
    assert str(table.game_id) in page or "games" in page
    assert leaked(page, knowledge.known_to(None)) == set()
