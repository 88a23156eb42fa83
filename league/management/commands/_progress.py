"""Progress of a long management command: on a terminal one line rewritten in place, else
(a log, a pipe) one line per batch."""

from __future__ import annotations

from typing import Any


class ProgressLine:
    """``report(text)`` after each batch; ``done()`` at the end (ends a terminal's line)."""

    def __init__(self, stdout: Any) -> None:
        self.stdout = stdout
        isatty = getattr(stdout, "isatty", None)
        self.terminal = bool(isatty and isatty())
        self.open = False

    def report(self, text: str) -> None:
        if self.terminal:
            self.stdout.write(f"\r\x1b[K{text}", ending="")
            self.stdout.flush()
            self.open = True
        else:
            self.stdout.write(text)

    def done(self) -> None:
        if self.open:
            self.stdout.write("")
            self.open = False
