"""A small per-process cache: a bounded, thread-safe map that forgets its least recently
used entries, each value kept with a stamp that a reader must present again (a uid, a
time of writing) so that a value of an older row is never taken for the current one.

What the processes keep this way (the latest game states: ``games.store.cache``; the
standings records of recent tournaments: ``league.standings_records``) is disposable:
a miss reads the database.

>>> cache = StampedCache[str](size=2)
>>> cache.put(1, "a", "one"); cache.put(2, "b", "two")
>>> cache.get(1, "a"), cache.get(1, "stale")
('one', None)
>>> cache.put(3, "c", "three")  # 2 is the least recently used: forgotten
>>> cache.get(2, "b"), cache.peek(1)
(None, ('a', 'one'))
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

V = TypeVar("V")


class StampedCache(Generic[V]):
    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[int, tuple[object, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: int, stamp: object) -> V | None:
        """The value kept under ``key`` with ``stamp`` (None: none, or another stamp's)."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0] != stamp:
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def peek(self, key: int) -> tuple[object, V] | None:
        """The stamp and value kept under ``key``, whatever the stamp, without making
        the entry recently used."""
        with self._lock:
            return self._entries.get(key)

    def put(
        self, key: int, stamp: object, value: V, *, keep: Callable[[object, V], bool] | None = None
    ) -> None:
        """Keep ``value`` under ``key`` with ``stamp`` — unless ``keep(stamp, value)`` of
        the entry already there says it stays (asked under the lock: a newer value put
        meanwhile by another thread is not overwritten)."""
        with self._lock:
            current = self._entries.get(key)
            if current is not None and keep is not None and keep(*current):
                return
            self._entries[key] = (stamp, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
