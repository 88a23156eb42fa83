"""Tournaments to archive and tamper with: a physical knock-rummy cup set up, seated,
published and recorded through the league and games services as a club would, with
its hands recorded card by card (moves and reveals at one table, final hands at the
others) and a director's correction."""

from __future__ import annotations

import copy
import random
from typing import Any

import engine
from games import services as game_services
from games.models import Game, Source
from league import services
from league.models import Club, Registration, Round, Tournament

CARD_CUP = {
    "name": "Card cup",
    "kind": "tournament",
    "preset": "knock-rummy",
    "options": {"hands": 1},
    "mode": "physical",
    "table_size": {"min": 3, "max": 4},
    "seating": "balanced",
    "rounds": 2,
    "seed": "card-cup-seed",
    "scoring": "placement",
    "placement_points": [3, 2, 1, 0],
}
CARD_CUP_PLAYERS = ("Ann", "Bea", "Cy", "Dot", "Eve", "Fay", "Gus")


def _submit(game_id: int, command: Any) -> game_services.SubmitResult:
    game = Game.objects.get(pk=game_id)
    return game_services.submit_command(
        game=game,
        command=engine.command_to_dict(command),
        actor=None,
        source=Source.SYSTEM,
        expected_version=game.version,
    )


def record_moves(game_id: int, rng: random.Random) -> None:
    """A hand as a scorekeeper records it move by move: the upcard, every stock draw
    unseen, every discard, a knock with a card nobody saw, then each seat's hand
    revealed (what the players held, as dealt from a shuffled deck)."""
    deck = list(engine.shuffled_deck(engine.get_ruleset("knock-rummy"), rng.random()))
    result = _submit(game_id, engine.DealHand(upcard=deck.pop()))
    hand = result.state.hand
    assert hand is not None
    held = {seat: [deck.pop() for _ in range(hand.deal_size)] for seat in hand.order}
    for turn in range(2 * len(hand.order) + 1):
        seat = result.state.to_move
        assert seat is not None
        held[seat].append(deck.pop())
        _submit(game_id, engine.DrawFromStock(seat))
        part = max(held[seat], key=lambda card: (card.rank, card.index))
        held[seat].remove(part)
        last = turn == 2 * len(hand.order)
        result = _submit(game_id, engine.Knock(seat, None) if last else engine.Discard(seat, part))
    for seat in hand.order:
        result = _submit(game_id, engine.RevealHand(seat, tuple(held[seat])))
    assert result.state.status == "finished"


def record_hands(game_id: int, rng: random.Random, *, knocker: int = 0) -> None:
    """A hand as a scorekeeper enters it at once: who knocked and every final hand."""
    game = Game.objects.get(pk=game_id)
    deck = list(engine.shuffled_deck(engine.get_ruleset("knock-rummy"), rng.random()))
    size = engine.get_ruleset("knock-rummy").cards_per_player(len(game.seats))
    hands = {seat: tuple(deck[seat * size : (seat + 1) * size]) for seat in range(len(game.seats))}
    result = _submit(game_id, engine.RecordHandResult(knocker=knocker, hands=hands))
    assert result.state.status == "finished"


def correct(game_id: int, rng: random.Random) -> None:
    """The director undoes the hand (the wrong knocker), gives a penalty, and the hand is
    entered again."""
    _submit(game_id, engine.Retract(3, "wrong knocker entered"))
    _submit(game_id, engine.AdjustScore(1, -5, "penalty: exposed a card"))
    record_hands(game_id, rng, knocker=1)


def card_cup(club: Club) -> Tournament:
    """The card cup: seven players at tables of four and three, two rounds; round 1's
    first table recorded move by move, the other tables by their final hands, and round
    2's first table corrected by the director."""
    rng = random.Random(2026)
    tournament = services.create_tournament(club, CARD_CUP, None)
    for name in CARD_CUP_PLAYERS:
        registration = services.register(tournament, name=name)
        services.set_registration_status(registration, Registration.Status.CHECKED_IN)
    for number in (1, 2):
        round_ = services.publish_round(services.generate_round(tournament, None), None)
        for table in round_.tables.order_by("number"):
            assert table.game_id is not None
            if (number, table.number) == (1, 1):
                record_moves(table.game_id, rng)
            else:
                record_hands(table.game_id, rng)
            if (number, table.number) == (2, 1):
                correct(table.game_id, rng)
        assert services.check_round_complete(Round.objects.get(pk=round_.pk))
    return Tournament.objects.get(pk=tournament.pk)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value (keys and list indexes)."""
    found = [prefix] if prefix else []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    for key, item in items:
        found += paths(item, (*prefix, key))
    return found


def mutated(archive: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    copy_ = copy.deepcopy(archive)
    node: Any = copy_
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return copy_
