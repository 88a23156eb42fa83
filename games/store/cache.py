"""The per-process cache of the latest state of recently used games."""

from __future__ import annotations

import dataclasses
import threading
import uuid
from collections import OrderedDict

from engine import GameState

STATE_CACHE_SIZE = 512


class StateCache:
    """The latest state of recently used games, per process, keyed by the stream's uid
    and checked against the game's version. Disposable: a miss replays the log, a
    stale entry catches up by applying only the newer events. Only committed states
    go in (services put new states here from ``transaction.on_commit``)."""

    def __init__(self, size: int = STATE_CACHE_SIZE) -> None:
        self._size = size
        self._states: OrderedDict[uuid.UUID, GameState] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, uid: uuid.UUID) -> GameState | None:
        with self._lock:
            state = self._states.get(uid)
            if state is not None:
                self._states.move_to_end(uid)
            return state

    def put(self, uid: uuid.UUID, state: GameState) -> None:
        """Keep ``state`` — without the earlier states it links to (``prior``, the history a
        retraction goes back through): a whole game's history would otherwise stay in
        memory. A retraction reads the history from the log instead
        (:func:`games.store.load_state`)."""
        if state.prior is not None:
            state = dataclasses.replace(state, prior=None)
        with self._lock:
            current = self._states.get(uid)
            if current is not None and current.version > state.version:
                return
            self._states[uid] = state
            self._states.move_to_end(uid)
            while len(self._states) > self._size:
                self._states.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._states.clear()


state_cache = StateCache()
