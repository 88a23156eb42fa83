"""The shared cache (Redis when ``REDIS_URL`` is set) as the pages use it: a helper for
the calls whose failure must not fail the request.

What the cache holds here is either derived (a live part rendered once for every viewer:
``web/live_parts.py``) or a safeguard (the sign-in failure counts:
``config/login_throttle.py``). When Redis is down or slow (the settings give each call a
one-second timeout) the request goes on without it — the part is rendered for each
request, the sign-in is checked by its password alone — and the outage is logged, never
answered with a 500.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# What a cache call raises when Redis cannot be reached (refused, timed out: OSError's
# kin inside redis-py's own errors).
CACHE_ERRORS = (RedisError, OSError)

T = TypeVar("T")
U = TypeVar("U")


def shared(call: Callable[..., T], unavailable: U, *args: Any, **kwargs: Any) -> T | U:
    """``call(*args, **kwargs)`` on the shared cache, or ``unavailable`` when the cache
    cannot be reached."""
    try:
        return call(*args, **kwargs)
    except CACHE_ERRORS as exc:
        logger.warning("the shared cache is unavailable (%s): %s", getattr(call, "__name__", call), exc)
        return unavailable
