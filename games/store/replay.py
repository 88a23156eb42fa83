"""States from the log: folds, and the current state through the process cache."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import engine
from engine import Event, GameState
from games.models import Game, GameEvent
from games.store.cache import state_cache
from games.store.errors import CorruptStream
from games.store.mapping import StoredEvent, stored_to_engine, to_engine


def fold(state: GameState | None, events: Iterable[Event]) -> GameState | None:
    for event in events:
        state = engine.apply(state, event)
    return state


def fold_steps(state: GameState | None, events: Iterable[Event]) -> list[GameState]:
    """The state after each of ``events``, starting from ``state``."""
    steps = []
    for event in events:
        state = engine.apply(state, event)
        steps.append(state)
    return steps


def load_state(game: Game, *, use_cache: bool = True, tail: Sequence[StoredEvent] | None = None) -> GameState:
    """The state of ``game`` at ``game.version``: the cached state caught up with the
    events after it, or a full replay (``use_cache=False``, or when the events to catch
    up include a retraction: only a full replay has the history it goes back through).
    ``tail``, when given, holds the game's events after some version (see
    :func:`games.store.read_game_for_write`); it is used when it starts right after the cached
    state, which saves a query."""
    base = state_cache.get(game) if use_cache else None
    if base is not None and base.version > game.version:
        base = None
    if base is not None and base.version == game.version:
        return base
    after = base.version if base is not None else 0
    if tail is not None and (tail[0].seq if tail else game.version + 1) == after + 1:
        events = stored_to_engine(tail)
    else:
        events = _events_between(game, after)
    if base is not None and any(isinstance(event, engine.Retracted) for event in events):
        base, events = None, _events_between(game, 0)
    state = fold(base, events)
    if state is None or state.version != game.version:
        found = state.version if state is not None else 0
        raise CorruptStream(f"game {game.pk}: the log replays to version {found}, not {game.version}")
    if use_cache:
        state_cache.put(game, state)
    return state


def _events_between(game: Game, after: int) -> list[Event]:
    """The game's events after ``after`` up to its version: a write that commits after
    ``game`` was read is not part of this state (the caller's own write would then
    conflict)."""
    rows = GameEvent.objects.filter(game_id=game.pk, seq__gt=after, seq__lte=game.version)
    return to_engine(rows.order_by("seq"))


def state_at(game: Game, version: int) -> GameState | None:
    """The state after the first ``version`` events (None before the first)."""
    if version <= 0:
        return None
    rows = GameEvent.objects.filter(game_id=game.pk, seq__lte=version).order_by("seq")
    return fold(None, to_engine(rows))
