"""Nothing outside its registry names a seating method or a tiebreak: a new method is
one module in ``league/seating`` and its record in ``league/seating/registry.py``, a
new tiebreak one entry in ``league/standings/tiebreaks.py``. Everything else reads the
records (label, flags, parameters, the default method).

The scan reads every module of the project (ast: a string constant equal to a name,
wherever it is — a comparison, a default, a dict) and every template (the name quoted).
Migrations are history and left out. Of the tiebreaks, those named by plain English
words that are also the names of other things (``points``, ``wins``, ``played``,
``random``) cannot be told apart by a scan and are not looked for."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from league.seating import RECORDS
from league.standings.tiebreaks import REGISTRY
from tests.support.source import parse

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("core", "engine", "games", "league", "api", "config", "web")
METHODS = set(RECORDS)
TIEBREAKS = set(REGISTRY) - {"points", "wins", "played", "random"}
# Where the names are declared: the method modules and the registry, the tiebreak registry.
REGISTRIES = (ROOT / "league" / "seating", ROOT / "league" / "standings" / "tiebreaks.py")


def modules() -> list[Path]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts or any(path.is_relative_to(r) for r in REGISTRIES):
                continue
            found.append(path)
    return found


def named(path: Path, names: set[str]) -> list[str]:
    tree = parse(path.read_text(), str(path))
    return [
        f"{path.name}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names
    ]


def test_the_scan_reads_the_code_and_finds_a_name(tmp_path: Path) -> None:
    assert len(modules()) > 100
    assert {"balanced", "knockout", "manual"} <= METHODS and "buchholz" in TIEBREAKS
    probe = tmp_path / "probe.py"
    probe.write_text(
        '"""A knockout, in a docstring."""\nif seating == "knockout":\n    ORDER = ["buchholz"]\n'
    )
    assert named(probe, METHODS | TIEBREAKS) == ["probe.py:2: 'knockout'", "probe.py:3: 'buchholz'"]


def test_no_module_outside_the_registries_names_a_method_or_a_tiebreak() -> None:
    found = [hit for path in modules() for hit in named(path, METHODS | TIEBREAKS)]
    assert found == []


def test_no_template_names_a_method_or_a_tiebreak() -> None:
    alternatives = "|".join(sorted(METHODS | TIEBREAKS))
    pattern = re.compile(rf"""["']({alternatives})["']""")
    found = [
        f"{path.relative_to(ROOT)}: {match.group(1)}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for match in pattern.finditer(path.read_text())
    ]
    assert found == []
