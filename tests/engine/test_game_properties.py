"""Random legal play, from any seed, reaches the end of the game: no errors, bounded
steps, zero-sum settlements, a replay equal to the live state, nothing leaked."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    DealHand,
    Event,
    GameState,
    Knock,
    RecordHandResult,
    StartGame,
    StockRestocked,
    apply,
    decide,
    event_from_dict,
    event_to_dict,
    get_ruleset,
    legal_commands,
    replay,
    shuffled_deck,
    view,
)
from engine.bots import get_bot
from engine.cards import ALL_CARDS
from engine.match import score_counts
from engine.rules import RuleSet
from engine.scoring import score_showdown

GREEDY = get_bot("greedy")
MAX_STEPS = 20_000

PRESETS = [
    ("knock-rummy", {}),
    ("knock-rummy", {"game_end": "target_score", "hands": None, "target_score": 60}),
    ("knock-rummy-hoyle", {}),
    ("knock-rummy-hoyle", {"stock_exhausted": "reshuffle", "max_restocks": 1}),
    ("knock-rami", {}),
    ("knock-rami", {"reentry": False}),
]


def play(
    ruleset: RuleSet, players: int, seed: int, greedy_share: float, mode: str = "digital"
) -> tuple[GameState, list[Event], int]:
    """Play a whole game: each choice is the greedy bot's with probability
    ``greedy_share``, else uniformly random among the legal commands."""
    rng = random.Random(seed)
    log = decide(
        None, StartGame(ruleset, tuple(f"P{i}" for i in range(players)), mode, rng.randrange(players), 4)
    )
    state = replay(log)
    steps = 0
    while state.status not in ("finished", "abandoned"):
        steps += 1
        assert steps < MAX_STEPS, "the game did not end"
        if state.needs_deal:
            command: Any = DealHand(deck=shuffled_deck(ruleset, rng.random()))
        else:
            options = legal_commands(state)
            assert options, f"nobody can act in {state.status}"
            if rng.random() < greedy_share:
                seat = state.to_move
                command = GREEDY(view(state, seat), rng)
                assert command in options
            else:
                command = rng.choice(options)
        for event in decide(state, command):
            state = apply(state, event)
            log.append(event)
    return state, log, steps


def check_game(state: GameState, log: list[Event]) -> None:
    assert state.status == "finished" and state.result is not None
    assert replay(log) == state
    assert replay(event_from_dict(json.loads(json.dumps(event_to_dict(e)))) for e in log) == state
    rs = state.ruleset
    result = state.result
    if rs.scoring == "settlement" or rs.scoring == "gin" or rs.game_end == "elimination":
        assert sum(result.points) == 0, result
    if rs.scoring == "settlement":
        for scored in state.tally.results:
            assert sum(scored.points.values()) == 0
    assert sorted(s for place in result.ranking for s in place) == list(range(len(state.seats)))
    assert all(result.places[s] == 1 for s in result.winners)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(PRESETS), players=st.integers(2, 5))
def test_random_play_ends(seed: int, preset: tuple[str, dict[str, Any]], players: int) -> None:
    ruleset = get_ruleset(preset[0], **preset[1])
    state, log, _ = play(ruleset, players, seed, greedy_share=0.0)
    check_game(state, log)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_gin_half_random_play_ends(seed: int, players: int) -> None:
    # Pure random play almost never knocks in gin (deadwood <= 10 is rare), so half
    # the choices are the greedy bot's; the other half stay uniformly random.
    state, log, _ = play(get_ruleset("gin"), players, seed, greedy_share=0.5)
    check_game(state, log)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    preset=st.sampled_from(["knock-rummy", "hoyle", "rami", "gin"]),
    players=st.integers(2, 4),
    knocks=st.booleans(),
)
def test_counts_score_like_hands(seed: int, preset: str, players: int, knocks: bool) -> None:
    """The quick path's scoring from counts agrees with scoring the hands themselves."""
    ruleset = get_ruleset(preset)
    rng = random.Random(seed)
    deck = shuffled_deck(ruleset, seed)
    size = ruleset.cards_per_player(players)
    hands = {seat: deck[seat * size : (seat + 1) * size] for seat in range(players)}
    knocker = rng.randrange(players) if knocks or ruleset.scoring == "gin" else None
    try:
        shown = score_showdown(ruleset, hands, knocker)
    except ValueError:
        return  # a gin knock over the limit: not a showdown
    outcome, points, winners, rums = score_counts(ruleset, shown.deadwood, knocker)
    assert (outcome, points, winners, rums) == (shown.outcome, shown.points, shown.winners, shown.rum_seats)


