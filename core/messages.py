"""Messages as data: a code and its parameters, worded only when shown.

Seating notes, corrections, refusals: anything a person reads later is stored as a
:class:`Message` — ``{"code": "repeat_unavoidable", "params": {"players": [3, 7]}}`` —
never as an English sentence. The layer that shows it words it (through gettext, in the
reader's language), so rewording or translating never changes stored data, and archives
and ``regenerate --check`` compare codes and parameters, never wording.

>>> note = Message("bye", {"player": 7, "count": 2})
>>> note.to_dict()
{'code': 'bye', 'params': {'player': 7, 'count': 2}}
>>> Message.from_dict(note.to_dict()) == note
True
>>> Message("no_repeats").to_dict()
{'code': 'no_repeats', 'params': {}}
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def _frozen(value: Any) -> Any:
    """A hashable copy of a JSON value (lists become tuples, objects sorted pairs)."""
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


@dataclass(frozen=True)
class Message:
    """``code`` names what is said; ``params`` (JSON values) fill it in."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.code, str) or not self.code:
            raise ValueError("a message needs a code")
        object.__setattr__(self, "params", dict(self.params))
        json.dumps(self.params)  # JSON values only: what is stored must read back the same

    def __hash__(self) -> int:
        return hash((self.code, _frozen(self.params)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return NotImplemented
        return self.code == other.code and self.params == other.params

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Message:
        if not isinstance(data, Mapping) or not isinstance(data.get("code"), str):
            raise ValueError("a message is an object with a string 'code'")
        params = data.get("params", {})
        if not isinstance(params, Mapping):
            raise ValueError("a message's 'params' is an object")
        return cls(data["code"], params)
