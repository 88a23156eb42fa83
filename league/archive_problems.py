"""What the archive checks report: one problem per difference, with a stable code, the
place in the archive (a JSON path) and a message for people (docs/archive.md lists the
codes)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Problem:
    """``where`` is a path into the archive, as ``rounds[1].tables[0].game``."""

    code: str
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message} ({self.code})"

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "where": self.where, "message": self.message}


def api_problems(shape: Any, data: Mapping[str, Any], where: str) -> list[Problem]:
    """The API's serializer ``shape`` (its class) on ``data``: its refusals as problems,
    each at ``where`` and the field's path."""
    checked = shape(data=data)
    if checked.is_valid():
        return []
    return [
        Problem("invalid_request", f"{where}.{path}", message)
        for path, message in flat_errors(checked.errors)
    ]


def flat_errors(errors: Any, path: str = "") -> list[tuple[str, str]]:
    """A serializer's nested errors as (path, message) pairs."""
    items: list[tuple[Any, Any]]
    if isinstance(errors, Mapping):
        items = list(errors.items())
    elif isinstance(errors, list) and errors and not isinstance(errors[0], str):
        items = list(enumerate(errors))  # a list field's children, by index
    else:
        return [(path, " ".join(str(e) for e in errors) if isinstance(errors, list) else str(errors))]
    out = []
    for key, value in items:
        step = f"[{key}]" if isinstance(key, int) else (f".{key}" if path else str(key))
        out += flat_errors(value, f"{path}{step}")
    return out
