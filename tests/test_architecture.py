"""The layers, as docs/architecture.md draws them, checked on every module's imports.

    core  <-  engine  <-  games  <-  league  <-  api, web        config: imports no app

``core`` (the domain error) is importable by every package and imports nothing of the
project (the standard library only); the engine imports ``core`` alone; ``games`` the
engine; ``league`` both; ``api`` and ``web`` sit on top and do not import each other; no
package below ``api`` imports it. ``config`` (settings, urls, the Celery app, the error
views) names the apps' modules by dotted string, never by import; the apps may import
``config`` (the Celery app, the error body). Every import counts: at module level, inside
a function (a lazy import hides a cycle, it does not remove it), under
``TYPE_CHECKING``, relative or absolute. Same scan as tests/engine/test_engine_isolation.py.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from tests.support.source import parse

ROOT = Path(__file__).resolve().parents[1]

# What each of the project's packages may import of the others (itself always).
MAY_IMPORT: dict[str, set[str]] = {
    "core": set(),
    "engine": {"core"},
    "games": {"core", "engine", "config"},
    "league": {"core", "engine", "games", "config"},
    "api": {"core", "engine", "games", "league", "config"},
    "web": {"core", "engine", "games", "league", "config"},
    "config": {"core"},
}
PACKAGES = set(MAY_IMPORT)


def imported_modules(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """Every module ``source`` (the text of ``module``) imports, as ``(line, dotted name)``:
    module level or not, relative imports resolved."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = module.split(".")
                base = parts if is_package else parts[:-1]
                base = base[: len(base) - (node.level - 1)]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            found.append((node.lineno, name))
    return found


def _modules() -> list[tuple[str, Path]]:
    modules = []
    for package in sorted(PACKAGES):
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            dotted = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            modules.append((dotted, path))
    return modules


@pytest.mark.parametrize(
    ("source", "module", "expected"),
    [
        ("import games.store", "league.x", [(1, "games.store")]),
        ("def f():\n    from web import words", "games.x", [(2, "web")]),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from api.views import ApiView",
            "league.x",
            [(1, "typing"), (3, "api.views")],
        ),
        ("from . import store", "games.services", [(1, "games")]),
        ("from ..selectors import x", "league.standings.compute", [(1, "league.selectors")]),
    ],
    ids=["plain", "lazy", "type-checking", "relative", "relative-parent"],
)
def test_the_scan_finds_every_form_of_import(
    source: str, module: str, expected: list[tuple[int, str]]
) -> None:
    assert imported_modules(source, module) == expected


def test_every_package_imports_only_the_layers_below_it() -> None:
    offenders = []
    for module, path in _modules():
        own = module.split(".")[0]
        for line, name in imported_modules(path.read_text(), module, path.name == "__init__.py"):
            top = name.split(".")[0]
            if top in PACKAGES and top != own and top not in MAY_IMPORT[own]:
                offenders.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert offenders == []


def test_core_imports_the_standard_library_only() -> None:
    outside = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for module, path in _modules()
        if module.split(".")[0] == "core"
        for line, name in imported_modules(path.read_text(), module, path.name == "__init__.py")
        if name.split(".")[0] not in (*sys.stdlib_module_names, "core", "__future__")
    ]
    assert outside == []


def test_the_scan_sees_every_package_and_the_api_is_imported_by_none_below_it() -> None:
    modules = _modules()
    assert {module.split(".")[0] for module, _ in modules} == PACKAGES
    below_api = [p for p, allowed in MAY_IMPORT.items() if "api" not in allowed and p != "api"]
    assert set(below_api) == PACKAGES - {"api"}


# Writing memberships (the demo, the admin, granting and removing a role) is not reading them.
MEMBERSHIP_WRITES = ("create", "get_or_create", "bulk_create")
# league.locks takes the row locks of every write in one order (its docstring), the
# directors' rows among them: a lock, not a read for a page.
MEMBERSHIP_READERS = ("league.access", "league.locks")


def _membership_manager_calls(tree: ast.AST) -> list[tuple[ast.Attribute, bool]]:
    """Each ``Membership.objects.<method>`` in ``tree``, and whether it only selects the
    rows a ``.delete()`` right after it removes (``….filter(…).delete()`` is a write)."""
    deleted: set[int] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "delete"
            and isinstance(node.func.value, ast.Call)
        ):
            deleted.add(id(node.func.value.func))
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "objects"
            and isinstance(node.value.value, ast.Name)
            and node.value.value.id == "Membership"
        ):
            found.append((node, id(node) in deleted))
    return found


def test_league_access_is_the_one_reader_of_memberships() -> None:
    readers = []
    for module, path in _modules():
        if module in MEMBERSHIP_READERS or ".migrations." in module:
            continue
        for node, deletes in _membership_manager_calls(parse(path.read_text())):
            if node.attr not in MEMBERSHIP_WRITES and not deletes:
                readers.append(f"{path.relative_to(ROOT)}:{node.lineno} Membership.objects.{node.attr}")
    assert readers == []


def test_the_membership_scan_tells_a_read_from_a_write() -> None:
    source = (
        "Membership.objects.filter(club=c).delete()\n"
        "Membership.objects.get_or_create(club=c)\n"
        "rows = Membership.objects.filter(club=c)\n"
    )
    calls = [(node.attr, deletes) for node, deletes in _membership_manager_calls(parse(source))]
    assert sorted(calls) == [("filter", False), ("filter", True), ("get_or_create", False)]
