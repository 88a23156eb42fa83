"""The shape of the suite: fixtures shared by several packages come from the plugin
modules in tests/fixtures/ (``pytest_plugins`` in tests/conftest.py), plain helpers from
tests/support/, and no module imports a conftest — pytest loads conftests itself, and an
imported one runs twice under two names and hides where a fixture comes from."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from tests.support.source import parse

TESTS = Path(__file__).resolve().parent


def conftest_imports(source: str) -> list[str]:
    """Each import statement of ``source`` that names a conftest module, as ``line: module``."""
    found = []
    for node in ast.walk(parse(source)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            joint = "" if base.endswith(".") else "."
            modules = [base] + [f"{base}{joint}{alias.name}" for alias in node.names]
        else:
            continue
        for module in modules:
            if "conftest" in module.replace(".", " ").split():
                found.append(f"{node.lineno}: {module}")
                break
    return found


def _is_fixture(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return (isinstance(target, ast.Attribute) and target.attr == "fixture") or (
        isinstance(target, ast.Name) and target.id == "fixture"
    )


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from tests.games.conftest import new_game, play", ["1: tests.games.conftest"]),
        ("import tests.conftest", ["1: tests.conftest"]),
        ("x = 1\nfrom . import conftest", ["2: .conftest"]),
        ("from .conftest import IN_CI", ["1: .conftest"]),
        ("from tests.support.games import new_game\nimport conftesting", []),
    ],
    ids=["from-import", "import", "relative-package", "relative-module", "no-conftest"],
)
def test_the_scan_finds_every_form_of_conftest_import(source: str, expected: list[str]) -> None:
    assert conftest_imports(source) == expected


def test_no_module_imports_a_conftest() -> None:
    offenders = [
        f"{path.relative_to(TESTS)}:{found}"
        for path in sorted(TESTS.rglob("*.py"))
        for found in conftest_imports(path.read_text())
    ]
    assert offenders == []


def test_support_modules_hold_no_fixtures() -> None:
    fixtures = [
        f"{path.relative_to(TESTS)}: {node.name}"
        for path in sorted((TESTS / "support").glob("*.py"))
        for node in ast.walk(parse(path.read_text()))
        if isinstance(node, ast.FunctionDef) and any(map(_is_fixture, node.decorator_list))
    ]
    assert fixtures == []


def test_every_fixture_module_is_a_loaded_plugin(pytestconfig: pytest.Config) -> None:
    modules = sorted(
        f"tests.fixtures.{path.stem}" for path in (TESTS / "fixtures").glob("*.py") if path.stem != "__init__"
    )
    assert modules
    assert [m for m in modules if not pytestconfig.pluginmanager.has_plugin(m)] == []


def test_the_scanners_parse_again_after_cpythons_spurious_recursion_mismatch(monkeypatch: Any) -> None:
    """tests.support.source.parse: CPython 3.11's spurious SystemError (gh-106905) is
    answered by a second parse in a fresh thread; any other SystemError is raised."""
    from tests.support import source

    real, calls = ast.parse, []

    def flaky(*args: Any, **kwargs: Any) -> ast.Module:
        calls.append(args[0])
        if len(calls) == 1:
            raise SystemError("AST constructor recursion depth mismatch (before=90, after=65)")
        return real(*args, **kwargs)

    monkeypatch.setattr(source.ast, "parse", flaky)
    assert isinstance(source.parse("x = 1").body[0], ast.Assign) and len(calls) == 2
    monkeypatch.setattr(source.ast, "parse", lambda *a, **k: (_ for _ in ()).throw(SystemError("other")))
    with pytest.raises(SystemError, match="other"):
        source.parse("x = 1")
