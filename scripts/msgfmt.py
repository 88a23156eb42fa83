#!/usr/bin/env python3
"""Compile the message catalogues (``locale/*/LC_MESSAGES/*.po``) to ``.mo`` files, in
pure Python, for machines without GNU gettext's ``msgfmt`` (a slim container, a fresh
laptop). ``scripts/bootstrap.sh`` uses ``manage.py compilemessages`` when ``msgfmt`` is
installed and this otherwise; both write the same catalogue. The logic is that of
CPython's ``Tools/i18n/msgfmt.py``: entries marked fuzzy and untranslated ones are left
out (gettext then shows the English), contexts are joined with ``\\x04`` and plural forms
with ``\\x00``.

    python scripts/msgfmt.py            # every catalogue under locale/
    python scripts/msgfmt.py --check    # exit 1 when a .mo is missing or older than its .po

Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import argparse
import ast
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"


def _unquote(text: str, path: Path, number: int) -> str:
    try:
        value = ast.literal_eval(text)
    except (SyntaxError, ValueError) as error:
        raise SystemExit(f"{path}:{number}: cannot read {text!r}") from error
    if not isinstance(value, str):
        raise SystemExit(f"{path}:{number}: not a string: {text!r}")
    return value


def parse(path: Path) -> dict[bytes, bytes]:
    """The translated, non-fuzzy entries of a ``.po`` file: ``{msgid: msgstr}`` as the
    ``.mo`` format keys them (``ctxt\\x04id``, plurals joined with NUL)."""
    messages: dict[bytes, bytes] = {}
    entry: dict[str, str] = {}
    plurals: dict[int, str] = {}
    fuzzy = False
    section = ""
    index = 0

    def flush() -> None:
        nonlocal entry, plurals, fuzzy
        if "msgid" in entry and not fuzzy:
            key = entry["msgid"]
            if "msgid_plural" in entry:
                key += "\0" + entry["msgid_plural"]
                value = "\0".join(plurals[i] for i in sorted(plurals))
            else:
                value = entry.get("msgstr", "")
            if "msgctxt" in entry:
                key = entry["msgctxt"] + "\x04" + key
            # an empty translation is no translation; the header (msgid "") always counts
            if value.replace("\0", "") and (key or value):
                messages[key.encode()] = value.encode()
        entry, plurals, fuzzy = {}, {}, False

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#,") and "fuzzy" in line:
            if entry.get("msgstr") is not None or plurals:
                flush()
            fuzzy = True
            continue
        if not line or line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "msgctxt" or (keyword == "msgid" and ("msgstr" in entry or plurals)):
            flush()
        if keyword in ("msgctxt", "msgid", "msgid_plural", "msgstr"):
            section = keyword
            entry[section] = _unquote(rest, path, number)
        elif keyword.startswith("msgstr["):
            section = "plural"
            index = int(keyword[len("msgstr[") : -1])
            plurals[index] = _unquote(rest, path, number)
        elif line.startswith('"'):
            if section == "plural":
                plurals[index] += _unquote(line, path, number)
            elif section:
                entry[section] += _unquote(line, path, number)
            else:
                raise SystemExit(f"{path}:{number}: a string outside any entry")
        else:
            raise SystemExit(f"{path}:{number}: cannot read {line!r}")
    flush()
    return messages


def mo_bytes(messages: dict[bytes, bytes]) -> bytes:
    """The GNU ``.mo`` format, little-endian, keys sorted, no hash table."""
    keys = sorted(messages)
    ids = b""
    strs = b""
    offsets = []
    for key in keys:
        offsets.append((len(ids), len(key), len(strs), len(messages[key])))
        ids += key + b"\0"
        strs += messages[key] + b"\0"
    count = len(keys)
    key_start = 7 * 4 + 16 * count
    value_start = key_start + len(ids)
    key_table: list[int] = []
    value_table: list[int] = []
    for id_offset, id_length, str_offset, str_length in offsets:
        key_table += [id_length, id_offset + key_start]
        value_table += [str_length, str_offset + value_start]
    header = struct.pack("Iiiiiii", 0x950412DE, 0, count, 7 * 4, 7 * 4 + count * 8, 0, 0)
    tables = struct.pack(f"{len(key_table)}i", *key_table) + struct.pack(f"{len(value_table)}i", *value_table)
    return header + tables + ids + strs


def catalogues(locale: Path = LOCALE) -> list[Path]:
    return sorted(locale.glob("*/LC_MESSAGES/*.po"))


def stale(po: Path) -> bool:
    mo = po.with_suffix(".mo")
    return not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime


def compile_catalogue(po: Path) -> Path:
    mo = po.with_suffix(".mo")
    mo.write_bytes(mo_bytes(parse(po)))
    return mo


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether a .mo is missing or stale")
    args = parser.parse_args(argv)
    if args.check:
        behind = [po for po in catalogues() if stale(po)]
        for po in behind:
            print(f"{po.relative_to(ROOT)}: its .mo is missing or older", file=sys.stderr)
        return 1 if behind else 0
    for po in catalogues():
        mo = compile_catalogue(po)
        print(f"compiled {mo.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
