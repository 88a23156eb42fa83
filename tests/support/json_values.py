"""Reading parsed JSON in the hidden-information tests. Standard library only, so the
engine layer's tests may use it too."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any


def strings_in(value: Any, *, skip: Collection[str] = ()) -> Iterator[str]:
    """Every string ``value`` (parsed JSON) holds as a value, at any depth; object keys
    are not values, and whatever sits under a key in ``skip`` is left out."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                yield from strings_in(item, skip=skip)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item, skip=skip)
