"""Games for the web pages' tests: one caught in the middle of a hand (for the redaction
audit), one played to its end (for the replay), and what each viewer may not see."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

import engine
from engine.bots.greedy import greedy_bot
from engine.cards import ALL_CARDS, mask_to_cards
from games import services, store
from games.models import Game
from league.models import (
    Club,
    ClubGame,
    Membership,
    Player,
    Registration,
    Round,
    Table,
    TableSeat,
    Tournament,
)
from tests.support.games import new_game, play
from web.templatetags.site import RANK_FACES, card_name
from web.words import SUIT_SYMBOLS


@dataclass
class LiveTable:
    """A digital knock-rummy game in its first hand: ann (seat 0) and bob (seat 1) are
    users, Cy (seat 2) a named seat; each has drawn from the stock, ann and bob have
    discarded, and Cy is about to discard. The game is linked to a club whose director
    is ``director`` (and whose scorekeeper is ``scorekeeper``, if given)."""

    game: Game
    users: dict[str, Any]

    def state(self) -> Any:
        return store.load_state(Game.objects.get(pk=self.game.pk), use_cache=False)

    def secret_from(self, seat: int | None) -> set[str]:
        """The cards ``seat`` (None: anyone not seated) may not know: the other seats'
        hands and the stock, less every card that has been face up on the pile."""
        hand = self.state().hand
        assert hand is not None
        hidden = {ALL_CARDS[i].code for i in hand.stock if i >= 0}
        for index, mask in enumerate(hand.hands):
            if index != seat:
                hidden |= {c.code for c in mask_to_cards(mask)}
        return hidden - {ALL_CARDS[i].code for i in hand.pile}

    def own_cards(self, seat: int) -> set[str]:
        hand = self.state().hand
        assert hand is not None
        return {c.code for c in mask_to_cards(hand.hands[seat])}


def live_table(owner: Any, ann: Any, bob: Any, director: Any, scorekeeper: Any = None) -> LiveTable:
    created = new_game(
        owner,
        [services.SeatSpec(user_id=ann.pk), services.SeatSpec(user_id=bob.pk), services.SeatSpec(name="Cy")],
        first_dealer=2,
        followed=True,  # the club below holds it
    )
    game_id = created.game.pk
    club = Club.objects.create(name="Riverside", slug="riverside")
    Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    if scorekeeper is not None:
        Membership.objects.create(club=club, user=scorekeeper, role=Membership.Role.SCOREKEEPER)
    ClubGame.objects.create(club=club, game_id=game_id)
    actors = {0: ann, 1: bob, 2: owner}
    for seat in (0, 1):
        play(game_id, actors[seat], {"type": "DrawFromStock", "seat": seat})
        state = store.load_state(Game.objects.get(pk=game_id))
        hand = state.hand
        discard = mask_to_cards(hand.hands[seat])[0]
        play(game_id, actors[seat], {"type": "Discard", "seat": seat, "card": discard.code})
    play(game_id, owner, {"type": "DrawFromStock", "seat": 2})
    game = Game.objects.get(pk=game_id)
    assert game.status == "playing"
    users = {"ann": ann, "bob": bob, "director": director, "owner": owner, "scorekeeper": scorekeeper}
    return LiveTable(game, {name: user for name, user in users.items() if user is not None})


def finished_game(owner: Any, player: Any, *, preset: str = "knock-rummy", **options: Any) -> Game:
    """A digital game played to its end by the greedy bot's choices for every seat:
    ``player`` in seat 0, named seats Bo and Cy after it (gin: Bo alone)."""
    others = [services.SeatSpec(name="Bo")] + (
        [] if preset == "gin-rummy" else [services.SeatSpec(name="Cy")]
    )
    created = new_game(owner, [services.SeatSpec(user_id=player.pk), *others], preset=preset, **options)
    game_id = created.game.pk
    state = created.state
    rng = random.Random(7)
    for _ in range(3000):
        if state.status in ("finished", "abandoned"):
            break
        command = greedy_bot(engine.view(state, state.to_move), rng)
        state = play(game_id, owner, engine.command_to_dict(command)).state
    assert state.status == "finished"
    return Game.objects.get(pk=game_id)


def faces(code: str) -> list[str]:
    """How a card can show on a page: its name (aria-label and sentences), its face as
    the card filter draws it, and its code in a form value."""
    return [
        card_name(code),
        f">{RANK_FACES.get(code[:-1], code[:-1])}{SUIT_SYMBOLS[code[-1]]}<",
        f'"{code}"',
        f':{code}"',
    ]


def shown(html: str, code: str) -> bool:
    return any(face in html for face in faces(code))


@dataclass
class Seated:
    """Where a live table's game is played: a published round of a running digital
    tournament of its club, with ann, bob and Cy as the table's players."""

    club_slug: str
    tournament_id: int
    round_number: int
    table_id: int
    player_ids: list[int]


def seat_at_tournament(table: LiveTable) -> Seated:
    """Put the live table's game at table 1 of round 1 of a published tournament."""
    club = ClubGame.objects.select_related("club").get(game_id=table.game.pk).club
    tournament = Tournament.objects.create(
        club=club,
        name="Winter cup",
        slug="winter",
        preset="knock-rummy",
        mode=Tournament.Mode.DIGITAL,
        table_min=3,
        table_max=4,
        seed="seed-w",
        status=Tournament.Status.RUNNING,
    )
    users = [table.users["ann"], table.users["bob"], None]
    people = [
        Player.objects.create(club=club, name=name, user=user)
        for name, user in zip(("Ann", "Bob", "Cy"), users, strict=True)
    ]
    for person in people:
        Registration.objects.create(
            tournament=tournament, player=person, status=Registration.Status.CHECKED_IN
        )
    rnd = Round.objects.create(
        tournament=tournament,
        number=1,
        status=Round.Status.PUBLISHED,
        method="manual",
        seed="seed-w-1",
        input_digest="-",
        published_at=timezone.now(),
    )
    seat_row = Table.objects.create(round=rnd, number=1, game=table.game)
    for position, person in enumerate(people):
        TableSeat.objects.create(table=seat_row, position=position, player=person)
    return Seated(club.slug, tournament.pk, rnd.number, seat_row.pk, [p.pk for p in people])
