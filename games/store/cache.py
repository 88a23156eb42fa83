"""The per-process cache of the latest state of recently used games."""

from __future__ import annotations

import dataclasses

from core.lru import StampedCache
from engine import GameState
from games.models import Game

STATE_CACHE_SIZE = 512


class StateCache:
    """The latest state of recently used games, per process, keyed by the game's id and
    checked against its uid (an id can come back after a rollback on SQLite) and its
    version. Disposable: a miss replays the log, a stale entry catches up by applying
    only the newer events. Only committed states go in (services put new states here
    from ``transaction.on_commit``)."""

    def __init__(self, size: int = STATE_CACHE_SIZE) -> None:
        self._states = StampedCache[GameState](size)

    def get(self, game: Game) -> GameState | None:
        return self._states.get(game.pk, game.uid)

    def version_of(self, game_id: int) -> int:
        """The version of the state kept for the game ``game_id`` (0: none). A read of
        the game's row brings along the events after it (:func:`games.store.read_game_for_write`),
        before the row is known; :meth:`get` checks the uid when the state is used."""
        entry = self._states.peek(game_id)
        return entry[1].version if entry is not None else 0

    def put(self, game: Game, state: GameState) -> None:
        """Keep ``state`` as ``game``'s — without the earlier states it links to
        (``prior``, the history a retraction goes back through): a whole game's history
        would otherwise stay in memory. A retraction reads the history from the log
        instead (:func:`games.store.load_state`). A newer state of the game stays."""
        if state.prior is not None:
            state = dataclasses.replace(state, prior=None)
        version = state.version
        self._states.put(
            game.pk, game.uid, state, keep=lambda uid, kept: uid == game.uid and kept.version > version
        )

    def clear(self) -> None:
        self._states.clear()


state_cache = StateCache()
