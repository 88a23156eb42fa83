"""A small reader of gettext catalogues (``.po``) for the translation tests: each entry
with its context, its msgid (and plural), its translations and whether it is fuzzy."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")


@dataclass
class Entry:
    msgid: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    fuzzy: bool = False

    @property
    def key(self) -> tuple[str | None, str, str | None]:
        return (self.msgctxt, self.msgid, self.msgid_plural)

    def __str__(self) -> str:
        context = f"[{self.msgctxt}] " if self.msgctxt else ""
        return f"{context}{self.msgid!r}"


def read_po(path: Path) -> list[Entry]:
    """Every entry of ``path`` but the header (msgid ""); obsolete entries (``#~``) are
    not entries."""
    entries: list[Entry] = []
    entry = Entry()
    part = ""
    started = False

    def close() -> None:
        nonlocal entry, started
        if started:
            entries.append(entry)
        entry, started = Entry(), False

    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("#~"):
            continue
        if line.startswith("#"):
            if started and entry.msgstr:
                close()
            if line.startswith("#,") and "fuzzy" in line:
                entry.fuzzy = True
            continue
        if not line:
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and entry.msgstr:
            close()
        if keyword == "msgctxt":
            entry.msgctxt, part, started = ast.literal_eval(rest), "msgctxt", True
        elif keyword == "msgid":
            entry.msgid, part, started = ast.literal_eval(rest), "msgid", True
        elif keyword == "msgid_plural":
            entry.msgid_plural, part = ast.literal_eval(rest), "msgid_plural"
        elif keyword.startswith("msgstr"):
            entry.msgstr.append(ast.literal_eval(rest))
            part = "msgstr"
        elif line.startswith('"'):
            text = ast.literal_eval(line)
            if part == "msgstr":
                entry.msgstr[-1] += text
            elif part == "msgctxt":
                entry.msgctxt = (entry.msgctxt or "") + text
            elif part == "msgid_plural":
                entry.msgid_plural = (entry.msgid_plural or "") + text
            else:
                entry.msgid += text
    close()
    return [e for e in entries if e.msgid or e.msgctxt]


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))