def test_views_never_leak_hidden_cards() -> None:
    rng = random.Random(7)
    for preset in ("knock-rummy", "gin", "rami"):
        ruleset = get_ruleset(preset)
        log = decide(None, StartGame(ruleset, ("A", "B", "C")))
        state = replay(log)
        face_up: set[str] = set()  # every card seen face up this hand: the table saw it
        for _ in range(400):
            if state.status == "finished":
                break
            if state.needs_deal:
                events = decide(state, DealHand(deck=shuffled_deck(ruleset, rng.random())))
                face_up = set()
            else:
                events = decide(state, rng.choice(legal_commands(state)))
            for event in events:
                state = apply(state, event)
                if state.hand is not None:
                    face_up |= {ALL_CARDS[i].code for i in state.hand.pile}
            hand = state.hand
            if hand is None or hand.phase == "over":
                continue
            for seat in (None, 0, 1, 2):
                shown = view(state, seat).to_dict()
                text = json.dumps({k: v for k, v in shown.items() if k not in ("last_hand", "ruleset")})
                own = {c.code for c in hand.hand_cards(seat)} if seat is not None else set()
                public = face_up | own
                for card in {c.code for s in range(3) for c in hand.hand_cards(s)} - public:
                    assert f'"{card}"' not in text, (seat, card)


def play_without_knocking(
    ruleset: RuleSet, players: int, seed: int, mode: str
) -> tuple[GameState, list[Event]]:
    """Random play that never knocks, so every stock runs out; a physical showdown is
    entered through the quick path with random announced counts."""
    rng = random.Random(seed)
    log = decide(None, StartGame(ruleset, tuple(f"P{i}" for i in range(players)), mode))
    state = replay(log)
    hands = 0
    while hands < 3 and state.status not in ("finished", "abandoned"):
        if state.status == "awaiting_deal":
            hands += 1
            if mode == "digital":
                command: Any = DealHand(deck=shuffled_deck(ruleset, rng.random()))
            else:
                command = DealHand(upcard=shuffled_deck(ruleset, rng.random())[0])
        elif state.status == "showdown":
            assert state.hand is not None
            command = RecordHandResult(
                knocker=None, deadwood={s: rng.randrange(60) for s in state.hand.order}
            )
        else:
            options = [c for c in legal_commands(state) if not isinstance(c, Knock)]
            command = rng.choice(options)
        for event in decide(state, command):
            state = apply(state, event)
            log.append(event)
    return state, log


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    mode=st.sampled_from(["digital", "physical"]),
    preset=st.sampled_from(
        [
            ("knock-rummy", {}),
            ("hoyle", {}),
            ("hoyle", {"stock_exhausted": "reshuffle"}),
            ("gin", {}),
            ("gin", {"stock_exhausted": "turn_over", "max_restocks": 1}),
        ]
    ),
)
def test_stock_running_out(seed: int, players: int, mode: str, preset: tuple[str, dict[str, Any]]) -> None:
    ruleset = get_ruleset(preset[0], **preset[1])
    state, log = play_without_knocking(ruleset, players, seed, mode)
    assert replay(log) == state
    outcomes = {r.outcome for r in state.tally.results}
    assert outcomes <= {"void", "no_knock"}
    restocks = sum(1 for e in log if isinstance(e, StockRestocked))
    if ruleset.stock_exhausted in ("turn_over", "reshuffle"):
        assert restocks >= min(ruleset.max_restocks, 1)
