"""Reading stored events: old payloads are upgraded on read, never rewritten.

An upcaster turns the ``data`` of one event type at schema version ``n`` into the
data of version ``n + 1``; :func:`event_from_dict` chains them up to the event
class's current ``SCHEMA_VERSION``. When an event's payload changes shape, bump its
``SCHEMA_VERSION`` and register ``upcast_<type>_v<n>_v<n+1>`` here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.codec import short
from engine.events import EVENT_TYPES, Event, InvalidEvent
from engine.rules import FIRST_BEST

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]

UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def register_upcaster(event_type: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register ``fn`` as the upcaster of ``event_type`` data from ``from_version`` to
    the next version (a decorator)."""

    def register(fn: Upcaster) -> Upcaster:
        key = (event_type, from_version)
        if key in UPCASTERS:
            raise ValueError(f"an upcaster for {event_type} v{from_version} is already registered")
        UPCASTERS[key] = fn
        return fn

    return register


@register_upcaster("GameStarted", 1)
def upcast_gamestarted_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v2 records how the engine chooses a gin knocker's melds; a v1 game was scored by
    the first best arrangement (the arrangement tie-break), so it keeps that rule.

    >>> upcast_gamestarted_v1_v2({"mode": "digital"})
    {'mode': 'digital', 'knock_arrangement': 'first_best'}
    """
    return {**data, "knock_arrangement": FIRST_BEST}


def event_from_dict(stored: Mapping[str, Any]) -> Event:
    """Read a stored event ``{"type", "schema_version", "data"}``, upgrading old data.

    >>> event_from_dict({"type": "CardDiscarded", "schema_version": 1, "data": {"seat": 0, "card": "qs"}})
    CardDiscarded(seat=0, card=Card('QS'))
    >>> event_from_dict({"type": "Shuffled", "schema_version": 1, "data": {}})
    Traceback (most recent call last):
    ...
    engine.events.InvalidEvent: unknown event type 'Shuffled'
    """
    # type() first: the ABC's isinstance is slow, and stored events are read by the thousand
    if type(stored) is not dict and not isinstance(stored, Mapping):
        raise InvalidEvent(f"a stored event is an object, not {short(stored)}")
    event_type = stored.get("type")
    cls = EVENT_TYPES.get(event_type) if isinstance(event_type, str) else None
    if cls is None:
        raise InvalidEvent(f"unknown event type {short(event_type)}", code="unknown_event_type")
    version = stored.get("schema_version", 1)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise InvalidEvent(f"{event_type}: schema_version must be a positive integer, not {short(version)}")
    if version > cls.SCHEMA_VERSION:
        raise InvalidEvent(
            f"{event_type} v{version} is newer than this engine reads (v{cls.SCHEMA_VERSION})",
            code="event_from_the_future",
        )
    data = stored.get("data", {})
    if type(data) is not dict and not isinstance(data, Mapping):
        raise InvalidEvent(f"{event_type}: data must be an object, not {short(data)}")
    payload = data  # read as it is; an upcaster gets a copy of its own
    while version < cls.SCHEMA_VERSION:
        upcaster = UPCASTERS.get((cls.TYPE, version))
        if upcaster is None:
            raise InvalidEvent(f"no upcaster for {event_type} v{version}", code="no_upcaster")
        payload = upcaster(dict(payload))
        version += 1
    result: Event = cls.from_data(payload)
    return result


def event_to_dict(event: Event) -> dict[str, Any]:
    """The stored form of ``event``: ``{"type", "schema_version", "data"}``, JSON-ready.

    >>> from engine.events import DrawDeclined
    >>> event_to_dict(DrawDeclined(seat=2))
    {'type': 'DrawDeclined', 'schema_version': 1, 'data': {'seat': 2}}
    """
    return event.to_dict()
