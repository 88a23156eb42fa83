"""What every layer shares and nothing else: the domain error, messages as data, and
the bounded per-process cache (:mod:`core.lru`).

Pure Python (standard library only), importable by the engine, the seating and
standings packages, the Django apps and the API alike; it imports no project package.
"""

from core.errors import DomainError, Kind
from core.messages import Message

__all__ = ["DomainError", "Kind", "Message"]
