"""The engine imports nothing from Django, Celery or the database, and of the project
only ``core``."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.source import parse

ROOT = Path(__file__).resolve().parents[2]


def test_importing_engine_imports_no_framework() -> None:
    code = (
        "import sys, engine, engine.bots; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'celery', 'rest_framework', 'psycopg', 'redis', 'kombu'}); print(bad)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


ENGINE = ROOT / "engine"
# The project's packages besides the engine; of them the engine may import core alone
# (the domain error every layer shares, pure standard-library Python).
PROJECT_PACKAGES = {"api", "config", "core", "games", "league", "web"}


def test_the_engine_imports_core_and_no_other_project_package() -> None:
    imported: dict[str, set[str]] = {}
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = {node.module}
            elif isinstance(node, ast.Import):
                names = {alias.name for alias in node.names}
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in PROJECT_PACKAGES:
                    imported.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    assert set(imported) == {"core"}, imported


RULES_MODULES = sorted(
    "engine." + path.stem for path in ENGINE.glob("*.py") if path.stem not in ("__init__",)
)


def _imports(module: str) -> set[str]:
    """The engine modules ``module`` imports, at run time or for type checking alike."""
    path = ENGINE / (module.removeprefix("engine.").replace(".", "/") + ".py")
    found: set[str] = set()
    for node in ast.walk(parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("engine"):
            if node.module == "engine":
                found |= {f"engine.{alias.name}" for alias in node.names}
            else:
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("engine.")}
    return {name for name in found if name in RULES_MODULES}


def test_the_engine_modules_import_one_another_without_a_cycle() -> None:
    graph = {module: _imports(module) for module in RULES_MODULES}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, "import cycle: " + " -> ".join((*path, module))
        if module not in done:
            for imported in sorted(graph[module]):
                visit(imported, (*path, module))
            done.add(module)

    for module in RULES_MODULES:
        visit(module, ())
    assert graph["engine.values"] == set()  # the leaf that holds Seat and MatchResult


@pytest.mark.parametrize("module", ["engine.state", "engine.events", "engine.codec", "engine.visibility"])
def test_each_module_imports_first_in_a_fresh_interpreter(module: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr


def test_the_rules_never_import_the_bots() -> None:
    assert [
        m
        for m in RULES_MODULES
        if "engine.bots" in _imports(m) or any(n.startswith("engine.bots") for n in _all_imported_names(m))
    ] == []


def _all_imported_names(module: str) -> set[str]:
    path = ENGINE / (module.removeprefix("engine.") + ".py")
    names: set[str] = set()
    for node in ast.walk(parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
    return names


def test_no_module_shares_a_name_with_a_public_function() -> None:
    import engine

    assert sorted(name for name in engine.__all__ if (ENGINE / f"{name}.py").exists()) == []
    # Sorted as ruff's RUF022 sorts: constants, then classes, then functions.
    assert engine.__all__ == sorted(
        engine.__all__, key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n)
    )
    assert len(set(engine.__all__)) == len(engine.__all__)


def test_no_engine_function_shares_its_modules_name() -> None:
    clashes = []
    for path in sorted(ENGINE.rglob("*.py")):
        names = {
            node.name
            for node in parse(path.read_text()).body
            if isinstance(node, (ast.FunctionDef, ast.ClassDef))
        }
        if path.stem in names:
            clashes.append(str(path.relative_to(ROOT)))
    assert clashes == []


def test_the_engines_tests_use_no_database() -> None:
    """CI runs tests/engine beside the database passes, in a process that never creates a
    test database (scripts/test.sh): no test here may ask for one, or reach the league."""
    asking = {"django_db", "db", "transactional_db", "live_server", "client", "settings"}
    found = []
    for path in sorted((ROOT / "tests" / "engine").rglob("*.py")):
        tree = parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                top = node.module.split(".")[0]
            elif isinstance(node, ast.Import):
                top = node.names[0].name.split(".")[0]
            elif isinstance(node, ast.Attribute) and node.attr == "django_db":
                found.append(f"{path.name}: django_db")
                continue
            elif isinstance(node, ast.arg) and node.arg in asking:
                found.append(f"{path.name}: fixture {node.arg}")
                continue
            else:
                continue
            if top in {"django", "rest_framework", "games", "league", "web", "api", "config"}:
                found.append(f"{path.name}: imports {top}")
    assert found == []
