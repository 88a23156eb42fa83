"""What the archive checks report: one problem per difference, with a stable code, the
place in the archive (a JSON path) and a message for people (docs/archive.md lists the
codes)."""

from __future__ import annotations

from dataclasses import dataclass


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
